/*
 * gen_traces.c - trace adapters: workloads from the public traces, with
 * deadlines of k times each job's isolated completion time (computed by the
 * simulator from the job's own tasks on the given cluster).
 *
 *   swim         SWIM Facebook 2009/2010 (.tsv): arrivals and bytes; task
 *                counts and lengths from a byte model calibrated on the Rumen
 *                trace's medians (maps 17 s, reduces 206 s);
 *   google2011   Google clusterdata-2011 task_events (.csv or .csv.gz):
 *                arrivals, tasks per job, per-task SCHEDULE->FINISH times;
 *   alibaba2017  Alibaba v2017 batch_task (.csv): arrivals, instances per
 *                stage, stage times (first stage = maps, last = reduces);
 *   rumen        Hadoop Rumen job traces (concatenated JSON objects): arrival
 *                and the successful attempt's time of every map and reduce;
 *   swf          Standard Workload Format logs of HPC machines (Parallel
 *                Workloads Archive; .swf or .swf.gz): a rigid job as an
 *                array of one 1-CPU task per processor, each of the job's
 *                run time, the user's requested time as its time limit.
 * The modelling choices are listed in doc/simulator.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/gen_kinds.h"
#include "common/io/json.h"
#include "common/simulate/rng.h"

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory");
	return ENOMEM;
}

/* Split text into lines in place; calls fn for each (without '\n'). */
typedef int (*line_fn)(char *line, size_t lineno, void *ctx, char *err,
		       size_t errlen);

static int each_line(char *text, size_t len, line_fn fn, void *ctx, char *err,
		     size_t errlen)
{
	size_t lineno = 0;
	char *p = text, *end = text + len;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t) (end - p));
		int rc;

		if (!nl)
			nl = end;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		lineno++;
		if ((rc = fn(p, lineno, ctx, err, errlen)))
			return rc;
		p = nl + 1;
	}
	return 0;
}

/* Split a line by sep into at most max fields; returns the count. */
static int split(char *line, char sep, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, sep);
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static bool num(const char *s, double *out)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return !errno && end != s && !*end && isfinite(*out);
}

static void set_lognormal(struct sim_dist *d, double mean, double cv)
{
	sim_dist_const(d, mean);
	d->kind = SIM_DIST_LOGNORMAL;
	d->b = cv * mean;
}

static void set_factor(struct sim_job_spec *j, struct sim_rng *r, double lo,
		       double hi)
{
	j->deadline_factor = lo == hi ? lo : sim_rng_uniform(r, lo, hi);
}

/* The options every windowed trace adapter starts with, at o[0..5]:
 * --trace (required), --k / --k-min / --k-max, --from / --to (seconds
 * in [0, tmax], --to after --from). */
static int trace_window(const struct gen_opt *o, double tmax, double *klo,
			double *khi, double *from, double *to, char *err,
			size_t errlen)
{
	if (!o[0].value) {
		snprintf(err, errlen, "--trace FILE is required");
		return GEN_USAGE_ERROR;
	}
	if (gen_factors(&o[1], &o[2], &o[3], 2, klo, khi, err, errlen) ||
	    gen_num(&o[4], 0, tmax, 0, from, err, errlen) ||
	    gen_num(&o[5], 0, tmax, tmax, to, err, errlen))
		return GEN_USAGE_ERROR;
	if (*to <= *from) {
		snprintf(err, errlen, "--to must be after --from");
		return GEN_USAGE_ERROR;
	}
	return 0;
}

/* ------------------------------------------------------------------ SWIM */

struct swim_ctx {
	struct sim_workload_spec *w;
	uint32_t cap;
	double from, to, block_mb, reduce_mb, max_reduces, klo, khi;
	struct sim_rng rng;
};

static int swim_line(char *line, size_t lineno, void *vctx, char *err,
		     size_t errlen)
{
	struct swim_ctx *c = vctx;
	char *f[7];
	double submit, in, shuffle, in_mb, sh_mb, maps, reduces;
	struct sim_job_spec *j;

	if (!line[0])
		return 0;
	if (split(line, '\t', f, 7) < 6 || !num(f[1], &submit) ||
	    !num(f[3], &in) || !num(f[4], &shuffle) || submit < 0 || in < 0 ||
	    shuffle < 0) {
		snprintf(err, errlen,
			 "line %zu: expected id, submit s, gap s, input, "
			 "shuffle and output bytes",
			 lineno);
		return EINVAL;
	}
	if (submit < c->from || submit >= c->to)
		return 0;
	in_mb = in / 1048576.0;
	sh_mb = shuffle / 1048576.0;
	/* one map per block, at least one */
	maps = in_mb > 0 ? ceil(in_mb / c->block_mb) : 1;
	if (maps > 1e6)
		maps = 1e6;
	reduces = sh_mb > 0 ? ceil(sh_mb / c->reduce_mb) : 0;
	if (reduces > c->max_reduces)
		reduces = c->max_reduces;
	j = gen_add_job(c->w, &c->cap, f[0]);
	if (!j)
		return oom(err, errlen);
	j->arrival = submit - c->from;
	j->phase[0].tasks = (uint32_t) maps;
	/* 5 s start-up plus 0.1 s per MB read (128 MB: 17.8 s) */
	set_lognormal(&j->phase[0].len, 5 + 0.1 * in_mb / maps, 0.3);
	j->phase[0].input_mb = in_mb / maps;
	if (reduces > 0) {
		j->phase[1].tasks = (uint32_t) reduces;
		/* 10 s plus 0.2 s per MB shuffled (1 GB: 215 s) */
		set_lognormal(&j->phase[1].len, 10 + 0.2 * sh_mb / reduces,
			      0.3);
		j->phase[1].input_mb = sh_mb / reduces;
	}
	set_factor(j, &c->rng, c->klo, c->khi);
	return 0;
}

static int cluster_opts(struct gen_opt *nodes, struct gen_opt *cpus, double dn,
			double dc, struct sim_cluster_spec *c, char *err,
			size_t errlen)
{
	double n, k;

	if (gen_num(nodes, 1, SIM_MAX_NODES, dn, &n, err, errlen) ||
	    gen_num(cpus, 1, 1 << 20, dc, &k, err, errlen))
		return GEN_USAGE_ERROR;
	return gen_cluster_uniform(c, (uint32_t) n, (uint32_t) k, err, errlen);
}

int gen_swim(const struct gen_args *a, struct sim_cluster_spec *cl,
	     struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct gen_opt o[] = {
		{"--trace", NULL},       {"--k", NULL},
		{"--k-min", NULL},       {"--k-max", NULL},
		{"--from", NULL},        {"--to", NULL},
		{"--nodes", NULL},       {"--cpus", NULL},
		{"--block-mb", NULL},    {"--reduce-mb", NULL},
		{"--max-reduces", NULL},
	};
	struct swim_ctx c = {0};
	char *text = NULL;
	size_t len;
	int rc;

	if ((rc = gen_parse(a, o, sizeof(o) / sizeof(*o), err, errlen)) ||
	    (rc = trace_window(o, 1e9, &c.klo, &c.khi, &c.from, &c.to, err,
			       errlen)))
		return rc;
	if (gen_num(&o[8], 1, 1e6, 128, &c.block_mb, err, errlen) ||
	    gen_num(&o[9], 1, 1e7, 1024, &c.reduce_mb, err, errlen) ||
	    gen_num(&o[10], 1, 1e5, 100, &c.max_reduces, err, errlen))
		return GEN_USAGE_ERROR;
	if ((rc = cluster_opts(&o[6], &o[7], 100, 2, cl, err, errlen)))
		return rc;
	if ((rc = gen_read_input(o[0].value, &text, &len, err, errlen)))
		return rc;
	c.w = w;
	sim_rng_init(&c.rng, a->seed, 0x5e, 0, 0);
	rc = each_line(text, len, swim_line, &c, err, errlen);
	free(text);
	if (!rc && !w->njobs) {
		snprintf(err, errlen, "no job submitted in [%g, %g)", c.from,
			 c.to);
		rc = EINVAL;
	}
	if (!rc && asprintf(&w->description,
			    "SWIM trace %s, submissions in [%g, %g) s, "
			    "deadlines %g-%gx isolated",
			    o[0].value, c.from, c.to, c.klo, c.khi) < 0) {
		w->description = NULL;
		rc = oom(err, errlen);
	}
	return rc;
}

/* ---------------------------------------------------------- Google 2011 */

struct gtask {
	uint64_t job;
	uint32_t index;
	double submit; /* first SUBMIT (s); -1 unknown */
	double sched;  /* last SCHEDULE (s); -1 none */
	double len;    /* first successful run (s); -1 none */
	bool used;
};

struct gctx {
	struct gtask *tab;
	uint64_t size, n; /* open addressing, power of two */
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static struct gtask *gfind(struct gctx *g, uint64_t job, uint32_t index)
{
	uint64_t h;

	if (2 * (g->n + 1) > g->size) {
		uint64_t ns = g->size ? g->size * 2 : 1 << 16;
		struct gtask *nt = calloc(ns, sizeof(*nt)), *old = g->tab;

		if (!nt)
			return NULL;
		for (uint64_t i = 0; i < g->size; i++) {
			if (!old[i].used)
				continue;
			h = mix(old[i].job * 1000003u + old[i].index) &
			    (ns - 1);
			while (nt[h].used)
				h = (h + 1) & (ns - 1);
			nt[h] = old[i];
		}
		free(old);
		g->tab = nt;
		g->size = ns;
	}
	h = mix(job * 1000003u + index) & (g->size - 1);
	while (g->tab[h].used) {
		if (g->tab[h].job == job && g->tab[h].index == index)
			return &g->tab[h];
		h = (h + 1) & (g->size - 1);
	}
	g->tab[h].used = true;
	g->tab[h].job = job;
	g->tab[h].index = index;
	g->tab[h].submit = g->tab[h].sched = g->tab[h].len = -1;
	g->n++;
	return &g->tab[h];
}

static int google_line(char *line, size_t lineno, void *vctx, char *err,
		       size_t errlen)
{
	struct gctx *g = vctx;
	char *f[14];
	double ts, job, idx, type;
	struct gtask *t;

	if (!line[0])
		return 0;
	if (split(line, ',', f, 14) < 6 || !num(f[0], &ts) ||
	    !num(f[2], &job) || !num(f[3], &idx) || !num(f[5], &type) ||
	    ts < 0 || job < 0 || idx < 0 || idx > UINT32_MAX) {
		snprintf(err, errlen,
			 "line %zu: expected a task_events row (time, missing, "
			 "job, index, machine, type, ...)",
			 lineno);
		return EINVAL;
	}
	/* 0 = before the trace window, 2^63-1 = after it: unusable */
	if (ts <= 0 || ts >= 9e18)
		return 0;
	ts /= 1e6;
	t = gfind(g, (uint64_t) job, (uint32_t) idx);
	if (!t)
		return oom(err, errlen);
	switch ((int) type) {
	case 0: /* SUBMIT */
		if (t->submit < 0)
			t->submit = ts;
		break;
	case 1: /* SCHEDULE */
		t->sched = ts;
		break;
	case 4: /* FINISH: a successful run */
		if (t->len < 0 && t->sched >= 0 && ts > t->sched)
			t->len = ts - t->sched;
		break;
	default: /* EVICT, FAIL, KILL, LOST end an attempt; updates */
		break;
	}
	return 0;
}

static int cmp_gtask(const void *a, const void *b)
{
	const struct gtask *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

struct gjob {
	uint64_t first; /* index into the sorted table */
	uint32_t n;
	double arrival;
};

static int cmp_gjob(const void *a, const void *b)
{
	const struct gjob *x = a, *y = b;

	if (x->arrival != y->arrival)
		return x->arrival < y->arrival ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

int gen_google2011(const struct gen_args *a, struct sim_cluster_spec *cl,
		   struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct gen_opt o[] = {
		{"--task-events", NULL}, {"--k", NULL},     {"--k-min", NULL},
		{"--k-max", NULL},       {"--nodes", NULL}, {"--cpus", NULL},
		{"--max-tasks", NULL},
	};
	struct gctx g = {0};
	struct gjob *jobs = NULL;
	struct sim_rng rng;
	double klo, khi, maxt, t0 = INFINITY;
	uint64_t m = 0, nj = 0;
	uint32_t cap = 0;
	char *list = NULL, *save = NULL, *path;
	int rc;

	if ((rc = gen_parse(a, o, sizeof(o) / sizeof(*o), err, errlen)))
		return rc;
	if (!o[0].value) {
		snprintf(err, errlen,
			 "--task-events FILE[,FILE...] is required");
		return GEN_USAGE_ERROR;
	}
	if (gen_factors(&o[1], &o[2], &o[3], 2, &klo, &khi, err, errlen) ||
	    gen_num(&o[6], 1, 1e6, 5000, &maxt, err, errlen))
		return GEN_USAGE_ERROR;
	if ((rc = cluster_opts(&o[4], &o[5], 100, 4, cl, err, errlen)))
		return rc;
	list = strdup(o[0].value);
	if (!list)
		return oom(err, errlen);
	for (path = strtok_r(list, ",", &save); path && !rc;
	     path = strtok_r(NULL, ",", &save)) {
		char *text = NULL, msg[512];
		size_t len;

		if ((rc = gen_read_input(path, &text, &len, err, errlen)))
			break;
		rc = each_line(text, len, google_line, &g, msg, sizeof(msg));
		if (rc)
			snprintf(err, errlen, "%s: %s", path, msg);
		free(text);
	}
	free(list);
	if (rc)
		goto out;
	/* keep the tasks that ran to completion, grouped by job */
	for (uint64_t i = 0; i < g.size; i++)
		if (g.tab[i].used && g.tab[i].len > 0)
			g.tab[m++] = g.tab[i];
	qsort(g.tab, m, sizeof(*g.tab), cmp_gtask);
	jobs = calloc(m ? m : 1, sizeof(*jobs));
	if (!jobs) {
		rc = oom(err, errlen);
		goto out;
	}
	for (uint64_t i = 0; i < m; i++) {
		struct gtask *t = &g.tab[i];
		double arr = t->submit >= 0 ? t->submit : t->sched;

		if (!nj || g.tab[jobs[nj - 1].first].job != t->job) {
			jobs[nj].first = i;
			jobs[nj].arrival = arr;
			nj++;
		}
		jobs[nj - 1].n++;
		if (arr < jobs[nj - 1].arrival)
			jobs[nj - 1].arrival = arr;
	}
	qsort(jobs, nj, sizeof(*jobs), cmp_gjob);
	if (nj)
		t0 = jobs[0].arrival;
	sim_rng_init(&rng, a->seed, 0x60, 0, 0);
	for (uint64_t k = 0; k < nj; k++) {
		struct sim_job_spec *j;
		char name[32];
		uint32_t n = jobs[k].n > maxt ? (uint32_t) maxt : jobs[k].n;

		snprintf(name, sizeof(name), "g%llu",
			 (unsigned long long) g.tab[jobs[k].first].job);
		j = gen_add_job(w, &cap, name);
		if (!j) {
			rc = oom(err, errlen);
			goto out;
		}
		j->arrival = jobs[k].arrival - t0;
		j->phase[0].tasks = n;
		j->phase[0].lengths = malloc(n * sizeof(double));
		if (!j->phase[0].lengths) {
			rc = oom(err, errlen);
			goto out;
		}
		for (uint32_t i = 0; i < n; i++) {
			double l = g.tab[jobs[k].first + i].len;

			j->phase[0].lengths[i] = l < 1 ? 1 : l;
		}
		set_factor(j, &rng, klo, khi);
	}
	if (!w->njobs) {
		snprintf(err, errlen,
			 "no task ran to completion in the given files");
		rc = EINVAL;
	} else if (asprintf(&w->description,
			    "Google clusterdata-2011 task_events %s: %u jobs "
			    "with completed tasks, deadlines %g-%gx isolated",
			    o[0].value, w->njobs, klo, khi) < 0) {
		w->description = NULL;
		rc = oom(err, errlen);
	}
out:
	free(jobs);
	free(g.tab);
	return rc;
}

/* --------------------------------------------------------- Alibaba 2017 */

struct atask {
	uint64_t job;
	double create, end;
	uint32_t instances;
};

struct actx {
	struct atask *t;
	size_t n, cap;
};

static int alibaba_line(char *line, size_t lineno, void *vctx, char *err,
			size_t errlen)
{
	struct actx *c = vctx;
	char *f[9];
	double create, end, job, inst;

	if (!line[0] || lineno == 1) /* header */
		return 0;
	if (split(line, ',', f, 9) < 6 || !num(f[2], &job) ||
	    !num(f[4], &inst)) {
		snprintf(err, errlen,
			 "line %zu: expected create, end, job, task, "
			 "instances, status, ...",
			 lineno);
		return EINVAL;
	}
	/* completed stages only, with a usable time span */
	if (strcmp(f[5], "Terminated") || !num(f[0], &create) ||
	    !num(f[1], &end) || create < 0 || end <= create || inst < 1)
		return 0;
	if (c->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 4096;
		void *p = realloc(c->t, nc * sizeof(*c->t));

		if (!p)
			return oom(err, errlen);
		c->t = p;
		c->cap = nc;
	}
	c->t[c->n].job = (uint64_t) job;
	c->t[c->n].create = create;
	c->t[c->n].end = end;
	c->t[c->n].instances = inst > UINT32_MAX ? UINT32_MAX : (uint32_t) inst;
	c->n++;
	return 0;
}

static int cmp_atask(const void *a, const void *b)
{
	const struct atask *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	if (x->create != y->create)
		return x->create < y->create ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

struct ajob {
	size_t first, n;
};

static int cmp_ajob(const void *a, const void *b, void *vt)
{
	const struct atask *t = vt;
	const struct ajob *x = a, *y = b;
	double cx = t[x->first].create, cy = t[y->first].create;

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

static void stage(struct sim_phase_spec *ph, const struct atask *t, double maxt)
{
	ph->tasks = t->instances > maxt ? (uint32_t) maxt : t->instances;
	/* per-instance times are not in the table: every instance is given
	 * the stage's span (an upper bound; it includes queueing) */
	sim_dist_const(&ph->len, t->end - t->create);
}

int gen_alibaba2017(const struct gen_args *a, struct sim_cluster_spec *cl,
		    struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct gen_opt o[] = {
		{"--trace", NULL}, {"--k", NULL},    {"--k-min", NULL},
		{"--k-max", NULL}, {"--from", NULL}, {"--to", NULL},
		{"--nodes", NULL}, {"--cpus", NULL}, {"--max-tasks", NULL},
	};
	struct actx c = {0};
	struct ajob *jobs = NULL;
	struct sim_rng rng;
	double klo, khi, from, to, maxt, t0 = -1;
	size_t nj = 0;
	uint32_t cap = 0;
	char *text = NULL;
	size_t len;
	int rc;

	if ((rc = gen_parse(a, o, sizeof(o) / sizeof(*o), err, errlen)) ||
	    (rc = trace_window(o, 1e9, &klo, &khi, &from, &to, err, errlen)))
		return rc;
	if (gen_num(&o[8], 1, 1e6, 2000, &maxt, err, errlen))
		return GEN_USAGE_ERROR;
	if ((rc = cluster_opts(&o[6], &o[7], 1300, 16, cl, err, errlen)))
		return rc;
	if ((rc = gen_read_input(o[0].value, &text, &len, err, errlen)))
		return rc;
	rc = each_line(text, len, alibaba_line, &c, err, errlen);
	free(text);
	if (rc)
		goto out;
	qsort(c.t, c.n, sizeof(*c.t), cmp_atask);
	jobs = calloc(c.n ? c.n : 1, sizeof(*jobs));
	if (!jobs) {
		rc = oom(err, errlen);
		goto out;
	}
	for (size_t i = 0; i < c.n; i++) {
		if (!nj || c.t[jobs[nj - 1].first].job != c.t[i].job) {
			jobs[nj].first = i;
			nj++;
		}
		jobs[nj - 1].n++;
	}
	qsort_r(jobs, nj, sizeof(*jobs), cmp_ajob, c.t);
	sim_rng_init(&rng, a->seed, 0xa1, 0, 0);
	for (size_t k = 0; k < nj; k++) {
		const struct atask *first = &c.t[jobs[k].first];
		struct sim_job_spec *j;
		char name[32];

		if (first->create < from || first->create >= to)
			continue;
		if (t0 < 0)
			t0 = first->create;
		snprintf(name, sizeof(name), "a%llu",
			 (unsigned long long) first->job);
		j = gen_add_job(w, &cap, name);
		if (!j) {
			rc = oom(err, errlen);
			goto out;
		}
		j->arrival = first->create - t0;
		stage(&j->phase[0], first, maxt);
		if (jobs[k].n > 1)
			stage(&j->phase[1], &c.t[jobs[k].first + jobs[k].n - 1],
			      maxt);
		set_factor(j, &rng, klo, khi);
	}
	if (!w->njobs) {
		snprintf(err, errlen, "no completed job in [%g, %g)", from, to);
		rc = EINVAL;
	} else if (asprintf(&w->description,
			    "Alibaba v2017 batch_task %s: %u jobs, deadlines "
			    "%g-%gx isolated",
			    o[0].value, w->njobs, klo, khi) < 0) {
		w->description = NULL;
		rc = oom(err, errlen);
	}
out:
	free(jobs);
	free(c.t);
	return rc;
}

/* ----------------------------------------------------------------- Rumen */

/* The successful attempt's time of each task of a list, in seconds. */
static int rumen_tasks(json_object *tasks, double **out, uint32_t *n)
{
	size_t cnt = json_object_is_type(tasks, json_type_array)
			     ? json_object_array_length(tasks)
			     : 0;

	*out = NULL;
	*n = 0;
	if (!cnt)
		return 0;
	*out = malloc(cnt * sizeof(**out));
	if (!*out)
		return ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		json_object *t = json_object_array_get_idx(tasks, i), *att;
		size_t na;

		if (!json_object_object_get_ex(t, "attempts", &att) ||
		    !json_object_is_type(att, json_type_array))
			continue;
		na = json_object_array_length(att);
		for (size_t k = 0; k < na; k++) {
			json_object *x = json_object_array_get_idx(att, k), *v;
			double s, f;

			if (!json_object_object_get_ex(x, "result", &v) ||
			    !json_object_is_type(v, json_type_string) ||
			    strcmp(json_object_get_string(v), "SUCCESS") ||
			    !json_object_object_get_ex(x, "startTime", &v) ||
			    !dl_json_is_number(v))
				continue;
			s = json_object_get_double(v);
			if (!json_object_object_get_ex(x, "finishTime", &v) ||
			    !dl_json_is_number(v))
				continue;
			f = json_object_get_double(v);
			if (!(f > s) || s <= 0)
				continue;
			(*out)[(*n)++] = (f - s) / 1000.0;
			break;
		}
	}
	return 0;
}

int gen_rumen(const struct gen_args *a, struct sim_cluster_spec *cl,
	      struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct gen_opt o[] = {
		{"--trace", NULL},        {"--k", NULL},
		{"--k-min", NULL},        {"--k-max", NULL},
		{"--nodes", NULL},        {"--map-slots", NULL},
		{"--reduce-slots", NULL},
	};
	json_tokener *tok = NULL;
	struct sim_rng rng;
	double klo, khi, nodes, ms, rs, t0 = -1;
	uint32_t cap = 0, count, mslots, rslots;
	char *text = NULL;
	size_t len, off = 0;
	int rc;

	if ((rc = gen_parse(a, o, sizeof(o) / sizeof(*o), err, errlen)))
		return rc;
	if (!o[0].value) {
		snprintf(err, errlen, "--trace FILE is required");
		return GEN_USAGE_ERROR;
	}
	if (gen_factors(&o[1], &o[2], &o[3], 2, &klo, &khi, err, errlen) ||
	    gen_num(&o[4], 1, SIM_MAX_NODES, 20, &nodes, err, errlen) ||
	    gen_num(&o[5], 1, 1024, 2, &ms, err, errlen) ||
	    gen_num(&o[6], 1, 1024, 1, &rs, err, errlen))
		return GEN_USAGE_ERROR;
	count = (uint32_t) nodes;
	mslots = (uint32_t) ms;
	rslots = (uint32_t) rs;
	if ((rc = gen_cluster_typed(cl, &count, &mslots, &rslots, NULL, 1, err,
				    errlen)))
		return rc;
	if ((rc = gen_read_input(o[0].value, &text, &len, err, errlen)))
		return rc;
	tok = json_tokener_new_ex(64);
	if (!tok) {
		free(text);
		return oom(err, errlen);
	}
	sim_rng_init(&rng, a->seed, 0x20, 0, 0);
	while (off < len && !rc) {
		json_object *job, *v, *mt = NULL, *rt = NULL;
		struct sim_job_spec *j;
		double submit;
		char name[64];

		while (off < len && strchr(" \t\r\n", text[off]))
			off++;
		if (off >= len)
			break;
		json_tokener_reset(tok);
		job = json_tokener_parse_ex(
			tok, text + off,
			(int) (len - off > INT32_MAX ? INT32_MAX : len - off));
		if (!job) {
			snprintf(err, errlen, "%s: byte %zu: %s", o[0].value,
				 off,
				 json_tokener_error_desc(
					 json_tokener_get_error(tok)));
			rc = EINVAL;
			break;
		}
		off += json_tokener_get_parse_end(tok);
		if (!json_object_object_get_ex(job, "submitTime", &v) ||
		    !dl_json_is_number(v) ||
		    !((submit = json_object_get_double(v) / 1000.0) > 0)) {
			json_object_put(job);
			continue; /* no usable arrival */
		}
		json_object_object_get_ex(job, "mapTasks", &mt);
		json_object_object_get_ex(job, "reduceTasks", &rt);
		if (json_object_object_get_ex(job, "jobID", &v) &&
		    json_object_is_type(v, json_type_string))
			snprintf(name, sizeof(name), "%s",
				 json_object_get_string(v));
		else
			snprintf(name, sizeof(name), "rumen%u", w->njobs + 1);
		j = gen_add_job(w, &cap, name);
		if (!j) {
			json_object_put(job);
			rc = oom(err, errlen);
			break;
		}
		if (rumen_tasks(mt, &j->phase[0].lengths, &j->phase[0].tasks) ||
		    rumen_tasks(rt, &j->phase[1].lengths, &j->phase[1].tasks)) {
			json_object_put(job);
			rc = oom(err, errlen);
			break;
		}
		json_object_put(job);
		if (!j->phase[0].tasks) {
			/* no successful map: nothing to replay */
			free(j->phase[0].lengths);
			free(j->phase[1].lengths);
			free(j->name);
			free(j->user);
			free(j->account);
			w->njobs--;
			continue;
		}
		j->arrival = submit;
		set_factor(j, &rng, klo, khi);
	}
	json_tokener_free(tok);
	free(text);
	if (rc)
		return rc;
	/* arrivals relative to the first submission */
	for (uint32_t k = 0; k < w->njobs; k++)
		if (t0 < 0 || w->jobs[k].arrival < t0)
			t0 = w->jobs[k].arrival;
	for (uint32_t k = 0; k < w->njobs; k++) {
		w->jobs[k].arrival -= t0;
		for (int p = 0; p < 2; p++)
			if (w->jobs[k].phase[p].tasks) {
				double s = 0;

				for (uint32_t i = 0;
				     i < w->jobs[k].phase[p].tasks; i++)
					s += w->jobs[k].phase[p].lengths[i];
				sim_dist_const(&w->jobs[k].phase[p].len,
					       s / w->jobs[k].phase[p].tasks);
			}
	}
	if (!w->njobs) {
		snprintf(err, errlen, "no job with a successful map task");
		return EINVAL;
	}
	if (asprintf(
		    &w->description,
		    "Hadoop Rumen trace %s: %u jobs, deadlines %g-%gx isolated",
		    o[0].value, w->njobs, klo, khi) < 0) {
		w->description = NULL;
		return oom(err, errlen);
	}
	return 0;
}

/* ------------------------------------------------------------------- SWF */

#define SWF_MAX_RUN 1e8 /* s: beyond this a run time is a corrupt record */

struct swf_ctx {
	const struct gen_swf_opts *o;
	struct sim_workload_spec *w;
	uint32_t cap;
	double max_nodes, max_procs; /* from the header; 0 = not given */
	size_t skipped;              /* records without a run time or a width */
	struct sim_rng rng;
};

/* The value of header field `name` ("Name:") when line is that field
 * and holds a count of at least 1. */
static void swf_count(const char *line, const char *name, double *out)
{
	size_t n = strlen(name);
	double v;
	char *end;

	if (strncmp(line, name, n))
		return;
	v = strtod(line + n, &end);
	if (end != line + n && isfinite(v) && v >= 1)
		*out = v;
}

/* "; Name: value" of the header: the machine's size. */
static void swf_header(struct swf_ctx *c, const char *line)
{
	line += strspn(line, "; \t");
	swf_count(line, "MaxNodes:", &c->max_nodes);
	swf_count(line, "MaxProcs:", &c->max_procs);
}

/* A number field that names something (job, user, application): known
 * (not -1) and printable as a whole number. */
static bool swf_id(double v)
{
	return v >= 0 && v < 1e15;
}

static int swf_line(char *line, size_t lineno, void *vctx, char *err,
		    size_t errlen)
{
	struct swf_ctx *c = vctx;
	const struct gen_swf_opts *o = c->o;
	char *f[18], *save = NULL, *tok;
	double v[18], procs;
	int n = 0;
	struct sim_job_spec *j;
	char name[32];

	line += strspn(line, " \t");
	if (line[0] == ';') {
		swf_header(c, line);
		return 0;
	}
	for (tok = strtok_r(line, " \t", &save); tok && n < 18;
	     tok = strtok_r(NULL, " \t", &save))
		f[n++] = tok;
	if (!n)
		return 0;
	for (int i = 0; i < n; i++)
		if (!num(f[i], &v[i])) {
			snprintf(err, errlen,
				 "line %zu: field %d ('%.32s') is not a number",
				 lineno, i + 1, f[i]);
			return EINVAL;
		}
	if (n < 12) {
		snprintf(err, errlen,
			 "line %zu: %d fields, expected the 18 of a Standard "
			 "Workload Format record",
			 lineno, n);
		return EINVAL;
	}
	/* submit (2), run time (4), allocated (5) or requested (8)
	 * processors, requested time (9), user (12); -1 = unknown */
	procs = v[4] > 0 ? v[4] : v[7];
	if (v[1] < 0 || v[3] <= 0 || v[3] > SWF_MAX_RUN || procs < 1) {
		c->skipped++;
		return 0;
	}
	if (v[1] < o->from || v[1] >= o->to)
		return 0;
	/* the application (14) names the job, as a Slurm job is named
	 * after its script: the estimator's history by (user, name) then
	 * has something to learn from; unknown, the job number does */
	if (n >= 14 && swf_id(v[13]))
		snprintf(name, sizeof(name), "app%.0f", v[13]);
	else
		snprintf(name, sizeof(name), "swf%.0f",
			 swf_id(v[0]) ? v[0] : 0);
	j = gen_add_job(c->w, &c->cap, name);
	if (!j)
		return oom(err, errlen);
	if (swf_id(v[11])) {
		char *u = NULL;

		if (asprintf(&u, "u%.0f", v[11]) < 0)
			return oom(err, errlen);
		free(j->user);
		j->user = u;
	}
	j->arrival = v[1];
	/* a rigid job as an array: one 1-CPU task per processor, each
	 * running the job's whole run time */
	j->phase[0].tasks = procs > o->max_tasks ? (uint32_t) o->max_tasks
						 : (uint32_t) procs;
	sim_dist_const(&j->phase[0].len, v[3]);
	/* the user's estimate is Slurm's time limit; a run past it (the
	 * log's grace) is kept whole */
	if (!o->exact_limits && v[8] > 0)
		j->phase[0].time_limit = v[8] > v[3] ? v[8] : v[3];
	set_factor(j, &c->rng, o->klo, o->khi);
	return 0;
}

int gen_swf_parse(char *text, size_t len, const struct gen_swf_opts *o,
		  uint64_t seed, struct sim_cluster_spec *cl,
		  struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct swf_ctx c = {.o = o, .w = w};
	double nodes, cpus, t0;
	int rc;

	sim_rng_init(&c.rng, seed, 0x5f, 0, 0);
	if ((rc = each_line(text, len, swf_line, &c, err, errlen)))
		return rc;
	if (!w->njobs) {
		snprintf(err, errlen,
			 "no job with a run time and a width submitted in "
			 "[%g, %g)",
			 o->from, o->to);
		return EINVAL;
	}
	/* arrivals from the window's first submission (the archive's
	 * cleaned logs can start with days of removed records) */
	t0 = w->jobs[0].arrival;
	for (uint32_t k = 1; k < w->njobs; k++)
		if (w->jobs[k].arrival < t0)
			t0 = w->jobs[k].arrival;
	for (uint32_t k = 0; k < w->njobs; k++)
		w->jobs[k].arrival -= t0;
	/* the machine the log came from, unless told otherwise */
	nodes = o->nodes ? o->nodes : c.max_nodes;
	if (nodes < 1) {
		snprintf(err, errlen,
			 "the log has no MaxNodes header: give --nodes and "
			 "--cpus");
		return EINVAL;
	}
	cpus = o->cpus                ? o->cpus
	       : c.max_procs >= nodes ? ceil(c.max_procs / nodes)
				      : 1;
	if (nodes > SIM_MAX_NODES || cpus > 1 << 20) {
		snprintf(err, errlen,
			 "%g nodes of %g CPUs (the log's MaxNodes %g, MaxProcs "
			 "%g) is beyond %u nodes of %u CPUs",
			 nodes, cpus, c.max_nodes, c.max_procs, SIM_MAX_NODES,
			 1u << 20);
		return EINVAL;
	}
	if ((rc = gen_cluster_uniform(cl, (uint32_t) nodes, (uint32_t) cpus,
				      err, errlen)))
		return rc;
	if (asprintf(&w->description,
		     "SWF log %s, submissions in [%g, %g) s: %u jobs (%zu "
		     "records without a run time or width left out), "
		     "deadlines %g-%gx isolated",
		     o->origin ? o->origin : "-", o->from, o->to, w->njobs,
		     c.skipped, o->klo, o->khi) < 0) {
		w->description = NULL;
		return oom(err, errlen);
	}
	return 0;
}

int gen_swf(const struct gen_args *a, struct sim_cluster_spec *cl,
	    struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct gen_opt o[] = {
		{"--trace", NULL},      {"--k", NULL},    {"--k-min", NULL},
		{"--k-max", NULL},      {"--from", NULL}, {"--to", NULL},
		{"--nodes", NULL},      {"--cpus", NULL}, {"--max-tasks", NULL},
		{"--time-limit", NULL},
	};
	struct gen_swf_opts so = {0};
	char *text = NULL;
	size_t len;
	int rc;

	if ((rc = gen_parse(a, o, sizeof(o) / sizeof(*o), err, errlen)) ||
	    (rc = trace_window(o, 1e10, &so.klo, &so.khi, &so.from, &so.to, err,
			       errlen)))
		return rc;
	if (gen_num(&o[6], 1, SIM_MAX_NODES, 0, &so.nodes, err, errlen) ||
	    gen_num(&o[7], 1, 1 << 20, 0, &so.cpus, err, errlen) ||
	    gen_num(&o[8], 1, 1e6, 5000, &so.max_tasks, err, errlen))
		return GEN_USAGE_ERROR;
	if (o[9].value && strcmp(o[9].value, "requested") &&
	    strcmp(o[9].value, "exact")) {
		snprintf(err, errlen,
			 "--time-limit expects 'requested' or 'exact', not "
			 "'%s'",
			 o[9].value);
		return GEN_USAGE_ERROR;
	}
	so.exact_limits = o[9].value && !strcmp(o[9].value, "exact");
	so.origin = o[0].value;
	if ((rc = gen_read_input(o[0].value, &text, &len, err, errlen)))
		return rc;
	rc = gen_swf_parse(text, len, &so, a->seed, cl, w, err, errlen);
	free(text);
	return rc;
}
