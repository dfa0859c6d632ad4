/*
 * gen_papers.c - generators for the papers' experiments:
 *   polo-ch3-a/b  Polo's thesis Ch. 3, Experiment 1 (doc/design.md
 *                 §10): five jobs on 60 nodes of 1 map + 1 reduce slot;
 *   binned        RTMR §V: per bin a job count, map/reduce ranges and
 *                 deadline ranges, exponential inter-arrivals, with an
 *                 explicit task-length model (bench/workloads/ has RTMR's
 *                 workload I);
 *   reverse       the Reverse-Adaptive family of Polo's Table 5.6.
 * Choices the papers leave open are documented in doc/simulator.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/atomic_file.h"
#include "sim/gen_kinds.h"
#include "common/io/json.h"
#include "common/simulate/rng.h"

/* ------------------------------------------------------------ Polo Ch. 3 */

/* The thesis gives each job's application, isolated completion time and
 * goals, but neither task counts nor submission times.  Task counts and
 * lengths below reproduce the isolated times on 60 map + 60 reduce slots
 * with the applications' character (§3.5.1: WordCount maps 92 +- 3 s, Sort
 * maps 12 +- 2 s and a heavy reduce phase, Simulator and Join irregular);
 * the submission order and the shape of Fig. 3.4 fix the times. */
struct polo_job {
	const char *name;
	double submit;
	double isolated; /* the thesis's isolated completion time */
	double goal[2];  /* scenario A, B: seconds after submission */
	uint32_t maps;
	enum sim_dist_kind map_kind;
	double map_mean, map_sd;
	uint32_t reduces;
	double red_mean, red_sd;
};

static const struct polo_job polo_jobs[] = {
	/* isolated 3,549 s: five waves of irregular maps, then a long
	 * single reduce (the simulation's aggregation) */
	{"J1-Simulator",
	 0,
	 3549,
	 {6000, 6000},
	 300,
	 SIM_DIST_LOGNORMAL,
	 340,
	 60,
	 1,
	 1550,
	 50},
	/* isolated 1,264 s: thirteen waves of 92 s maps */
	{"J2-WordCount",
	 300,
	 1264,
	 {3000, 1500},
	 780,
	 SIM_DIST_NORMAL,
	 92,
	 3,
	 10,
	 40,
	 4},
	/* isolated 602 s: ten waves of 12 s maps, one long reduce wave */
	{"J3-Sort",
	 1000,
	 602,
	 {3000, 650},
	 600,
	 SIM_DIST_NORMAL,
	 12,
	 2,
	 60,
	 420,
	 20},
	/* isolated 101 s: one wave of irregular maps, a short reduce */
	{"J4-Join",
	 1500,
	 101,
	 {150, 120},
	 10,
	 SIM_DIST_LOGNORMAL,
	 50,
	 8,
	 1,
	 40,
	 4},
	{"J5-Join",
	 2500,
	 101,
	 {150, 120},
	 10,
	 SIM_DIST_LOGNORMAL,
	 50,
	 8,
	 1,
	 40,
	 4},
};

static int polo(int scenario, const struct gen_args *a,
		struct sim_cluster_spec *c, struct sim_workload_spec *w,
		char *err, size_t errlen)
{
	const uint32_t count = 60, ms = 1, rs = 1;
	uint32_t cap = 0;

	if (a->argc > 1) {
		snprintf(err, errlen, "unexpected option '%s'", a->argv[1]);
		return GEN_USAGE_ERROR;
	}
	if (gen_cluster_typed(c, &count, &ms, &rs, NULL, 1, err, errlen))
		return ENOMEM;
	w->description = strdup(
		scenario
			? "Polo thesis Ch.3 Exp 1, scenario B (tight goals)"
			: "Polo thesis Ch.3 Exp 1, scenario A (relaxed goals)");
	for (size_t i = 0; i < sizeof(polo_jobs) / sizeof(*polo_jobs); i++) {
		const struct polo_job *p = &polo_jobs[i];
		struct sim_job_spec *j = gen_add_job(w, &cap, p->name);

		if (!j || !w->description) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		j->arrival = p->submit;
		/* "each goal derived from the isolated completion time":
		 * the thesis's goal/isolated factor applied to this
		 * instance's own isolated time */
		j->deadline_factor = p->goal[scenario] / p->isolated;
		j->phase[0].tasks = p->maps;
		j->phase[0].len.kind = p->map_kind;
		j->phase[0].len.a = p->map_mean;
		j->phase[0].len.b = p->map_sd;
		j->phase[1].tasks = p->reduces;
		j->phase[1].len.kind = SIM_DIST_NORMAL;
		j->phase[1].len.a = p->red_mean;
		j->phase[1].len.b = p->red_sd;
		/* the relative cost of a reduce task a user gives the
		 * Adaptive Scheduler in the job configuration (§3.4.5) */
		j->reduce_cost = p->red_mean / p->map_mean;
		/* a task takes at least a few seconds in Hadoop */
		j->phase[0].len.min = j->phase[1].len.min = 3;
	}
	return 0;
}

int gen_polo_a(const struct gen_args *a, struct sim_cluster_spec *c,
	       struct sim_workload_spec *w, char *err, size_t errlen)
{
	return polo(0, a, c, w, err, errlen);
}

int gen_polo_b(const struct gen_args *a, struct sim_cluster_spec *c,
	       struct sim_workload_spec *w, char *err, size_t errlen)
{
	return polo(1, a, c, w, err, errlen);
}

/* ---------------------------------------------------------------- binned */

struct bin {
	uint32_t jobs;
	double maps[2], reduces[2], deadline[2];
};

static int range(json_object *b, const char *key, const char *path,
		 bool integer, double lo, double hi, double *out, char *err,
		 size_t errlen)
{
	json_object *v;

	if (!json_object_object_get_ex(b, key, &v)) {
		snprintf(err, errlen, "%s.%s: missing", path, key);
		return EINVAL;
	}
	if (dl_json_is_number(v)) {
		out[0] = out[1] = json_object_get_double(v);
	} else if (json_object_is_type(v, json_type_array) &&
		   json_object_array_length(v) == 2 &&
		   dl_json_is_number(json_object_array_get_idx(v, 0)) &&
		   dl_json_is_number(json_object_array_get_idx(v, 1))) {
		out[0] =
			json_object_get_double(json_object_array_get_idx(v, 0));
		out[1] =
			json_object_get_double(json_object_array_get_idx(v, 1));
	} else {
		snprintf(err, errlen, "%s.%s: expected a number or [low, high]",
			 path, key);
		return EINVAL;
	}
	if (!isfinite(out[0]) || !isfinite(out[1]) || out[0] < lo ||
	    out[1] > hi || out[1] < out[0] ||
	    (integer && (out[0] != floor(out[0]) || out[1] != floor(out[1])))) {
		snprintf(err, errlen,
			 "%s.%s: expected %s in [%g, %g] with low <= high",
			 path, key, integer ? "whole numbers" : "numbers", lo,
			 hi);
		return EINVAL;
	}
	return 0;
}

struct task_model {
	double block_mb;
	struct sim_dist map_len; /* one block, local read, speed-1 node */
	double remote_prob, remote_factor;
	double selectivity;  /* map output / input (RTMR's eta) */
	double red_overhead; /* s per reduce task */
	double red_per_mb;   /* s per MB of intermediate data */
	double red_cv;
};

static int parse_model(json_object *m, struct task_model *t, char *err,
		       size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	static const char *keys[] = {
		"block_mb",    "map_length",        "remote",
		"selectivity", "reduce_overhead_s", "reduce_s_per_mb",
		"reduce_cv",   "description",       NULL};
	const char *path = "bins.task_model";
	json_object *v;

	dl_json_known_keys(&rd, m, path, keys);
	t->block_mb = dl_json_num(&rd, m, path, "block_mb", 0, 1e-3, 1e6, 128);
	t->selectivity = dl_json_num(&rd, m, path, "selectivity", 0, 0, 100, 1);
	t->red_overhead =
		dl_json_num(&rd, m, path, "reduce_overhead_s", 0, 0, 1e6, 5);
	t->red_per_mb =
		dl_json_num(&rd, m, path, "reduce_s_per_mb", 0, 0, 1e3, 0.05);
	t->red_cv = dl_json_num(&rd, m, path, "reduce_cv", 0, 0, 10, 0.25);
	if (rd.failed)
		return EINVAL;
	if (!json_object_object_get_ex(m, "map_length", &v)) {
		snprintf(err, errlen, "%s.map_length: missing", path);
		return EINVAL;
	}
	if (sim_dist_parse(v, "bins.task_model.map_length", &t->map_len, err,
			   errlen))
		return EINVAL;
	t->remote_factor = 1;
	if (json_object_object_get_ex(m, "remote", &v)) {
		static const char *rk[] = {"prob", "factor", NULL};

		dl_json_known_keys(&rd, v, "bins.task_model.remote", rk);
		t->remote_prob = dl_json_num(&rd, v, "bins.task_model.remote",
					     "prob", DL_JSON_REQUIRED, 0, 1, 0);
		t->remote_factor =
			dl_json_num(&rd, v, "bins.task_model.remote", "factor",
				    DL_JSON_REQUIRED, 1, 1000, 1);
		if (rd.failed)
			return EINVAL;
	}
	return 0;
}

int gen_binned_parse(const char *text, size_t len, const char *origin,
		     const char *dir, uint64_t seed, struct sim_cluster_spec *c,
		     struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	json_object *root = NULL, *v, *bins;
	struct task_model tm = {0};
	struct bin *b = NULL;
	struct sim_rng rng;
	uint32_t nb, total = 0, cap = 0, *order = NULL;
	double mean_gap, t = 0;
	const char *ord, *names;
	int rc = EINVAL;

	memset(c, 0, sizeof(*c));
	memset(w, 0, sizeof(*w));
	root = dl_json_parse(text, len, SIZE_MAX, origin, err, errlen);
	if (!root)
		goto out;
	{
		static const char *keys[] = {"description", "interarrival_mean",
					     "order",       "task_model",
					     "cluster",     "bins",
					     "source",      "names",
					     NULL};

		dl_json_known_keys(&rd, root, "bins", keys);
		mean_gap = dl_json_num(&rd, root, "bins", "interarrival_mean",
				       0, 1e-3, 1e7, 14);
		ord = dl_json_str(&rd, root, "bins", "order", 0, 0, SIZE_MAX,
				  "shuffle");
		names = dl_json_str(&rd, root, "bins", "names", 0, 0, SIZE_MAX,
				    "job");
		w->description = dl_json_strdup(
			&rd, root, "bins", "description", 0, SIZE_MAX, NULL);
		if (rd.failed)
			goto out;
	}
	if (strcmp(ord, "shuffle") && strcmp(ord, "bins")) {
		snprintf(err, errlen, "bins.order: expected shuffle or bins");
		goto out;
	}
	/* job: every job its own name (b<bin>-<k>); bin: the jobs of a bin
	 * are runs of one program (b<bin>), so there is history per name */
	if (strcmp(names, "job") && strcmp(names, "bin")) {
		snprintf(err, errlen, "bins.names: expected job or bin");
		goto out;
	}
	if (!json_object_object_get_ex(root, "task_model", &v)) {
		snprintf(err, errlen, "bins.task_model: missing");
		goto out;
	}
	if (parse_model(v, &tm, err, errlen))
		goto out;
	if (!json_object_object_get_ex(root, "cluster", &v)) {
		snprintf(err, errlen,
			 "bins.cluster: missing (the cluster the workload was "
			 "made for)");
		goto out;
	}
	{
		const char *ctext = json_object_to_json_string(v);

		if (!ctext ||
		    sim_cluster_parse(ctext, strlen(ctext), "bins.cluster", dir,
				      c, err, errlen))
			goto out;
	}
	if (!json_object_object_get_ex(root, "bins", &bins) ||
	    !json_object_is_type(bins, json_type_array) ||
	    !(nb = (uint32_t) json_object_array_length(bins)) || nb > 1000) {
		snprintf(err, errlen, "bins.bins: expected 1 to 1000 bins");
		goto out;
	}
	b = calloc(nb, sizeof(*b));
	if (!b) {
		rc = ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < nb; i++) {
		static const char *keys[] = {"jobs",           "maps",
					     "reduces",        "deadline",
					     "facebook_share", NULL};
		json_object *bo = json_object_array_get_idx(bins, i);
		char path[48];
		uint64_t n;

		snprintf(path, sizeof(path), "bins.bins[%u]", i);
		dl_json_known_keys(&rd, bo, path, keys);
		n = dl_json_uint(&rd, bo, path, "jobs", DL_JSON_REQUIRED, 0,
				 1000000, 0);
		if (rd.failed ||
		    range(bo, "maps", path, true, 1, 1e6, b[i].maps, err,
			  errlen) ||
		    range(bo, "reduces", path, true, 0, 1e5, b[i].reduces, err,
			  errlen) ||
		    range(bo, "deadline", path, false, 1e-3, 1e9, b[i].deadline,
			  err, errlen))
			goto out;
		b[i].jobs = (uint32_t) n;
		total += b[i].jobs;
	}
	if (!total || total > 1000000) {
		snprintf(err, errlen, "bins: 1 to 1,000,000 jobs in all");
		goto out;
	}
	{
		double most = 0;

		for (uint32_t i = 0; i < nb; i++)
			most += (double) b[i].jobs *
				(b[i].maps[1] + b[i].reduces[1]);
		if (most > SIM_MAX_TOTAL_TASKS) {
			snprintf(err, errlen,
				 "bins: up to %g tasks in all, more than the "
				 "simulator's %u",
				 most, SIM_MAX_TOTAL_TASKS);
			goto out;
		}
	}
	order = malloc(total * sizeof(*order));
	if (!order) {
		rc = ENOMEM;
		goto out;
	}
	for (uint32_t i = 0, k = 0; i < nb; i++)
		for (uint32_t x = 0; x < b[i].jobs; x++)
			order[k++] = i;
	sim_rng_init(&rng, seed, 0xb1, 0, 0);
	if (!strcmp(ord, "shuffle"))
		for (uint32_t i = total - 1; i > 0; i--) {
			uint32_t k = (uint32_t) sim_rng_int(&rng, 0, i), x;

			x = order[i];
			order[i] = order[k];
			order[k] = x;
		}
	for (uint32_t k = 0; k < total; k++) {
		const struct bin *bi = &b[order[k]];
		struct sim_job_spec *j;
		char name[32];
		double red_mb, mean;

		if (!strcmp(names, "bin"))
			snprintf(name, sizeof(name), "b%u", order[k] + 1);
		else
			snprintf(name, sizeof(name), "b%u-%u", order[k] + 1,
				 k + 1);
		j = gen_add_job(w, &cap, name);
		if (!j) {
			rc = ENOMEM;
			goto out;
		}
		/* the first job arrives at 0, then exponential gaps */
		if (k)
			t += sim_rng_exp(&rng, mean_gap);
		j->arrival = t;
		j->phase[0].tasks = (uint32_t) sim_rng_int(
			&rng, (int64_t) bi->maps[0], (int64_t) bi->maps[1]);
		j->phase[1].tasks =
			(uint32_t) sim_rng_int(&rng, (int64_t) bi->reduces[0],
					       (int64_t) bi->reduces[1]);
		j->deadline =
			j->arrival +
			sim_rng_uniform(&rng, bi->deadline[0], bi->deadline[1]);
		if (bi->deadline[1] == bi->deadline[0])
			j->deadline = j->arrival + bi->deadline[0];
		if (sim_dist_copy(&j->phase[0].len, &tm.map_len)) {
			rc = ENOMEM;
			goto out;
		}
		j->phase[0].input_mb = tm.block_mb;
		j->remote_prob = tm.remote_prob;
		j->remote_factor = tm.remote_factor;
		/* a reducer takes its share of the intermediate data */
		if (j->phase[1].tasks) {
			red_mb = tm.selectivity * tm.block_mb *
				 j->phase[0].tasks / j->phase[1].tasks;
			mean = tm.red_overhead + tm.red_per_mb * red_mb;
			if (!(mean >= SIM_MIN_LENGTH))
				mean = 1;
			if (mean > 1e9) {
				snprintf(err, errlen,
					 "bins.task_model: reduce tasks of job "
					 "%u would take %g s",
					 k + 1, mean);
				rc = EINVAL;
				goto out;
			}
			j->phase[1].len.kind = SIM_DIST_LOGNORMAL;
			j->phase[1].len.a = mean;
			j->phase[1].len.b = tm.red_cv * mean;
			j->phase[1].input_mb = red_mb;
		}
	}
	rc = 0;
out:
	if (rc == ENOMEM)
		snprintf(err, errlen, "out of memory");
	sim_dist_free(&tm.map_len);
	free(order);
	free(b);
	json_object_put(root);
	return rc;
}

int gen_binned(const struct gen_args *a, struct sim_cluster_spec *c,
	       struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct gen_opt opts[] = {{"--bins", NULL}};
	char *text = NULL, dir[4096], *slash;
	size_t len;
	int rc;

	if ((rc = gen_parse(a, opts, 1, err, errlen)))
		return rc;
	if (!opts[0].value) {
		snprintf(err, errlen, "--bins FILE is required");
		return GEN_USAGE_ERROR;
	}
	if ((rc = dl_read_file(opts[0].value, 64u << 20, &text, &len))) {
		snprintf(err, errlen, "cannot read %s: %s", opts[0].value,
			 strerror(rc));
		return rc;
	}
	snprintf(dir, sizeof(dir), "%s", opts[0].value);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	rc = gen_binned_parse(text, len, opts[0].value, dir, a->seed, c, w, err,
			      errlen);
	free(text);
	return rc;
}

/* --------------------------------------------------------------- reverse */

int gen_reverse(const struct gen_args *a, struct sim_cluster_spec *c,
		struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct gen_opt o[] = {
		{"--load", NULL},        {"--max-factor", NULL},
		{"--min-factor", NULL},  {"--days", NULL},
		{"--nodes", NULL},       {"--task-length", NULL},
		{"--size-mean", NULL},   {"--size-sd", NULL},
		{"--forecast", NULL},    {"--ext-peak", NULL},
		{"--margin-days", NULL}, {"--forecast-step", NULL},
	};
	double load, fmax, fmin, days, nodes, len, smean, ssd, peak, margin;
	double step, horizon, avail = 1, rate, t = 0;
	struct sim_rng rng;
	uint32_t cap = 0;
	int rc;

	if ((rc = gen_parse(a, o, sizeof(o) / sizeof(*o), err, errlen)))
		return rc;
	if (!o[0].value || !o[1].value) {
		snprintf(err, errlen, "--load and --max-factor are required");
		return GEN_USAGE_ERROR;
	}
	if (gen_num(&o[0], 0.01, 2, 0, &load, err, errlen) ||
	    gen_num(&o[1], 1, 1000, 0, &fmax, err, errlen) ||
	    gen_num(&o[2], 1, 1000, 1.5, &fmin, err, errlen) ||
	    gen_num(&o[3], 0.01, 365, 7, &days, err, errlen) ||
	    gen_num(&o[4], 1, SIM_MAX_NODES, 100, &nodes, err, errlen) ||
	    gen_num(&o[5], 0.01, 1e6, 390, &len, err, errlen) ||
	    gen_num(&o[6], 1, 1e6, 62, &smean, err, errlen) ||
	    gen_num(&o[7], 0, 1e6, 15.5, &ssd, err, errlen) ||
	    gen_num(&o[9], 0, 1, 0.7, &peak, err, errlen) ||
	    gen_num(&o[10], 0, 100, 1, &margin, err, errlen) ||
	    gen_num(&o[11], 1e-3, 1e6, 60, &step, err, errlen))
		return GEN_USAGE_ERROR;
	if (fmin > fmax) {
		snprintf(err, errlen, "--min-factor is above --max-factor");
		return GEN_USAGE_ERROR;
	}
	if (2 * margin >= days) {
		snprintf(err, errlen,
			 "--margin-days leaves no statistics window");
		return GEN_USAGE_ERROR;
	}
	nodes = floor(nodes);
	if ((rc = gen_cluster_uniform(c, (uint32_t) nodes, 1, err, errlen)))
		return rc;
	horizon = days * 86400;
	if (o[8].value) {
		char *text = NULL;
		size_t tl;
		double sum = 0;
		uint64_t k = 0;

		if ((rc = gen_read_input(o[8].value, &text, &tl, err, errlen)))
			return rc;
		rc = sim_series_parse_text(text, tl, o[8].value, step, &c->ext,
					   err, errlen);
		free(text);
		if (rc)
			return rc;
		c->ext.repeat = true;
		for (uint32_t i = 0; i < c->ext.n; i++) {
			if (!(c->ext.values[i] >= 0 && c->ext.values[i] <= 1)) {
				snprintf(err, errlen,
					 "%s: value %u is outside [0, 1] "
					 "(normalised load)",
					 o[8].value, i);
				return EINVAL;
			}
			c->ext.values[i] *= peak;
		}
		/* mean share of the nodes left over the generated days */
		for (double x = step / 2; x < horizon; x += step, k++)
			sum += 1 - sim_series_at(&c->ext, x);
		avail = k ? sum / (double) k : 1;
	}
	if (asprintf(&w->description,
		     "Reverse-adaptive family: load %.2f, deadline factor "
		     "%.1f-%.1fx, %g days, %g nodes, %s",
		     load, fmin, fmax, days, nodes,
		     o[8].value ? "external load f(t)" : "no external load") <
	    0) {
		w->description = NULL;
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	/* load = submitted work / capacity left to MapReduce */
	rate = load * nodes * avail / (smean * len);
	w->has_window = true;
	w->window[0] = margin * 86400;
	w->window[1] = horizon - margin * 86400;
	sim_rng_init(&rng, a->seed, 0x7e, 0, 0);
	for (uint32_t k = 0;; k++) {
		struct sim_job_spec *j;
		char name[32];
		double size;

		t += sim_rng_exp(&rng, 1 / rate);
		if (t >= horizon)
			break;
		snprintf(name, sizeof(name), "j%u", k + 1);
		j = gen_add_job(w, &cap, name);
		if (!j) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		size = floor(sim_rng_lognormal(&rng, smean, ssd) + 0.5);
		j->arrival = t;
		j->phase[0].tasks = size < 1 ? 1 : (uint32_t) size;
		sim_dist_const(&j->phase[0].len, len);
		/* the family's jobs recur with regular tasks: their length is
		 * known from history (RAS and Reverse-Adaptive take offline
		 * profiles), so every policy starts with it */
		j->phase[0].prior_mean = len;
		j->phase[0].prior_p90 = len;
		j->deadline_factor = sim_rng_uniform(&rng, fmin, fmax);
	}
	return 0;
}
