/*
 * rt_sim.h - a small discrete-event simulator of the realtime policy for the
 * property tests: jobs arrive, are judged by dl_rt_admit, and run under the
 * dispatcher's reservation walk (dl_rt_walk) in the state's queue order,
 * with actual task lengths drawn at or below their worst case.  Finished
 * jobs go through the feedback controller (or, in the Slurm-like mode, the
 * state is resynced from live job snapshots with dl_rt_sync).
 */
#ifndef DL_TEST_RT_SIM_H
#define DL_TEST_RT_SIM_H

#include "common/realtime/dispatch.h"
#include "rt_fixtures.h"

#ifndef SIM_TRACE
#define SIM_TRACE 0
#endif
#define SIM_MAX_JOBS  64
#define SIM_MAX_TASKS 4096

enum sim_mode {
	SIM_FEEDBACK = 0, /* Alg. V at each job's end, then removal */
	SIM_NO_FEEDBACK,  /* removal only */
	SIM_RESYNC,       /* dl_rt_sync with live snapshots (Slurm path) */
};

struct sjob {
	struct dl_rt_request req;
	double len[2][64]; /* actual task lengths */
	double start[2][64], end[2][64];
	uint32_t started[2], done[2];
	double finish;
	bool admitted, finished, marked, reported;
};

struct stask {
	double end;
	uint32_t job;
	int phase;
	uint32_t idx;
	bool live;
};

struct sim {
	struct dl_rt_state *st;
	bool split;
	uint32_t units[2];
	uint32_t busy[2];
	struct sjob jobs[SIM_MAX_JOBS];
	uint32_t njobs;
	struct stask tasks[SIM_MAX_TASKS];
	uint32_t ntasks;
	enum sim_mode mode;
	uint32_t admitted, rejected, late, held;
	uint32_t feedback_updates; /* Alg. V rebuilt vectors */
	struct dl_cluster cl;      /* for dl_rt_sync */
};

static inline struct sjob *sim_find(struct sim *s, uint64_t id)
{
	for (uint32_t i = 0; i < s->njobs; i++)
		if (s->jobs[i].req.id == id)
			return &s->jobs[i];
	return NULL;
}

static inline bool sim_maps_done(const struct sjob *j)
{
	return j->done[DL_MAP] == j->req.tasks[DL_MAP];
}

static inline void sim_start(struct sim *s, struct sjob *j, int ph, double t)
{
	uint32_t i = j->started[ph]++;
	int pool = s->split ? ph : 0;
	struct stask *tk;

	ck_assert_uint_lt(s->ntasks, SIM_MAX_TASKS);
	tk = &s->tasks[s->ntasks++];
	tk->end = t + j->len[ph][i];
	tk->job = (uint32_t) (j - s->jobs);
	tk->phase = ph;
	tk->idx = i;
	tk->live = true;
	j->start[ph][i] = t;
	if (SIM_TRACE)
		printf("  t=%.2f start job %llu %s task %u (len %.2f)\n", t,
		       (unsigned long long) j->req.id, ph ? "reduce" : "map", i,
		       j->len[ph][i]);
	s->busy[pool] += j->req.cpus[ph];
	ck_assert_uint_le(s->busy[pool], s->units[pool]);
}

/* One pass of the dispatcher over the state's queue, per pool. */
static inline void sim_dispatch(struct sim *s, double t)
{
	uint32_t n = dl_rt_count(s->st);
	struct dl_rt_walk_job w[SIM_MAX_JOBS];
	struct sjob *order[SIM_MAX_JOBS];
	uint32_t m = 0;

	for (uint32_t i = 0; i < n; i++) {
		struct dl_rt_job_info info;
		struct sjob *j;

		ck_assert_int_eq(dl_rt_job_at(s->st, i, &info), 0);
		j = sim_find(s, info.id);
		ck_assert_ptr_nonnull(j);
		if (j->finished || info.held)
			continue;
		order[m++] = j;
	}
	for (int pool = 0; pool < (s->split ? 2 : 1); pool++) {
		for (uint32_t k = 0; k < m; k++) {
			struct sjob *j = order[k];
			const struct dl_rt_request *r = &j->req;
			bool md = sim_maps_done(j);

			memset(&w[k], 0, sizeof(w[k]));
			if ((!s->split || pool == DL_MAP) &&
			    j->started[DL_MAP] < r->tasks[DL_MAP]) {
				w[k].ready =
					r->tasks[DL_MAP] - j->started[DL_MAP];
				w[k].cpus = r->cpus[DL_MAP];
			} else if ((!s->split || pool == DL_REDUCE) && md &&
				   j->started[DL_REDUCE] <
					   r->tasks[DL_REDUCE]) {
				w[k].ready = r->tasks[DL_REDUCE] -
					     j->started[DL_REDUCE];
				w[k].cpus = r->cpus[DL_REDUCE];
			}
			if ((!s->split || pool == DL_REDUCE) && !md)
				w[k].reserve = (uint64_t) r->tasks[DL_REDUCE] *
					       r->cpus[DL_REDUCE];
		}
		dl_rt_walk(w, m, s->units[pool] - s->busy[pool]);
		for (uint32_t k = 0; k < m; k++) {
			struct sjob *j = order[k];
			int ph =
				(!s->split
					 ? (j->started[DL_MAP] <
							    j->req.tasks[DL_MAP]
						    ? DL_MAP
						    : DL_REDUCE)
					 : pool);

			if (!w[k].granted)
				continue;
			if (!j->marked) {
				ck_assert_int_eq(
					dl_rt_mark_started(s->st, j->req.id),
					0);
				j->marked = true;
			}
			for (uint32_t g = 0; g < w[k].granted; g++)
				sim_start(s, j, ph, t);
		}
	}
}

/* The live snapshot of the admitted, unreported jobs as the sched plugin
 * would give it to the plan. */
static inline void sim_resync(struct sim *s, double t)
{
	struct dl_job *live[SIM_MAX_JOBS];
	uint32_t n = 0;
	struct dl_rt_sync_stats stats;

	for (uint32_t i = 0; i < s->njobs; i++) {
		struct sjob *j = &s->jobs[i];
		struct dl_job *x;

		if (!j->admitted || j->reported)
			continue;
		x = dl_job_new(j->req.id, "alice", "wc", "acct");
		ck_assert_ptr_nonnull(x);
		x->submit = j->req.arrival;
		x->soft_deadline = j->req.deadline;
		for (int ph = 0; ph < 2; ph++) {
			ck_assert_int_eq(dl_phase_init(x, ph, j->req.tasks[ph],
						       j->req.cpus[ph], 0),
					 0);
		}
		for (uint32_t k = 0; k < s->ntasks; k++) {
			struct stask *tk = &s->tasks[k];

			if (tk->live && &s->jobs[tk->job] == j)
				ck_assert_int_eq(
					dl_phase_add_running(
						&x->phase[tk->phase],
						j->start[tk->phase][tk->idx],
						DL_NO_NODE, DL_POOL_REGULAR),
					0);
		}
		for (int ph = 0; ph < 2; ph++)
			for (uint32_t k = 0; k < j->done[ph]; k++)
				ck_assert_int_eq(
					dl_phase_add_completed(&x->phase[ph], 1,
							       DL_POOL_REGULAR),
					0);
		if (j->finished)
			j->reported = true;
		live[n++] = x;
	}
	ck_assert_int_eq(dl_rt_sync(s->st, live, n, &s->cl, t, &stats), 0);
	s->held += stats.held;
	for (uint32_t i = 0; i < n; i++)
		dl_job_free(live[i]);
}

static inline void sim_end_job(struct sim *s, struct sjob *j, double t)
{
	double me[64], re[64];

	j->finished = true;
	j->finish = t;
	if (SIM_TRACE) {
		struct dl_rt_job_info in;

		if (!dl_rt_job_get(s->st, j->req.id, &in) &&
		    t > in.finish + 1e-6)
			printf("VIOLATION job %llu finished %g > model %g\n",
			       (unsigned long long) j->req.id, t, in.finish);
	}
	if (SIM_TRACE)
		printf("t=%.2f job %llu finished (deadline %.2f)%s\n", t,
		       (unsigned long long) j->req.id, j->req.deadline,
		       t > j->req.deadline + 1e-6 ? " LATE" : "");
	if (t > j->req.deadline + 1e-6)
		s->late++;
	if (s->mode == SIM_RESYNC)
		return; /* dl_rt_sync sees it finished */
	memcpy(me, j->end[DL_MAP], sizeof(me));
	memcpy(re, j->end[DL_REDUCE], sizeof(re));
	if (s->mode == SIM_FEEDBACK) {
		/* feedback never makes an admitted job's worst case later */
		uint32_t n = dl_rt_count(s->st);
		uint64_t ids[SIM_MAX_JOBS];
		double before[SIM_MAX_JOBS];
		bool updated = false;

		for (uint32_t i = 0; i < n; i++) {
			struct dl_rt_job_info info;

			ck_assert_int_eq(dl_rt_job_at(s->st, i, &info), 0);
			ids[i] = info.id;
			before[i] = info.finish;
		}
		ck_assert_int_eq(dl_rt_feedback(s->st, j->req.id, me,
						j->req.tasks[DL_MAP], re,
						j->req.tasks[DL_REDUCE], t,
						&updated),
				 0);
		s->feedback_updates += updated;
		for (uint32_t i = 0; i < n; i++) {
			struct dl_rt_job_info info;

			ck_assert_int_eq(dl_rt_job_get(s->st, ids[i], &info),
					 0);
			if (info.id == j->req.id)
				continue;
			if (SIM_TRACE && info.finish > before[i] + 1e-9)
				printf("MOVED job %llu pos %u started %d "
				       "finished %d: %g -> %g\n",
				       (unsigned long long) ids[i],
				       info.position, info.started,
				       info.finished, before[i], info.finish);
			ck_assert_msg(info.finish <= before[i] + 1e-9,
				      "feedback moved job %llu's finish from "
				      "%g to %g",
				      (unsigned long long) ids[i], before[i],
				      info.finish);
		}
	}
	ck_assert_int_eq(dl_rt_remove(s->st, j->req.id), 0);
}

/* Every admitted job that has not finished still meets its deadline in
 * the state's own model. */
static inline void sim_check_model(struct sim *s)
{
	uint32_t n = dl_rt_count(s->st);

	for (uint32_t i = 0; i < n; i++) {
		struct dl_rt_job_info info;

		ck_assert_int_eq(dl_rt_job_at(s->st, i, &info), 0);
		if (info.held || info.finished)
			continue;
		ck_assert_msg(
			info.finish <= info.deadline + 1e-6,
			"admitted job %llu: model finish %g > deadline %g",
			(unsigned long long) info.id, info.finish,
			info.deadline);
	}
}

/* Run to the end; arrivals are jobs[] in arrival order. */
static inline void sim_run(struct sim *s)
{
	uint32_t next = 0;
	double t = 0;

	for (;;) {
		double tn = INFINITY;

		if (next < s->njobs)
			tn = s->jobs[next].req.arrival;
		for (uint32_t k = 0; k < s->ntasks; k++)
			if (s->tasks[k].live && s->tasks[k].end < tn)
				tn = s->tasks[k].end;
		if (!isfinite(tn))
			break;
		t = tn;
		/* task ends */
		for (uint32_t k = 0; k < s->ntasks; k++) {
			struct stask *tk = &s->tasks[k];
			struct sjob *j;

			if (!tk->live || tk->end > t)
				continue;
			tk->live = false;
			j = &s->jobs[tk->job];
			j->end[tk->phase][tk->idx] = t;
			j->done[tk->phase]++;
			s->busy[s->split ? tk->phase : 0] -=
				j->req.cpus[tk->phase];
			if (j->done[DL_MAP] == j->req.tasks[DL_MAP] &&
			    j->done[DL_REDUCE] == j->req.tasks[DL_REDUCE])
				sim_end_job(s, j, t);
		}
		/* arrivals */
		while (next < s->njobs && s->jobs[next].req.arrival <= t) {
			struct sjob *j = &s->jobs[next++];
			struct dl_rt_verdict v;

			ck_assert_int_eq(
				dl_rt_admit(s->st, &j->req, t, true, &v), 0);
			ck_assert(v.msg[0]);
			j->admitted = v.admitted;
			if (SIM_TRACE) {
				printf("t=%.2f job %llu: %s\n", t,
				       (unsigned long long) j->req.id, v.msg);
				for (uint32_t q = 0; q < dl_rt_count(s->st);
				     q++) {
					struct dl_rt_job_info in;

					dl_rt_job_at(s->st, q, &in);
					printf("    [%u] job %llu key %.1f fin "
					       "%.2f "
					       "map %.2f st %d fin %d\n",
					       q, (unsigned long long) in.id,
					       in.key, in.finish, in.map_finish,
					       in.started, in.finished);
				}
			}
			if (v.admitted)
				s->admitted++;
			else
				s->rejected++;
		}
		if (s->mode == SIM_RESYNC)
			sim_resync(s, t);
		sim_check_model(s);
		sim_dispatch(s, t);
	}
	/* every admitted job ran to its end */
	for (uint32_t i = 0; i < s->njobs; i++)
		if (s->jobs[i].admitted)
			ck_assert_msg(s->jobs[i].finished,
				      "admitted job %u never finished", i);
}

/* A random workload: jobs with maps, reduces (sometimes more than the
 * reduce slots), tasks of 1-2 units in a shared pool, actual lengths in
 * [lo, 1] x worst case. */
static inline void sim_random(struct sim *s, struct rng *r, bool split,
			      enum sim_mode mode, uint32_t flags, double lo)
{
	double t = 0;

	memset(s, 0, sizeof(*s));
	s->split = split;
	s->mode = mode;
	s->units[DL_MAP] = rng_u(r, 1, 12);
	s->units[DL_REDUCE] = split ? rng_u(r, 1, 6) : s->units[DL_MAP];
	s->st = rt_state(s->units[DL_MAP], split ? s->units[DL_REDUCE] : 0,
			 flags);
	fx_cluster(&s->cl, 1, s->units[DL_MAP], 0);
	s->njobs = rng_u(r, 5, 30);
	for (uint32_t i = 0; i < s->njobs; i++) {
		struct sjob *j = &s->jobs[i];
		uint32_t maps = rng_u(r, 0, 16), reds = rng_u(r, 0, 10);
		double wm = rng_d(r, 1, 20), wr = rng_d(r, 1, 20), work;

		if (!maps && !reds)
			maps = 1;
		t += rng_d(r, 0, 15);
		work = (maps * wm + reds * wr) / s->units[DL_MAP];
		j->req = rt_req(i + 1, t,
				t + rng_d(r, 0.3, 4) * (work + wm + wr), maps,
				wm, reds, wr);
		if (!split) {
			uint32_t maxc = s->units[DL_MAP] < 2 ? 1 : 2;

			j->req.cpus[DL_MAP] = rng_u(r, 1, maxc);
			j->req.cpus[DL_REDUCE] = rng_u(r, 1, maxc);
		}
		for (int ph = 0; ph < 2; ph++)
			for (uint32_t k = 0; k < j->req.tasks[ph]; k++)
				j->len[ph][k] =
					rng_u(r, 0, 4) ? j->req.wc[ph] *
								 rng_d(r, lo, 1)
						       : j->req.wc[ph];
	}
}

static inline void sim_free(struct sim *s)
{
	dl_rt_state_free(s->st);
	dl_cluster_free(&s->cl);
}

#endif
