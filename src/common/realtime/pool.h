/*
 * realtime/pool.h - pools and their queues (private to realtime/; lock
 * held): lookup, insertion, the anchors finished jobs leave behind.
 */
#ifndef DL_RT_POOL_H
#define DL_RT_POOL_H

#include <stdbool.h>
#include <stdint.h>
#include "common/realtime/internal.h"

void rt_job_free(struct rt_job *j);
void rt_pool_free(struct rt_pool *pl);

struct rt_pool *rt_find_pool(struct dl_rt_state *st, const char *name);
struct rt_pool *rt_add_pool(struct dl_rt_state *st, const char *name);
/* The head of an empty pool: every unit free at now; ENOMEM. */
int rt_init_head(struct rt_pool *pl, double now);

/* Position of a job (map or reduce id) in its pool; NULL if absent. */
struct rt_job *rt_find_job(struct dl_rt_state *st, uint64_t id,
			   struct rt_pool **pool, uint32_t *pos);
/* The same by ticket (map or reduce ticket). */
struct rt_job *rt_find_ticket(struct dl_rt_state *st, uint64_t ticket,
			      struct rt_pool **pool, uint32_t *pos);

/* Insert at pos; ENOMEM. */
int rt_insert(struct rt_pool *pl, uint32_t pos, struct rt_job *j);
/* Take q[pos] out of the queue (not freed). */
void rt_unlink(struct rt_pool *pl, uint32_t pos);

/* The first position a new job may take: behind the job that started
 * last (the dispatcher never pre-empts a started job), 0 when none has. */
uint32_t rt_first_open(const struct rt_pool *pl);
/* Vectors before position pos (the pool's head for 0), and their pad. */
const struct dl_rt_vec *rt_pred(const struct rt_pool *pl, uint32_t pos);
double rt_pred_pad(const struct rt_pool *pl, uint32_t pos);

/* A job left (finished or cancelled): one that started stays as an
 * anchor (its vectors are what the jobs behind it build on) until every
 * job ahead of it has left; the anchors at the front fold into the head. */
void rt_retire(struct rt_pool *pl, uint32_t pos, bool prune);
void rt_prune(struct rt_pool *pl);

#endif
