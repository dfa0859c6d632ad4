/*
 * portfolio_round.c - the time of one portfolio round (issue 16's target:
 * <= 1 s at 1,000 active arrays): every candidate policy simulated by the
 * engine, `--samples` times each, on a queue of `--arrays` arrays present
 * at once on `--nodes` nodes until every one ends (or `--horizon`).
 *
 *   portfolio_round [--arrays N] [--nodes N] [--cpus C] [--samples K]
 *                   [--horizon S] [--plan-interval S]
 *                   [--replan-delay S] [--budget S] [--seed S]
 *                   [--policies triage,edf,adaptive] [--busy 0|1]
 *                   [--sample-tasks N] [--plan-grid S] [--repeat R]
 *                   [--queues Q] [--hindsight 0|1] [--live 0|1]
 *
 * The round's model is deadline.conf's default (PortfolioSampleTasks,
 * PortfolioPlanGrid) unless --sample-tasks / --plan-grid say otherwise (0
 * and 0: the whole queue with PlanInterval and ReplanDelay).  --busy 1
 * starts the queue with the cluster full of its running tasks (elapsed
 * uniform in [0, mean)), as a live snapshot is.
 *
 * Prints one line of key=value per round (--repeat R: R rounds of the same
 * queue, then the median): the round's wall time, engine runs, what was
 * simulated, the candidates' scores.  No time budget unless --budget (then
 * the line says whether the round ran over it).  --hindsight 1 gives the
 * round a recent past (PortfolioHindsight) of the same size: another queue
 * of the generator (seed + 1).  --live 1 gives it the memory of a live
 * plan, as slurmctld's rounds have (dl_pf_params.live): a full reserve
 * history of tight, fine-grained jobs, so that every task of the queue is
 * long for triage's blocking reserve (its most costly case), and an
 * arrival rate.
 *
 * --queues Q validates the round's model instead: on Q queues (seeds
 * seed..seed+Q-1, deadlines 0.25, 0.5, 0.75, 1 times the generator's in
 * turn) a full round (no sample, PlanInterval and ReplanDelay)
 * and the model's round, one line per queue, then how often both pick the
 * same winner, the full round's score of the model's winner above the best
 * (regret), and the error of the model's scores.
 */
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "common/portfolio/round.h"

static int parse_policies(const char *s, enum dl_policy *out, uint32_t *n)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	*n = 0;
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		int p = -1;

		for (int k = 0; k < DL_POLICY_COUNT; k++)
			if (!strcmp(t, dl_policy_name((enum dl_policy) k)))
				p = k;
		if (p < 0 || *n >= DL_PF_MAX_CANDIDATES)
			return EINVAL;
		out[(*n)++] = (enum dl_policy) p;
	}
	return *n ? 0 : EINVAL;
}

struct queue {
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
};

/* the queue: arrays of 10-500 one-CPU tasks of 30-600 s (lognormal, cv
 * 0.3), all present, deadlines 1.5-4x the work spread over a share of the
 * cluster, one in five without a deadline; with busy, the cluster full of
 * their running tasks (arrays in order, as wide as their share) */
static int build_queue(struct queue *q, uint32_t arrays, uint32_t nodes,
		       uint32_t cpus, uint64_t seed, bool busy, double tight)
{
	uint64_t free_cpus = (uint64_t) nodes * cpus;
	uint32_t node = 0, used = 0;

	memset(q, 0, sizeof(*q));
	q->cs.nnodes = nodes;
	q->cs.nodes = calloc(nodes, sizeof(*q->cs.nodes));
	q->cs.partitions[0] = strdup("batch");
	q->cs.npartitions = 1;
	if (!q->cs.nodes || !q->cs.partitions[0])
		return ENOMEM;
	for (uint32_t n = 0; n < nodes; n++) {
		char name[32];

		snprintf(name, sizeof(name), "n%u", n + 1);
		q->cs.nodes[n].name = strdup(name);
		q->cs.nodes[n].cpus = cpus;
		q->cs.nodes[n].speed = 1;
		q->cs.nodes[n].partitions = 1;
		if (!q->cs.nodes[n].name)
			return ENOMEM;
	}
	bench_seed(seed);
	q->ws.njobs = arrays;
	q->ws.jobs = calloc(arrays, sizeof(*q->ws.jobs));
	if (!q->ws.jobs)
		return ENOMEM;
	for (uint32_t j = 0; j < arrays; j++) {
		struct sim_job_spec *js = &q->ws.jobs[j];
		struct sim_phase_spec *ph = &js->phase[0];
		double mean = 30 + 570 * bench_urand();
		double width = (double) nodes * cpus / arrays * 4;
		char name[24];

		snprintf(name, sizeof(name), "b%u", j + 1);
		js->name = strdup(name);
		js->user = strdup("u");
		js->account = strdup("a");
		if (!js->name || !js->user || !js->account)
			return ENOMEM;
		ph->tasks = 10 + (uint32_t) (490 * bench_urand());
		ph->cpus = 1;
		ph->len.kind = SIM_DIST_LOGNORMAL;
		ph->len.a = mean;
		ph->len.b = 0.3 * mean;
		ph->len.min = SIM_MIN_LENGTH;
		ph->len.max = INFINITY;
		ph->prior_mean = mean;
		ph->prior_p90 = mean * 1.4;
		if (j % 5)
			js->deadline = tight * (1.5 + 2.5 * bench_urand()) *
				       ceil(ph->tasks / fmax(1, width)) * mean;
		if (busy && free_cpus) {
			uint32_t k = (uint32_t) fmin(
				fmin(ph->tasks, ceil(width / 4)),
				(double) free_cpus);

			ph->running_node = calloc(k ? k : 1, sizeof(uint32_t));
			ph->running_elapsed = calloc(k ? k : 1, sizeof(double));
			if (!ph->running_node || !ph->running_elapsed)
				return ENOMEM;
			for (uint32_t r = 0; r < k; r++) {
				if (used == cpus) {
					node++;
					used = 0;
				}
				ph->running_node[r] = node;
				ph->running_elapsed[r] = mean * bench_urand();
				used++;
			}
			ph->nrunning = k;
			free_cpus -= k;
		}
	}
	/* as a snapshot's future: the clock starts at the oldest running
	 * task's elapsed time (no negative starts) */
	if (busy)
		for (uint32_t j = 0; j < arrays; j++) {
			q->ws.jobs[j].arrival = 600;
			if (q->ws.jobs[j].deadline > 0)
				q->ws.jobs[j].deadline += 600;
		}
	return 0;
}

static void free_queue(struct queue *q)
{
	sim_workload_spec_free(&q->ws);
	sim_cluster_spec_free(&q->cs);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* the winner: the lowest mean total, the first listed among equal ones */
static int winner(const struct dl_pf_round *r)
{
	int w = -1;

	for (uint32_t i = 0; i < r->n; i++)
		if (r->r[i].scored &&
		    (w < 0 || r->r[i].score.total < r->r[w].score.total))
			w = (int) i;
	return w;
}

static void print_round(const struct dl_pf_round *r)
{
	printf(" runs=%u over_budget=%d jobs=%u nodes=%u share=%.3f", r->runs,
	       r->over_budget, r->jobs, r->nodes, r->share);
	for (uint32_t i = 0; i < r->n; i++)
		if (r->r[i].scored)
			printf(" %s=%.2f/missed%.1f%%",
			       dl_policy_name(r->r[i].policy),
			       r->r[i].score.total, r->r[i].score.missed_pct);
		else
			printf(" %s=- (%s)", dl_policy_name(r->r[i].policy),
			       r->r[i].err[0] ? r->r[i].err : "not run");
}

static int validate(uint32_t queues, uint32_t arrays, uint32_t nodes,
		    uint32_t cpus, bool busy, const struct dl_config *cfg,
		    const enum dl_policy *cands, uint32_t ncands,
		    const struct dl_pf_params *model)
{
	uint32_t same = 0, n = 0, nerr = 0;
	double regret_sum = 0, regret_max = 0, err_sum = 0, err_max = 0;
	double missed_err_sum = 0, t_full = 0, t_fast = 0, grid_err_sum = 0;
	uint32_t same_grid = 0;
	char err[256] = "";

	for (uint32_t k = 0; k < queues; k++) {
		struct dl_pf_params full = *model;
		struct dl_pf_round rf, rm, rg;
		struct dl_pf_params grid = *model;
		struct queue q;
		int wf, wm;
		double regret;

		full.sample_tasks = 0;
		full.plan_grid = 0;
		full.seed = model->seed + k;
		struct dl_pf_params fast = *model;

		fast.seed = model->seed + k;
		grid.seed = model->seed + k;
		grid.sample_tasks = 0;
		/* deadlines 0.25, 0.5, 0.75 and 1 times the generator's:
		 * overloaded queues too, where the policies differ most */
		double tight = 0.25 + 0.25 * (k % 4);

		if (build_queue(&q, arrays, nodes, cpus, model->seed + k, busy,
				tight) ||
		    dl_pf_run_round(&q.cs, &q.ws, cfg, cands, ncands, &full,
				    &rf, err, sizeof(err)) ||
		    dl_pf_run_round(&q.cs, &q.ws, cfg, cands, ncands, &fast,
				    &rm, err, sizeof(err)) ||
		    dl_pf_run_round(&q.cs, &q.ws, cfg, cands, ncands, &grid,
				    &rg, err, sizeof(err))) {
			fprintf(stderr, "queue %u: %s\n", k, err);
			free_queue(&q);
			return 1;
		}
		free_queue(&q);
		wf = winner(&rf);
		wm = winner(&rm);
		if (wf < 0 || wm < 0)
			continue;
		n++;
		t_full += rf.wall_s;
		t_fast += rm.wall_s;
		same += wf == wm;
		regret = rf.r[wm].score.total - rf.r[wf].score.total;
		regret_sum += regret;
		if (regret > regret_max)
			regret_max = regret;
		same_grid += winner(&rg) == wf;
		for (uint32_t i = 0; i < ncands; i++) {
			double e =
				fabs(rm.r[i].score.total - rf.r[i].score.total);

			grid_err_sum +=
				fabs(rg.r[i].score.total - rf.r[i].score.total);

			err_sum += e;
			if (e > err_max)
				err_max = e;
			missed_err_sum += fabs(rm.r[i].score.missed_pct -
					       rf.r[i].score.missed_pct);
			nerr++;
		}
		printf("queue=%u full: wall=%.2f", k, rf.wall_s);
		print_round(&rf);
		printf(" winner=%s\n        model: wall=%.2f",
		       dl_policy_name(rf.r[wf].policy), rm.wall_s);
		print_round(&rm);
		printf(" winner=%s regret=%.2f\n        grid only: wall=%.2f",
		       dl_policy_name(rm.r[wm].policy), regret, rg.wall_s);
		print_round(&rg);
		printf("\n");
		fflush(stdout);
	}
	printf("queues=%u same_winner=%u (%.0f%%) regret_mean=%.3f "
	       "regret_max=%.3f score_abs_err_mean=%.3f score_abs_err_max=%.3f "
	       "missed_pct_abs_err_mean=%.3f full_round_s_mean=%.2f "
	       "model_round_s_mean=%.3f grid_only_same_winner=%u "
	       "grid_only_score_abs_err_mean=%.3f\n",
	       n, same, n ? 100.0 * same / n : 0.0, n ? regret_sum / n : 0.0,
	       regret_max, nerr ? err_sum / nerr : 0.0, err_max,
	       nerr ? missed_err_sum / nerr : 0.0, n ? t_full / n : 0.0,
	       n ? t_fast / n : 0.0, same_grid,
	       nerr ? grid_err_sum / nerr : 0.0);
	return 0;
}

/* A live plan whose reserve history makes every task longer than 1 s
 * long (64 jobs with 1 s of slack and 1-s tasks), with an arrival rate. */
static struct dl_plan *live_plan(void)
{
	struct dl_plan *live = dl_plan_new(0);

	if (!live)
		return NULL;
	live->policy = DL_POLICY_TRIAGE;
	for (uint32_t i = 0; i < DL_PLAN_SLACKS; i++) {
		live->slacks.v[i] = 1;
		live->slacks.grain[i] = 1;
	}
	live->slacks.n = DL_PLAN_SLACKS;
	live->arrivals.rate = 1;
	dl_plan_finalize(live);
	return live;
}

int main(int argc, char **argv)
{
	uint32_t arrays = 1000, nodes = 1000, cpus = 16, ncands = 0;
	uint32_t repeat = 1, queues = 0, hindsight = 0, live = 0;
	struct dl_pf_params p = {.samples = 3,
				 .seed = 1,
				 .budget_s = 1e9,
				 .weights = {1, 0.1, 0.1}};
	enum dl_policy cands[DL_PF_MAX_CANDIDATES];
	const char *pols = "triage,edf,adaptive";
	double plan_interval = 0, replan_delay = -1, plan_grid = -1;
	long long sample_tasks = -1;
	bool busy = false;
	double walls[64];
	struct queue q, past;
	struct dl_config cfg;
	struct dl_pf_round r;
	char err[256] = "";

	if (argc % 2 == 0) {
		fprintf(stderr,
			"usage: portfolio_round [--option value]... "
			"(options: see bench/results/"
			"portfolio-round.md); %s has no value\n",
			argv[argc - 1]);
		return 2;
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];

		if (!strcmp(k, "--arrays"))
			arrays = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--nodes"))
			nodes = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--cpus"))
			cpus = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--samples"))
			p.samples = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--horizon"))
			p.horizon_s = strtod(v, NULL);
		else if (!strcmp(k, "--plan-interval"))
			plan_interval = strtod(v, NULL);
		else if (!strcmp(k, "--replan-delay"))
			replan_delay = strtod(v, NULL);
		else if (!strcmp(k, "--budget"))
			p.budget_s = strtod(v, NULL);
		else if (!strcmp(k, "--seed"))
			p.seed = strtoull(v, NULL, 10);
		else if (!strcmp(k, "--policies"))
			pols = v;
		else if (!strcmp(k, "--busy"))
			busy = atoi(v) != 0;
		else if (!strcmp(k, "--sample-tasks"))
			sample_tasks = atoll(v);
		else if (!strcmp(k, "--plan-grid"))
			plan_grid = strtod(v, NULL);
		else if (!strcmp(k, "--repeat"))
			repeat = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--hindsight"))
			hindsight = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--live"))
			live = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--queues"))
			queues = (uint32_t) strtoul(v, NULL, 10);
		else {
			fprintf(stderr, "unknown option %s\n", k);
			return 2;
		}
	}
	if (!arrays || !nodes || !cpus || !repeat || repeat > 64 ||
	    parse_policies(pols, cands, &ncands)) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	if (dl_config_defaults(&cfg))
		return 1;
	if (plan_interval > 0)
		cfg.plan_interval = plan_interval;
	if (replan_delay >= 0)
		cfg.replan_delay = replan_delay;
	p.sample_tasks = sample_tasks >= 0 ? (uint64_t) sample_tasks
					   : cfg.portfolio_sample_tasks;
	p.plan_grid = plan_grid >= 0 ? plan_grid : cfg.portfolio_plan_grid;
	if (queues) {
		int rc = validate(queues, arrays, nodes, cpus, busy, &cfg,
				  cands, ncands, &p);

		dl_config_free(&cfg);
		return rc;
	}
	if (build_queue(&q, arrays, nodes, cpus, p.seed, busy, 1) ||
	    (hindsight &&
	     build_queue(&past, arrays, nodes, cpus, p.seed + 1, busy, 1))) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	if (hindsight) {
		p.past_cs = &past.cs;
		p.past_ws = &past.ws;
	}
	if (live && !(p.live = live_plan())) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	for (uint32_t k = 0; k < repeat; k++) {
		double t0 = bench_now_us();

		if (dl_pf_run_round(&q.cs, &q.ws, &cfg, cands, ncands, &p, &r,
				    err, sizeof(err))) {
			fprintf(stderr, "round: %s\n", err);
			return 1;
		}
		walls[k] = (bench_now_us() - t0) / 1e6;
		printf("arrays=%u nodes=%u cpus=%u samples=%u candidates=%u "
		       "round_s=%.3f per_run_s=%.3f",
		       arrays, nodes, cpus, p.samples, ncands, walls[k],
		       r.runs ? r.wall_s / r.runs : 0.0);
		print_round(&r);
		printf("\n");
	}
	qsort(walls, repeat, sizeof(*walls), cmp_dbl);
	if (repeat > 1)
		printf("rounds=%u median_round_s=%.3f min=%.3f max=%.3f\n",
		       repeat,
		       repeat % 2
			       ? walls[repeat / 2]
			       : (walls[repeat / 2 - 1] + walls[repeat / 2]) /
					 2,
		       walls[0], walls[repeat - 1]);
	free_queue(&q);
	if (hindsight)
		free_queue(&past);
	dl_plan_free((struct dl_plan *) p.live);
	dl_config_free(&cfg);
	return 0;
}
