/*
 * realtime/place.c - placing a job at a position of a pool's queue and
 * following its effect down the queue, exactly or by padding.
 *
 * Why padding is safe.  Placing a job at pos delays the jobs behind it.
 * Let d be how much later the new predecessor vectors free any unit than
 * the old ones did (dl_rt_vec_excess, a sup over the sorted units).  List
 * scheduling is monotone and 1-Lipschitz in that norm: when every unit of
 * its input frees at most d later, every unit of its output, every task
 * start and the finish move by at most d; by induction so does everything
 * behind.  Once d fits in the least slack of all the jobs further down
 * (deadline minus finish, last allowed start minus last start), none of
 * them can miss, so instead of recomputing them each gets d added to a
 * lazy pad that its bounds carry (vectors + pad, finish + pad, starts +
 * pad).  The padded bound is larger than the exact one, so the invariant
 * of chain.c holds; it is only less tight, and the next exact computation
 * of the job (a placement ahead of it, feedback, a rebuild) clears it.
 * Until d fits, the jobs are recomputed exactly one by one, each giving
 * the d of the next (the excess of its new vectors over its old padded
 * ones), which usually shrinks fast.  DL_RT_EXACT recomputes them all.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/realtime/chain.h"
#include "common/realtime/place.h"
#include "common/realtime/pool.h"

static void trial_clear(struct rt_trial *t)
{
	for (int p = 0; p < DL_PHASES; p++)
		dl_rt_vec_free(&t->jv[p]);
	for (uint32_t i = 0; i < t->nsucc; i++)
		for (int p = 0; p < DL_PHASES; p++)
			dl_rt_vec_free(&t->sv[i][p]);
	t->nsucc = 0;
	t->shift = 0;
	memset(&t->blocker, 0, sizeof(t->blocker));
}

void rt_trial_free(struct rt_trial *t)
{
	trial_clear(t);
	free(t->sv);
	free(t->sc);
}

int rt_trial_alloc(struct rt_trial *t, uint32_t n)
{
	memset(t, 0, sizeof(*t));
	t->cap = n ? n : 1;
	t->sv = calloc(t->cap, sizeof(*t->sv));
	t->sc = calloc(t->cap, sizeof(*t->sc));
	return t->sv && t->sc ? 0 : ENOMEM;
}

/* How much later than its model a job may finish (and start its last
 * tasks) without missing anything.  Held and finished jobs cannot miss:
 * a held job places nothing, an anchor's vectors do not move with its
 * predecessor (chain.c). */
static double job_slack(const struct rt_job *j)
{
	double s;

	if (j->held || j->finished)
		return INFINITY;
	s = j->deadline - (j->finish + j->pad);
	for (int p = 0; p < DL_PHASES; p++)
		if (j->latest_start[p] > 0 && !isnan(j->last_start[p]))
			s = fmin(s, j->latest_start[p] -
					    (j->last_start[p] + j->pad));
	return s;
}

/* slack[i] = the least slack of the jobs at positions i.. (n+1 entries) */
double *rt_suffix_slack(const struct rt_pool *pl)
{
	double *sl = malloc((pl->n + 1) * sizeof(*sl));

	if (!sl)
		return NULL;
	sl[pl->n] = INFINITY;
	for (uint32_t i = pl->n; i-- > 0;)
		sl[i] = fmin(job_slack(pl->q[i]), sl[i + 1]);
	return sl;
}

static double excess(const struct dl_rt_vec a[DL_PHASES],
		     const struct dl_rt_vec b[DL_PHASES], double bpad)
{
	return fmax(dl_rt_vec_excess(&a[0], &b[0], bpad),
		    dl_rt_vec_excess(&a[1], &b[1], bpad));
}

/* Place j at position pos (j not in the queue) and follow the effect down
 * the queue: the later jobs are recomputed one by one while the shift they
 * receive exceeds the slack of some job further down; once it fits in the
 * slack of all of them (list scheduling is monotone and 1-Lipschitz: a
 * predecessor freeing every unit at most d later moves every later job by
 * at most d), the rest is padded by it instead.  *ok: j and every later
 * job still meet their deadlines. */
int rt_try_at(const struct dl_rt_state *st, const struct rt_pool *pl,
	      const struct rt_job *j, uint32_t pos, double now,
	      const double *slack, struct rt_trial *t, uint32_t *budget,
	      bool *ok)
{
	const struct dl_rt_vec *prev;
	bool exact = st->p.flags & DL_RT_EXACT;
	double delta;
	int rc;

	trial_clear(t);
	*ok = false;
	rc = rt_calt(pl, j, rt_pred(pl, pos), rt_pred_pad(pl, pos), now, t->jv,
		     &t->jc);
	if (rc)
		return rc;
	if (!t->jc.ok || !t->jc.fits)
		return 0;
	prev = t->jv;
	delta = excess(t->jv, rt_pred(pl, pos), rt_pred_pad(pl, pos));
	for (uint32_t i = pos; i < pl->n; i++) {
		const struct rt_job *s = pl->q[i];
		struct rt_calc *sc = &t->sc[t->nsucc];
		struct dl_rt_vec *sv = t->sv[t->nsucc];

		if (!(delta > 1e-9))
			break; /* no later job moves */
		if (!exact && slack[i] >= delta) {
			t->shift = delta;
			break;
		}
		if (!*budget)
			return ETIME;
		(*budget)--;
		memset(sv, 0, sizeof(t->sv[0]));
		rc = rt_calt(pl, s, prev, 0, now, sv, sc);
		t->nsucc++;
		if (rc)
			return rc;
		if (s->finished) {
			/* an anchor's vectors are its predecessor's with its
			 * own finish times in place of the earliest entries
			 * (SATU); the entries it did not replace move with the
			 * predecessor, so shifting all of them by delta keeps
			 * an upper bound, and the shift passes through */
			dl_rt_vec_shift(&sv[0], delta);
			dl_rt_vec_shift(&sv[1], delta);
			sc->finish += delta;
			sc->map_finish += delta;
			prev = sv;
			continue;
		}
		if (!s->held && (!sc->ok || !sc->fits)) {
			t->blocker.id = s->id ? s->id : s->ticket;
			t->blocker.ticket = !s->id;
			t->blocker.finish = sc->fits ? sc->finish : INFINITY;
			t->blocker.deadline = s->deadline;
			return 0;
		}
		delta = excess(sv, s->vec, s->pad);
		prev = sv;
	}
	*ok = true;
	return 0;
}

/* Move the trial into the queue: j at pos, the recomputed jobs behind it,
 * the pad on the rest. */
int rt_trial_commit(struct rt_pool *pl, uint32_t pos, struct rt_job *j,
		    struct rt_trial *t)
{
	int rc = rt_insert(pl, pos, j);

	if (rc)
		return rc;
	for (int p = 0; p < DL_PHASES; p++) {
		dl_rt_vec_free(&j->vec[p]);
		j->vec[p] = t->jv[p];
		memset(&t->jv[p], 0, sizeof(t->jv[p]));
	}
	rt_store_calc(j, &t->jc);
	for (uint32_t i = 0; i < t->nsucc; i++) {
		struct rt_job *s = pl->q[pos + 1 + i];

		for (int p = 0; p < DL_PHASES; p++) {
			dl_rt_vec_free(&s->vec[p]);
			s->vec[p] = t->sv[i][p];
			memset(&t->sv[i][p], 0, sizeof(t->sv[i][p]));
		}
		rt_store_calc(s, &t->sc[i]);
	}
	if (t->shift > 0)
		for (uint32_t i = pos + 1 + t->nsucc; i < pl->n; i++)
			pl->q[i]->pad += t->shift;
	t->nsucc = 0;
	return 0;
}

int rt_try_place(const struct dl_rt_state *st, struct rt_pool *pl,
		 struct rt_job *j, uint32_t pos, double now, uint32_t *budget,
		 bool *ok, struct rt_blocker *blocker, double *finish)
{
	struct rt_trial t;
	double *slack = rt_suffix_slack(pl);
	int rc = rt_trial_alloc(&t, pl->n + 1);

	*ok = false;
	if (!rc && !slack)
		rc = ENOMEM;
	if (!rc)
		rc = rt_try_at(st, pl, j, pos, now, slack, &t, budget, ok);
	if (!rc && *ok)
		rc = rt_trial_commit(pl, pos, j, &t);
	if (rc)
		*ok = false;
	if (blocker)
		*blocker = t.blocker;
	if (finish)
		*finish = !rc && t.jc.fits ? t.jc.finish : NAN;
	rt_trial_free(&t);
	free(slack);
	return rc;
}
