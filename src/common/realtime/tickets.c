/*
 * realtime/tickets.c - admission before Slurm has a job id: tickets,
 * their binding to ids, and the marks job_submit leaves in a job's
 * control environment.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/job_hints.h"
#include "common/realtime/internal.h"
#include "common/realtime/pool.h"

uint64_t dl_rt_new_ticket(struct dl_rt_state *st)
{
	uint64_t t;

	if (!st)
		return 0;
	pthread_mutex_lock(&st->lock);
	do {
		t = ++st->next_ticket;
		if (!t)
			t = ++st->next_ticket;
	} while (rt_find_ticket(st, t, NULL, NULL));
	pthread_mutex_unlock(&st->lock);
	return t;
}

int dl_rt_bind(struct dl_rt_state *st, uint64_t ticket, uint64_t job_id)
{
	struct rt_job *j;
	int rc = ENOENT;

	if (!st || !ticket || !job_id)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_ticket(st, ticket, NULL, NULL);
	if (j) {
		rc = 0;
		if (j->ticket == ticket && j->id != job_id) {
			if (j->id)
				rc = EEXIST;
			else
				j->id = job_id;
		} else if (j->reduce_ticket == ticket &&
			   j->reduce_id != job_id) {
			if (j->reduce_id)
				rc = EEXIST;
			else
				j->reduce_id = job_id;
		}
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

void dl_rt_ticket_floor(struct dl_rt_state *st, uint64_t floor)
{
	if (!st)
		return;
	pthread_mutex_lock(&st->lock);
	if (st->next_ticket < floor)
		st->next_ticket = floor;
	pthread_mutex_unlock(&st->lock);
}

int dl_rt_adopt_ticket(struct dl_rt_state *st, uint64_t ticket, uint64_t job_id)
{
	struct rt_job *j;
	int rc = ENOENT;

	if (!st || !ticket || !job_id)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	if (rt_find_ticket(st, ticket, NULL, NULL)) {
		rc = EEXIST;
	} else if ((j = rt_find_job(st, job_id, NULL, NULL))) {
		/* only a job the set knows without a ticket for that array:
		 * one admitted at plan time, by its id */
		if (j->id == job_id && !j->ticket) {
			j->ticket = ticket;
			rc = 0;
		} else if (j->reduce_id == job_id && !j->reduce_ticket) {
			j->reduce_ticket = ticket;
			rc = 0;
		}
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

uint64_t dl_rt_ticket_from_env(char *const *env, uint32_t count)
{
	size_t plen = strlen(DL_ENV_PREFIX), nlen = strlen(DL_ENV_RT_TICKET);

	if (!env)
		return 0;
	for (uint32_t i = 0; i < count; i++) {
		const char *e = env[i];
		char *end;
		unsigned long long v;

		if (!e)
			continue;
		if (!strncmp(e, DL_ENV_PREFIX, plen))
			e += plen;
		if (strncmp(e, DL_ENV_RT_TICKET, nlen) || e[nlen] != '=')
			continue;
		e += nlen + 1;
		if (*e < '0' || *e > '9')
			return 0;
		errno = 0;
		v = strtoull(e, &end, 10);
		if (errno || *end)
			return 0;
		return v;
	}
	return 0;
}

int dl_rt_hold_env_index(char *const *env, uint32_t count)
{
	size_t plen = strlen(DL_ENV_PREFIX), nlen = strlen(DL_ENV_RT_HOLD);

	for (uint32_t i = 0; env && i < count && i < INT32_MAX; i++) {
		const char *e = env[i];

		if (!e)
			continue;
		if (!strncmp(e, DL_ENV_PREFIX, plen))
			e += plen;
		if (!strncmp(e, DL_ENV_RT_HOLD, nlen) && e[nlen] == '=')
			return strcmp(e + nlen + 1, "1") ? -1 : (int) i;
	}
	return -1;
}

bool dl_rt_hold_from_env(char *const *env, uint32_t count)
{
	return dl_rt_hold_env_index(env, count) >= 0;
}

bool dl_rt_submit_hold_ours(struct dl_rt_state *st, uint64_t job_id,
			    char *const *env, uint32_t count)
{
	struct dl_rt_job_info info;
	uint64_t t;

	if (!st || !job_id || dl_rt_hold_env_index(env, count) < 0)
		return false;
	t = dl_rt_ticket_from_env(env, count);
	return t && !dl_rt_job_get(st, job_id, &info) &&
	       (info.ticket == t || info.reduce_ticket == t);
}
