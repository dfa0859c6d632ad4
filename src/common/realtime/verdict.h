/*
 * realtime/verdict.h - the one-line verdicts users read (private to
 * realtime/).
 */
#ifndef DL_RT_VERDICT_H
#define DL_RT_VERDICT_H

#include "common/realtime/internal.h"
#include "common/realtime/place.h"

/* The verdict's message; long parts are cut at the buffer's end. */
__attribute__((format(printf, 2, 3))) void rt_set_msg(struct dl_rt_verdict *v,
						      const char *fmt, ...);
/* The pool's units and the slots they make for j's tasks. */
void rt_fill_units(const struct rt_pool *pl, const struct rt_job *j,
		   struct dl_rt_verdict *v);
/* The job a placement would make miss, into the verdict. */
void rt_set_blocker(struct dl_rt_verdict *v, const struct rt_blocker *b);
/* Why j was not admitted: why when given, else the blocker in v or j's
 * earliest finish, with a deadline that would be admitted when v has
 * one. */
void rt_reject_message(struct dl_rt_verdict *v, const struct rt_pool *pl,
		       const struct rt_job *j, const char *why);

#endif
