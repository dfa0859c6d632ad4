/*
 * round.h - one portfolio round: every candidate policy is run by the
 * simulator's engine (common/simulate/engine.h) on the same future -- the
 * cluster and the jobs of a snapshot, as specs -- a few times with task
 * lengths drawn from the estimates' spread, and scored (score.h).
 *
 * No I/O, no global state: everything lives in the caller's structures.
 * Deterministic: the same specs, configuration and seed give the same
 * scores.  Every candidate sees the same draws in sample k (common random
 * numbers), so a difference in score is the policies', not the dice's.
 * With a recent past (dl_pf_params past_*), every candidate also runs it,
 * and a sample's score is that of both runs' jobs together.
 * Bounded: past `budget_s` of wall time the round stops and is marked
 * over budget (the caller keeps its policy).  Scaled: a large queue is
 * simulated as a sample of its arrays on the same share of the cluster,
 * with plan cycles on a coarser grid (dl_pf_params).
 */
#ifndef DL_PORTFOLIO_ROUND_H
#define DL_PORTFOLIO_ROUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/config/config.h"
#include "common/plan/plan.h"
#include "common/portfolio/forecast.h"
#include "common/portfolio/score.h"
#include "common/simulate/spec.h"

#define DL_PF_MAX_CANDIDATES DL_POLICY_COUNT
#define DL_PF_MAX_SAMPLES    64

struct dl_pf_params {
	uint32_t samples; /* runs per candidate, 1..DL_PF_MAX_SAMPLES */
	uint64_t seed;    /* of the samples' draws */
	double budget_s;  /* wall-time budget of the whole round, > 0 */
	double horizon_s; /* simulated seconds; 0 = until every job ends */
	/* the round's model (scale.h): above sample_tasks queued tasks a
	 * seeded sample of the arrays on the same share of the cluster (0:
	 * never); plans at most every plan_grid s, and plan_grid s after
	 * task ends (0: PlanInterval and ReplanDelay as configured), the grid
	 * never above a tenth of the nearest deadline's distance */
	uint64_t sample_tasks;
	double plan_grid;
	struct dl_pf_weights weights;
	/* the arrival forecast (forecast.h): the recent arrivals replayed
	 * over the next `window` s from the run's origin, the snapshot's
	 * `now`; recent NULL or window 0: none */
	const struct dl_pf_recent *recent;
	double window, now, origin;
	/* hindsight (hindsight.h): the recent past as a workload of its own
	 * -- the queue at a past round and the jobs that arrived since --
	 * run under every candidate with the same draws as the look-ahead,
	 * its jobs pooled with the look-ahead's in each sample's score (one
	 * tally, dl_pf_tally_merge), the two sampled to sample_tasks / 2
	 * each; NULL or no jobs: none */
	const struct sim_cluster_spec *past_cs;
	const struct sim_workload_spec *past_ws;
	/* the live plan (the scheduler's last): what it carries from cycle
	 * to cycle -- triage's reserve history and arrival rate, which jobs
	 * it has judged -- the look-ahead's first cycle carries on
	 * (dl_pf_live_memory), so a candidate runs as it would from now;
	 * NULL: from nothing */
	const struct dl_plan *live;
};

struct dl_pf_result {
	enum dl_policy policy;
	bool scored;              /* every sample ran */
	struct dl_pf_score score; /* the mean of the samples' scores */
	struct dl_pf_score past;  /* the hindsight part alone (0: none) */
	double worst_total;       /* the worst sample's total */
	double sample_total[DL_PF_MAX_SAMPLES]; /* each sample's total */
	char err[160]; /* why not scored (other than the budget) */
};

struct dl_pf_round {
	uint32_t n;
	struct dl_pf_result r[DL_PF_MAX_CANDIDATES];
	bool over_budget;
	uint32_t runs;     /* engine runs completed */
	uint32_t samples;  /* samples every scored candidate ran */
	bool misses_count; /* missed deadlines weigh in the score */
	double wall_s;
	/* what was simulated: arrays and nodes of the (sampled) queue, its
	 * share of the queue's work (1: the whole queue) */
	uint32_t jobs, nodes;
	double share;
	bool hindsight;     /* the scores pool the recent past's jobs */
	uint32_t past_jobs; /* arrays of the recent past simulated */
	uint64_t plans;     /* plan cycles simulated, every run */
};

/* The plan grid of a round into *out: `grid`, but never coarser than a
 * tenth of the median job's deadline distance (deadline - arrival), so a
 * queue of jobs due in a minute is not planned once a minute (it would
 * compare nothing).  0 or ENOMEM. */
int dl_pf_round_grid(const struct sim_workload_spec *ws, double grid,
		     double *out);

/* The memory of the live plan for a run of ws: its reserve history and
 * arrival rate, and an entry (id: the engine's, 1 + the index in ws;
 * verdict: the live one) for each job of ws -- named by its live id
 * (future.h) -- that the live plan has judged, so that the run does not
 * learn from it a second time.  Its policy is portfolio's: no policy
 * takes it for its own previous plan (triage's hysteresis).  NULL when
 * live is NULL or out of memory (the run then starts from nothing);
 * dl_plan_free it. */
struct dl_plan *dl_pf_live_memory(const struct dl_plan *live,
				  const struct sim_workload_spec *ws);

/* Run a round of the candidates (each a planning policy, listed once:
 * triage, edf, adaptive, ras, reverse) under cfg.  0 with *out filled --
 * also over budget, which out->over_budget says -- or EINVAL (bad
 * arguments) / ENOMEM with err set. */
int dl_pf_run_round(const struct sim_cluster_spec *cs,
		    const struct sim_workload_spec *ws,
		    const struct dl_config *cfg, const enum dl_policy *cands,
		    uint32_t ncands, const struct dl_pf_params *p,
		    struct dl_pf_round *out, char *err, size_t errlen);

#endif
