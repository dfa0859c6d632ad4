/*
 * estimator_accuracy.c - replays per-task traces through the estimator's
 * history and predictors in time order: each task is predicted when it
 * starts (from what has finished by then, plus its job's own completed
 * tasks), and observed when it ends.  The first --warmup share of the
 * predictions (default 0.1) is replayed but not scored.  Reports, per trace
 * and phase, the median relative error of p50 per task and per job (every
 * job weighs the same) with percentile-bootstrap 95 % intervals over jobs
 * (--reps resamples, default 1000, from --seed, default 1: deterministic),
 * the same medians for a per-key-median oracle (a predictor that knows the
 * median of each (user, name, phase) key over the scored tasks: what is
 * achievable with these keys), how often the actual length was at most p90
 * (coverage of the p90 interval) and the share of predictions for which the
 * job's own tasks or its name's history could answer.
 *
 *   estimator_accuracy [--config FILE] [--format F] [--warmup SHARE]
 *                      [--reps N] [--seed N] [--dump FILE] TRACE...
 *
 * --dump writes one tab-separated line per scored prediction (trace, job,
 * user, name, phase, start, the job's completions of the phase by then,
 * its tasks, actual length, p50, p90, relative error, the level that
 * answered, where its p90 came from, 1 if the job's own or the name's
 * history could answer): the rows behind every figure, to look at
 * predictions against outcomes job by job.
 *
 * TRACE is a Hadoop Rumen job trace (a stream of JSON job objects), a
 * Google clusterdata-2011 directory (task_events/ and job_events/ with
 * *.csv[.gz] shards) or one task_events shard, or an Alibaba
 * cluster-trace-v2017 batch_task CSV.  The format is detected from the
 * content unless --format rumen|google|alibaba is given.  .gz files are
 * read through gzip -dc.  --config reads deadline-estimatord's
 * configuration so the predictors run with the same settings.
 *
 * Mapping of each trace onto the estimator's records (doc/estimator.md):
 *  - Rumen: successful map/reduce attempts, start..finish; user; job name
 *    (often null: ""); input size hdfsBytesRead (maps, else mapInputBytes)
 *    or reduceShuffleBytes (reduces).
 *  - Google: SCHEDULE -> FINISH of each task (other ends drop the
 *    attempt); user; logical job name from job_events; phase map (the
 *    trace has no phases); no sizes.
 *  - Alibaba 2017: Terminated tasks (a task = a stage of identical
 *    instances), create..end; no users: one user "alibaba"; the job name is
 *    the requested (CPU, memory) shape, the closest thing to a job type;
 *    the stage(s) created first in a job are map, later stages reduce.
 */
#include "dl_autoconf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/estimate/history.h"
#include "common/estimate/stats.h"
#include "estimator/est_config.h"
#include "common/simulate/rng.h"

struct task {
	uint32_t job; /* index into jobs */
	int phase;
	double start, end, bytes;
};

struct job {
	char *user, *name;
	uint64_t id;
	/* own completions per phase, in completion order */
	double *done[2];
	size_t ndone[2], capdone[2];
	uint32_t ntasks[2]; /* tasks per phase: the array size */
};

struct trace {
	const char *path;
	const char *format;
	struct task *tasks;
	size_t ntasks, captasks;
	struct job *jobs;
	size_t njobs, capjobs;
};

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "estimator_accuracy: out of memory\n");
		exit(1);
	}
	return q;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d) {
		fprintf(stderr, "estimator_accuracy: out of memory\n");
		exit(1);
	}
	return d;
}

static uint32_t add_job(struct trace *t, const char *user, const char *name)
{
	struct job *j;

	if (t->njobs == t->capjobs) {
		t->capjobs = t->capjobs ? t->capjobs * 2 : 1024;
		t->jobs = xrealloc(t->jobs, t->capjobs * sizeof(*t->jobs));
	}
	j = &t->jobs[t->njobs];
	memset(j, 0, sizeof(*j));
	j->user = xstrdup(user);
	j->name = xstrdup(name);
	j->id = t->njobs + 1;
	return (uint32_t) t->njobs++;
}

static void add_task(struct trace *t, uint32_t job, int phase, double start,
		     double end, double bytes)
{
	if (!isfinite(start) || !isfinite(end) || end < start || start < 0)
		return;
	if (t->ntasks == t->captasks) {
		t->captasks = t->captasks ? t->captasks * 2 : 4096;
		t->tasks = xrealloc(t->tasks, t->captasks * sizeof(*t->tasks));
	}
	t->jobs[job].ntasks[phase == 1]++;
	t->tasks[t->ntasks++] = (struct task){.job = job,
					      .phase = phase,
					      .start = start,
					      .end = end,
					      .bytes = bytes};
}

/* ---- reading files (plain or through gzip -dc) ---- */

static char *read_all(const char *path, size_t *len)
{
	size_t n = strlen(path), cap = 1 << 20, used = 0;
	char *buf = xrealloc(NULL, cap);
	bool gz = n > 3 && !strcmp(path + n - 3, ".gz");
	int fd, p[2] = {-1, -1};
	pid_t pid = -1;
	ssize_t r;

	if (gz) {
		if (pipe(p) < 0)
			goto fail;
		pid = fork();
		if (pid < 0)
			goto fail;
		if (pid == 0) {
			dup2(p[1], 1);
			close(p[0]);
			close(p[1]);
			execlp("gzip", "gzip", "-dc", "--", path,
			       (char *) NULL);
			_exit(127);
		}
		close(p[1]);
		fd = p[0];
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			goto fail;
	}
	while ((r = read(fd, buf + used, cap - used - 1)) > 0) {
		used += (size_t) r;
		if (cap - used < 2) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	close(fd);
	if (pid > 0) {
		int st;

		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr,
				"estimator_accuracy: gzip -dc %s failed\n",
				path);
			free(buf);
			return NULL;
		}
	}
	if (r < 0)
		goto fail;
	buf[used] = '\0';
	*len = used;
	return buf;
fail:
	fprintf(stderr, "estimator_accuracy: %s: %s\n", path, strerror(errno));
	free(buf);
	return NULL;
}

/* ---- Rumen ---- */

static double jnum(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v) || !v)
		return NAN;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return NAN;
	return json_object_get_double(v);
}

static const char *jstr(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v) || !v ||
	    !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

static void rumen_tasks(struct trace *t, uint32_t job, struct json_object *arr,
			int phase)
{
	size_t n;

	if (!arr || !json_object_is_type(arr, json_type_array))
		return;
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		struct json_object *task = json_object_array_get_idx(arr, i);
		struct json_object *atts = NULL;
		size_t na;

		if (!json_object_object_get_ex(task, "attempts", &atts) ||
		    !json_object_is_type(atts, json_type_array))
			continue;
		na = json_object_array_length(atts);
		for (size_t k = 0; k < na; k++) {
			struct json_object *a =
				json_object_array_get_idx(atts, k);
			double s = jnum(a, "startTime"),
			       f = jnum(a, "finishTime");
			double b;

			if (strcmp(jstr(a, "result"), "SUCCESS") || !(s > 0))
				continue;
			if (phase == 0) {
				b = jnum(a, "hdfsBytesRead");
				if (!(b >= 0))
					b = jnum(a, "mapInputBytes");
			} else {
				b = jnum(a, "reduceShuffleBytes");
			}
			add_task(t, job, phase, s / 1000, f / 1000,
				 b >= 0 ? b : NAN);
			break; /* one successful attempt per task */
		}
	}
}

static int load_rumen(struct trace *t, const char *path)
{
	size_t len, off = 0;
	char *data = read_all(path, &len);
	struct json_tokener *tok;

	if (!data)
		return -1;
	tok = json_tokener_new_ex(64);
	while (off < len) {
		struct json_object *job, *v = NULL;
		uint32_t j;

		while (off < len && strchr(" \t\r\n", data[off]))
			off++;
		if (off >= len)
			break;
		json_tokener_reset(tok);
		job = json_tokener_parse_ex(tok, data + off, (int) (len - off));
		if (!job) {
			fprintf(stderr,
				"estimator_accuracy: %s: bad JSON at "
				"byte %zu\n",
				path, off);
			break;
		}
		off += json_tokener_get_parse_end(tok);
		j = add_job(t, jstr(job, "user"), jstr(job, "jobName"));
		if (json_object_object_get_ex(job, "mapTasks", &v))
			rumen_tasks(t, j, v, 0);
		if (json_object_object_get_ex(job, "reduceTasks", &v))
			rumen_tasks(t, j, v, 1);
		json_object_put(job);
	}
	json_tokener_free(tok);
	free(data);
	return 0;
}

/* ---- CSV helpers ---- */

/* Split a line at commas in place; returns the field count. */
static int split_csv(char *line, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == ',') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

/* Simple string -> index map for ids (open addressing). */
struct idmap {
	char **keys;
	uint32_t *vals;
	size_t cap, n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 1099511628211ull;
	return h;
}

static uint32_t *idmap_slot(struct idmap *m, const char *key, bool *found)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		struct idmap old = *m;

		m->cap = m->cap ? m->cap * 2 : 4096;
		m->keys = calloc(m->cap, sizeof(*m->keys));
		m->vals = calloc(m->cap, sizeof(*m->vals));
		if (!m->keys || !m->vals)
			exit(1);
		m->n = 0;
		for (size_t k = 0; k < old.cap; k++)
			if (old.keys[k]) {
				bool f;
				uint32_t *v;

				v = idmap_slot(m, old.keys[k], &f);
				*v = old.vals[k];
				free(old.keys[k]);
			}
		free(old.keys);
		free(old.vals);
	}
	for (i = hash_str(key) & (m->cap - 1); m->keys[i];
	     i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->keys[i], key)) {
			*found = true;
			return &m->vals[i];
		}
	m->keys[i] = xstrdup(key);
	m->n++;
	*found = false;
	return &m->vals[i];
}

static uint32_t *idmap_find(struct idmap *m, const char *key)
{
	for (size_t i = hash_str(key) & (m->cap - 1); m->keys[i];
	     i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->keys[i], key))
			return &m->vals[i];
	return NULL;
}

static void idmap_free(struct idmap *m)
{
	for (size_t k = 0; k < m->cap; k++)
		free(m->keys[k]);
	free(m->keys);
	free(m->vals);
}

/* ---- Google 2011 ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Files of a directory ending in .csv or .csv.gz, sorted. */
static char **list_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char *p;

		if (!(l > 4 && !strcmp(e->d_name + l - 4, ".csv")) &&
		    !(l > 7 && !strcmp(e->d_name + l - 7, ".csv.gz")))
			continue;
		p = xrealloc(NULL, strlen(dir) + l + 2);
		sprintf(p, "%s/%s", dir, e->d_name);
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = p;
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

struct gjob {
	char user[64], name[64];
};

static int load_google(struct trace *t, char **job_files, size_t njf,
		       char **task_files, size_t ntf)
{
	struct idmap names = {0}, jobs = {0}, running = {0};
	struct gjob *gj = NULL;
	size_t ngj = 0;
	double *sched_at = NULL;
	size_t nsched = 0;

	for (size_t i = 0; i < njf; i++) {
		size_t len;
		char *data = read_all(job_files[i], &len), *line, *save = NULL;

		if (!data)
			return -1;
		for (line = strtok_r(data, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *f[9];
			bool found;
			uint32_t *v;

			if (split_csv(line, f, 9) < 8)
				continue;
			v = idmap_slot(&names, f[2], &found);
			if (!found) {
				gj = xrealloc(gj, (ngj + 1) * sizeof(*gj));
				snprintf(gj[ngj].user, sizeof(gj[ngj].user),
					 "%s", f[4]);
				snprintf(gj[ngj].name, sizeof(gj[ngj].name),
					 "%s", f[7]);
				*v = (uint32_t) ngj++;
			}
		}
		free(data);
	}
	for (size_t i = 0; i < ntf; i++) {
		size_t len;
		char *data = read_all(task_files[i], &len), *line, *save = NULL;

		if (!data)
			return -1;
		for (line = strtok_r(data, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *f[14], key[96];
			bool found;
			uint32_t *slot, job;
			int ev;
			double ts;

			if (split_csv(line, f, 14) < 13)
				continue;
			ts = strtod(f[0], NULL) / 1e6;
			ev = atoi(f[5]);
			snprintf(key, sizeof(key), "%s/%s", f[2], f[3]);
			if (ev == 1) { /* SCHEDULE */
				slot = idmap_slot(&running, key, &found);
				if (!found) {
					sched_at = xrealloc(
						sched_at,
						(nsched + 1) * sizeof(double));
					*slot = (uint32_t) nsched++;
				}
				sched_at[*slot] = ts;
				continue;
			}
			if (ev < 2 || ev > 6)
				continue;
			slot = idmap_slot(&running, key, &found);
			if (!found) { /* never seen scheduled: censored */
				sched_at =
					xrealloc(sched_at,
						 (nsched + 1) * sizeof(double));
				*slot = (uint32_t) nsched++;
				sched_at[*slot] = NAN;
				continue;
			}
			if (ev == 4 && !isnan(sched_at[*slot])) {
				uint32_t *jv = idmap_slot(&jobs, f[2], &found);

				if (!found) {
					uint32_t *nv =
						names.cap ? idmap_find(&names,
								       f[2])
							  : NULL;

					*jv = nv ? add_job(t, gj[*nv].user,
							   gj[*nv].name)
						 : add_job(t, f[6], "");
				}
				job = *jv;
				add_task(t, job, 0, sched_at[*slot], ts, NAN);
			}
			sched_at[*slot] = NAN; /* the attempt ended */
		}
		free(data);
	}
	idmap_free(&names);
	idmap_free(&jobs);
	idmap_free(&running);
	free(gj);
	free(sched_at);
	return 0;
}

/* ---- Alibaba 2017 ---- */

static int load_alibaba(struct trace *t, const char *path)
{
	struct idmap jobs = {0};
	size_t len, nrows = 0;
	char *data = read_all(path, &len), *line, *save = NULL;
	struct row {
		double create, end;
		uint32_t job;
		char shape[48];
	} *rows = NULL;
	double *first = NULL;
	size_t njobs = 0;

	if (!data)
		return -1;
	for (line = strtok_r(data, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[9], *status;
		bool found;
		uint32_t *v;
		double c, e;

		if (!strncmp(line, "task_create_time", 16))
			continue; /* header */
		if (split_csv(line, f, 9) < 8)
			continue;
		status = f[5];
		while (*status == ' ')
			status++;
		if (strncmp(status, "Terminated", 10))
			continue;
		c = strtod(f[0], NULL);
		e = strtod(f[1], NULL);
		if (!(c >= 0) || !(e >= c))
			continue;
		v = idmap_slot(&jobs, f[2], &found);
		if (!found) {
			first = xrealloc(first, (njobs + 1) * sizeof(double));
			first[njobs] = c;
			*v = (uint32_t) njobs++;
		} else if (c < first[*v]) {
			first[*v] = c;
		}
		rows = xrealloc(rows, (nrows + 1) * sizeof(*rows));
		rows[nrows].create = c;
		rows[nrows].end = e;
		rows[nrows].job = *v;
		snprintf(rows[nrows].shape, sizeof(rows[nrows].shape),
			 "cpu%s-mem%.3f", f[6], strtod(f[7], NULL));
		nrows++;
	}
	{
		/* one trace job per Alibaba job; its name is per stage shape,
		 * so jobs are (job, shape) pairs to carry the name */
		struct idmap pairs = {0};

		for (size_t i = 0; i < nrows; i++) {
			char key[96];
			bool found;
			uint32_t *v;

			snprintf(key, sizeof(key), "%u/%s", rows[i].job,
				 rows[i].shape);
			v = idmap_slot(&pairs, key, &found);
			if (!found)
				*v = add_job(t, "alibaba", rows[i].shape);
			add_task(t, *v, rows[i].create > first[rows[i].job],
				 rows[i].create, rows[i].end, NAN);
		}
		idmap_free(&pairs);
	}
	idmap_free(&jobs);
	free(rows);
	free(first);
	free(data);
	return 0;
}

/* ---- replay ---- */

struct event {
	double t;
	int kind; /* 0 finish (first at equal times), 1 start */
	uint32_t task;
};

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->task > y->task) - (x->task < y->task);
}

/* One scored prediction. */
struct scored {
	uint32_t job;
	uint8_t phase, source;
	uint8_t calib_use; /* enum dl_calib_use: where p90 came from */
	bool covered;      /* actual <= p90 */
	bool specific;   /* the job's own or its name's history could answer */
	uint32_t key;    /* (user, name, phase) key, for the oracle */
	double len, err; /* actual length, relative error of p50 */
};

struct run_opts {
	double warmup; /* share of predictions replayed but not scored */
	unsigned reps; /* bootstrap resamples */
	uint64_t seed; /* of the bootstrap */
	double level;  /* of the intervals */
	FILE *dump;    /* --dump: one line per scored prediction, or NULL */
};

static double rng_unit(void *p)
{
	return sim_rng_unit(p);
}

static int cmp_scored_job(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return 0;
}

/* Errors of a set of scored predictions grouped by job: the median per
 * task, per job (each job weighs the same) and their bootstrap intervals
 * over jobs. */
struct figures {
	size_t n, jobs, covered, specific;
	double mean;
	double med_task, med_job;
	double ci_task[2], ci_job[2];
	double oracle_task, oracle_job;
	double causal_task, causal_job;
	/* p90 coverage, %: per task, with every job weighing the same, and
	 * their bootstrap intervals over jobs */
	double cov_task, cov_job, ci_cov_task[2], ci_cov_job[2];
};

static void figures_of(struct scored *v, size_t n, const double *oracle_err,
		       const struct run_opts *o, bool intervals,
		       bool coverage_intervals, struct figures *f)
{
	double *x = xrealloc(NULL, n * sizeof(double));
	double *ox = xrealloc(NULL, n * sizeof(double));
	double *cx = xrealloc(NULL, n * sizeof(double));
	size_t *start = xrealloc(NULL, (n + 1) * sizeof(size_t));
	double *cv = xrealloc(NULL, n * sizeof(double));
	struct dl_groups g = {x, start, 0}, og = {ox, start, 0},
			 cg = {cx, start, 0}, cov = {cv, start, 0};
	double sum = 0;

	memset(f, 0, sizeof(*f));
	f->n = n;
	f->med_task = f->med_job = f->oracle_task = f->oracle_job = NAN;
	f->causal_task = f->causal_job = NAN;
	f->ci_task[0] = f->ci_task[1] = f->ci_job[0] = f->ci_job[1] = NAN;
	f->ci_cov_task[0] = f->ci_cov_task[1] = NAN;
	f->ci_cov_job[0] = f->ci_cov_job[1] = NAN;
	f->cov_task = f->cov_job = NAN;
	if (!n)
		goto out;
	qsort(v, n, sizeof(*v), cmp_scored_job);
	for (size_t i = 0; i < n; i++) {
		if (!i || v[i].job != v[i - 1].job)
			start[g.ngroups++] = i;
		x[i] = v[i].err;
		ox[i] = oracle_err
				? dl_rel_error(oracle_err[v[i].key], v[i].len)
				: NAN;
		/* the causal oracle knows a key's median only where its
		 * history (the job's own tasks or the name's) existed when
		 * the prediction was made; elsewhere it has what the
		 * predictor had and answers the same */
		cx[i] = v[i].specific ? ox[i] : v[i].err;
		cv[i] = v[i].covered;
		sum += v[i].err;
		f->covered += v[i].covered;
		f->specific += v[i].specific;
	}
	start[g.ngroups] = n;
	cov.ngroups = g.ngroups;
	f->cov_task = 100 * dl_groups_mean(&cov, false);
	f->cov_job = 100 * dl_groups_mean(&cov, true);
	og.ngroups = cg.ngroups = g.ngroups;
	f->jobs = g.ngroups;
	f->mean = sum / (double) n;
	f->med_task = dl_groups_median(&g, false);
	f->med_job = dl_groups_median(&g, true);
	if (oracle_err) {
		f->oracle_task = dl_groups_median(&og, false);
		f->oracle_job = dl_groups_median(&og, true);
		f->causal_task = dl_groups_median(&cg, false);
		f->causal_job = dl_groups_median(&cg, true);
	}
	if (intervals) {
		struct sim_rng r;

		sim_rng_init(&r, o->seed, 1, 0, 0);
		dl_bootstrap_groups(&g, false, o->reps, o->level, rng_unit, &r,
				    &f->ci_task[0], &f->ci_task[1]);
		sim_rng_init(&r, o->seed, 2, 0, 0);
		dl_bootstrap_groups(&g, true, o->reps, o->level, rng_unit, &r,
				    &f->ci_job[0], &f->ci_job[1]);
	}
	if (coverage_intervals) {
		struct sim_rng r;

		sim_rng_init(&r, o->seed, 3, 0, 0);
		dl_bootstrap_groups_mean(&cov, false, o->reps, o->level,
					 rng_unit, &r, &f->ci_cov_task[0],
					 &f->ci_cov_task[1]);
		sim_rng_init(&r, o->seed, 4, 0, 0);
		dl_bootstrap_groups_mean(&cov, true, o->reps, o->level,
					 rng_unit, &r, &f->ci_cov_job[0],
					 &f->ci_cov_job[1]);
		for (int k = 0; k < 2; k++) {
			f->ci_cov_task[k] *= 100;
			f->ci_cov_job[k] *= 100;
		}
	}
out:
	free(x);
	free(ox);
	free(cx);
	free(cv);
	free(start);
}

static void print_cov(double v, const double *ci)
{
	printf(" %.1f %%", v);
	if (!isnan(ci[0]))
		printf(" [%.1f, %.1f]", ci[0], ci[1]);
	printf(" |");
}

static void print_ci(const double *ci)
{
	if (isnan(ci[0]))
		printf(" |");
	else
		printf(" [%.3f, %.3f] |", ci[0], ci[1]);
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double) a / (double) b : NAN;
}

/* ---- the per-key-median oracle ---- */

/* Map each (user, name, phase) to a key index. */
static uint32_t key_of(struct idmap *m, const struct job *j, int phase,
		       uint32_t *nkeys)
{
	char k[2 * 300];
	bool found;
	uint32_t *v;

	snprintf(k, sizeof(k), "%d\037%s\037%s", phase, j->user, j->name);
	v = idmap_slot(m, k, &found);
	if (!found)
		*v = (*nkeys)++;
	return *v;
}

static int cmp_key_len(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->len > y->len) - (x->len < y->len);
}

/* The median actual length of each key over the scored predictions: what a
 * predictor that knows each key's future median would answer. */
static double *oracle_medians(struct scored *v, size_t n, uint32_t nkeys)
{
	double *med = xrealloc(NULL, (nkeys ? nkeys : 1) * sizeof(double));
	double *x = xrealloc(NULL, (n ? n : 1) * sizeof(double));

	for (uint32_t k = 0; k < nkeys; k++)
		med[k] = NAN;
	qsort(v, n, sizeof(*v), cmp_key_len);
	for (size_t i = 0, a = 0; i < n; i++) {
		x[i] = v[i].len;
		if (i + 1 == n || v[i + 1].key != v[i].key) {
			med[v[i].key] =
				dl_quantile_sorted(x + a, i + 1 - a, 0.5);
			a = i + 1;
		}
	}
	free(x);
	return med;
}

/* The row of predictions without job or name history of one phase (see
 * report()).  A per-job median at most x needs half the per-job weight
 * with errors at most x: "within" counts, per job weight, the predictions
 * with history the oracle gets within 1.25x its per-job median and those
 * without that the predictor does. */
static void unspecific_row(const struct scored *v, size_t n, int phase,
			   const double *oracle, const struct run_opts *o,
			   struct scored *sub, const char *name)
{
	struct figures all, none;
	size_t m = 0, k = 0;
	double weight = 0, hist_ok = 0, none_ok = 0, target;

	for (size_t i = 0; i < n; i++)
		if (v[i].phase == phase)
			sub[m++] = v[i];
	if (!m)
		return;
	figures_of(sub, m, oracle, o, false, false, &all);
	target = 1.25 * all.oracle_job;
	/* figures_of sorted sub by job */
	for (size_t a = 0, b; a < m; a = b) {
		size_t without = 0, h_ok = 0, n_ok = 0;

		for (b = a; b < m && sub[b].job == sub[a].job; b++) {
			const struct scored *x = &sub[b];

			if (!x->specific) {
				without++;
				n_ok += x->err <= target;
			} else {
				h_ok += dl_rel_error(oracle[x->key], x->len) <=
					target;
			}
		}
		weight += (double) without / (double) (b - a);
		hist_ok += (double) h_ok / (double) (b - a);
		none_ok += (double) n_ok / (double) (b - a);
	}
	weight /= (double) all.jobs;
	hist_ok /= (double) all.jobs;
	none_ok /= (double) all.jobs;
	for (size_t i = 0; i < m; i++)
		if (!sub[i].specific)
			sub[k++] = sub[i];
	figures_of(sub, k, oracle, o, false, false, &none);
	printf("| %s | %zu | %.1f %% | %.1f %% | %.3f | %.3f | %.3f | %.1f %% "
	       "| %.1f %% | %.1f %% |\n",
	       name, k, pct(k, m), 100 * weight, none.med_job, none.oracle_job,
	       target, 100 * hist_ok, 100 * none_ok, 100 * (hist_ok + none_ok));
}

static const char *const calib_use_names[DL_CALIB_USES] = {
	"configured", "t prior", "pooled ring", "own ring"};

static void report(struct trace *t, struct scored *v, size_t n, uint32_t nkeys,
		   size_t warm, size_t zero, const struct run_opts *o)
{
	double *oracle = oracle_medians(v, n, nkeys);
	static const char *const phases[2] = {"map", "reduce"};
	struct scored *sub = xrealloc(NULL, (n ? n : 1) * sizeof(*sub));

	printf("\n### %s (%s)\n\n", t->path, t->format);
	printf("%zu tasks of %zu jobs; %zu predictions in the warm-up "
	       "(replayed, not scored); %zu zero-length tasks not scored.\n\n",
	       t->ntasks, t->njobs, warm, zero);
	printf("Medians of the relative error of p50 per task and per job "
	       "(every job weighs the same), with %g %% bootstrap intervals "
	       "over jobs (%u resamples, seed %llu); the oracle knows each "
	       "(user, name, phase) key's median over the scored tasks; the "
	       "causal oracle knows it only for predictions that had the "
	       "job's own or the name's history (job or name history) and "
	       "answers like the predictor elsewhere.\n\n",
	       100 * o->level, o->reps, (unsigned long long) o->seed);
	printf("| phase | predictions | jobs | median per task | interval | "
	       "median per job | interval | oracle per task | oracle per job "
	       "| per job / oracle | causal oracle per job | per job / causal "
	       "| mean | p90 coverage | p90 coverage per job | job or name "
	       "history |\n"
	       "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	       "---|\n");
	for (int p = 0; p < 2; p++) {
		struct figures f;
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (v[i].phase == p)
				sub[m++] = v[i];
		if (!m)
			continue;
		figures_of(sub, m, oracle, o, true, true, &f);
		printf("| %s | %zu | %zu | %.3f |", phases[p], f.n, f.jobs,
		       f.med_task);
		print_ci(f.ci_task);
		printf(" %.3f |", f.med_job);
		print_ci(f.ci_job);
		printf(" %.3f | %.3f | %.2f | %.3f | %.2f | %.3f |",
		       f.oracle_task, f.oracle_job,
		       f.oracle_job > 0 ? f.med_job / f.oracle_job : NAN,
		       f.causal_job,
		       f.causal_job > 0 ? f.med_job / f.causal_job : NAN,
		       f.mean);
		print_cov(f.cov_task, f.ci_cov_task);
		print_cov(f.cov_job, f.ci_cov_job);
		printf(" %.1f %% |\n", pct(f.specific, f.n));
	}
	printf("\nPredictions without job or name history (no causal "
	       "predictor knows their key's median; the oracle does): their "
	       "number, share of the predictions and of the per-job weight "
	       "(each job weighs 1, shared among its predictions), the "
	       "per-job medians on them of the predictor and of the oracle; "
	       "then, for the target (1.25x the oracle's per-job median), the "
	       "per-job weight within it: by the oracle on the predictions "
	       "with history, by the predictor on those without.  A per-job "
	       "median within the target needs 50 %%.\n\n");
	printf("| phase | without history | share | share of per-job "
	       "weight | predictor per job on them | oracle per job on them "
	       "| target | within: oracle, with history | within: predictor, "
	       "without | sum |\n"
	       "|---|---|---|---|---|---|---|---|---|---|\n");
	for (int p = 0; p < 2; p++)
		unspecific_row(v, n, p, oracle, o, sub, phases[p]);
	printf("\nBy the predictor that answered:\n\n");
	printf("| phase / source | predictions | jobs | median per task | "
	       "median per job | mean | p90 coverage | p90 coverage per job "
	       "|\n|---|---|---|---|---|---|---|---|\n");
	for (int p = 0; p < 2; p++)
		for (int s = 0; s < DL_PRED_SOURCES; s++) {
			struct figures f;
			size_t m = 0;

			for (size_t i = 0; i < n; i++)
				if (v[i].phase == p && v[i].source == s)
					sub[m++] = v[i];
			if (!m)
				continue;
			figures_of(sub, m, NULL, o, false, true, &f);
			printf("| %s / %s | %zu | %zu | %.3f | %.3f | %.3f |",
			       phases[p], dl_pred_source_name(s), f.n, f.jobs,
			       f.med_task, f.med_job, f.mean);
			print_cov(f.cov_task, f.ci_cov_task);
			print_cov(f.cov_job, f.ci_cov_job);
			printf("\n");
		}
	printf("\nBy the predictor and where its p90 came from (\"own "
	       "ring\": the level's own errors weigh at least half, "
	       "\"pooled ring\": less, dl_calib_shrink; Student's t; the "
	       "configured default):\n\n");
	printf("| phase / source / p90 from | predictions | jobs | p90 "
	       "coverage | p90 coverage per job |\n|---|---|---|---|---|\n");
	for (int p = 0; p < 2; p++)
		for (int s = 0; s < DL_PRED_SOURCES; s++)
			for (int c = DL_CALIB_USES - 1; c >= 0; c--) {
				struct figures f;
				size_t m = 0;

				for (size_t i = 0; i < n; i++)
					if (v[i].phase == p &&
					    v[i].source == s &&
					    v[i].calib_use == c)
						sub[m++] = v[i];
				if (!m)
					continue;
				figures_of(sub, m, NULL, o, false, true, &f);
				printf("| %s / %s / %s | %zu | %zu |",
				       phases[p], dl_pred_source_name(s),
				       calib_use_names[c], f.n, f.jobs);
				print_cov(f.cov_task, f.ci_cov_task);
				print_cov(f.cov_job, f.ci_cov_job);
				printf("\n");
			}
	free(sub);
	free(oracle);
}

static int replay(struct trace *t, const struct dl_hist_cfg *cfg,
		  const struct run_opts *o)
{
	struct event *ev = xrealloc(NULL, 2 * t->ntasks * sizeof(*ev));
	struct scored *v =
		xrealloc(NULL, (t->ntasks ? t->ntasks : 1) * sizeof(*v));
	struct idmap keys = {0};
	uint32_t nkeys = 0;
	struct dl_hist *h;
	char err[256];
	size_t nev = 0, zero = 0, nv = 0, starts = 0, warm = 0, nwarm;
	unsigned specific = (1u << DL_PRED_JOB) | (1u << DL_PRED_NAME);

	h = dl_hist_new(cfg, err, sizeof(err));
	if (!h) {
		fprintf(stderr, "estimator_accuracy: %s\n", err);
		return -1;
	}
	/* the first share of the starts (in time order) warms the history */
	nwarm = (size_t) floor(o->warmup * (double) t->ntasks);
	for (size_t i = 0; i < t->ntasks; i++) {
		ev[nev++] = (struct event){t->tasks[i].end, 0, (uint32_t) i};
		ev[nev++] = (struct event){t->tasks[i].start, 1, (uint32_t) i};
	}
	qsort(ev, nev, sizeof(*ev), cmp_event);
	for (size_t i = 0; i < nev; i++) {
		struct task *tk = &t->tasks[ev[i].task];
		struct job *j = &t->jobs[tk->job];
		double len = tk->end - tk->start;

		if (ev[i].kind == 1) {
			struct dl_pred_query q = {
				.user = j->user,
				.name = j->name,
				.phase = tk->phase,
				.tasks = j->ntasks[tk->phase],
				.completed = j->done[tk->phase],
				.ncompleted = j->ndone[tk->phase],
				.input_bytes = tk->bytes,
			};
			struct dl_prediction p;

			if (starts++ < nwarm) {
				warm++;
				continue;
			}
			if (!(len > 0)) {
				zero++; /* relative error undefined */
				continue;
			}
			if (dl_hist_predict(h, &q, ev[i].t, &p)) {
				fprintf(stderr, "estimator_accuracy: predict "
						"failed\n");
				continue;
			}
			if (o->dump)
				fprintf(o->dump,
					"%s\t%llu\t%s\t%s\t%s\t%.3f\t%zu\t%u"
					"\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s\t%"
					"d\n",
					t->path, (unsigned long long) j->id,
					j->user, j->name,
					tk->phase ? "reduce" : "map", ev[i].t,
					j->ndone[tk->phase],
					j->ntasks[tk->phase], len, p.p50, p.p90,
					dl_rel_error(p.p50, len),
					dl_pred_source_name(p.source),
					calib_use_names[p.calib_use],
					(p.available & specific) != 0);
			v[nv++] = (struct scored){
				.job = tk->job,
				.phase = (uint8_t) tk->phase,
				.source = (uint8_t) p.source,
				.calib_use = (uint8_t) p.calib_use,
				.covered = len <= p.p90,
				.specific = (p.available & specific) != 0,
				.key = key_of(&keys, j, tk->phase, &nkeys),
				.len = len,
				.err = dl_rel_error(p.p50, len),
			};
		} else {
			struct dl_task_rec r = {
				.job_id = j->id,
				.user = j->user,
				.name = j->name,
				.phase = tk->phase,
				.start = tk->start,
				.end = tk->end,
				.input_bytes = tk->bytes,
				.cpu = NAN,
				.mem = NAN,
				.io = NAN,
				.task = -1,
			};
			int p = tk->phase;

			if (dl_hist_observe(h, &r, ev[i].t))
				fprintf(stderr, "estimator_accuracy: observe "
						"failed\n");
			if (j->ndone[p] == j->capdone[p]) {
				j->capdone[p] =
					j->capdone[p] ? j->capdone[p] * 2 : 16;
				j->done[p] = xrealloc(j->done[p],
						      j->capdone[p] *
							      sizeof(double));
			}
			j->done[p][j->ndone[p]++] = len;
		}
	}
	report(t, v, nv, nkeys, warm, zero, o);
	idmap_free(&keys);
	free(v);
	free(ev);
	dl_hist_free(h);
	return 0;
}

static void trace_free(struct trace *t)
{
	for (size_t i = 0; i < t->njobs; i++) {
		free(t->jobs[i].user);
		free(t->jobs[i].name);
		free(t->jobs[i].done[0]);
		free(t->jobs[i].done[1]);
	}
	free(t->jobs);
	free(t->tasks);
}

/* Detect the format from the first bytes. */
static const char *detect(const char *path)
{
	struct stat st;
	size_t len;
	char *data, *p;
	const char *fmt = NULL;
	int commas = 0;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return "google";
	data = read_all(path, &len);
	if (!data)
		return NULL;
	for (p = data; *p && strchr(" \t\r\n", *p); p++)
		;
	if (*p == '{')
		fmt = "rumen";
	else if (!strncmp(p, "task_create_time", 16))
		fmt = "alibaba";
	else {
		for (; *p && *p != '\n'; p++)
			commas += *p == ',';
		if (commas == 12)
			fmt = "google";
		else if (commas == 7)
			fmt = "alibaba";
	}
	free(data);
	return fmt;
}

static int load(struct trace *t, const char *path, const char *fmt)
{
	t->path = path;
	t->format = fmt;
	if (!strcmp(fmt, "rumen"))
		return load_rumen(t, path);
	if (!strcmp(fmt, "alibaba"))
		return load_alibaba(t, path);
	if (!strcmp(fmt, "google")) {
		struct stat st;
		int rc;

		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			char jd[4096], td[4096];
			size_t nj, nt;
			char **jf, **tf;

			snprintf(jd, sizeof(jd), "%s/job_events", path);
			snprintf(td, sizeof(td), "%s/task_events", path);
			jf = list_dir(jd, &nj);
			tf = list_dir(td, &nt);
			if (!nt) {
				fprintf(stderr,
					"estimator_accuracy: %s: no "
					"task_events/*.csv[.gz]\n",
					path);
				return -1;
			}
			rc = load_google(t, jf, nj, tf, nt);
			for (size_t i = 0; i < nj; i++)
				free(jf[i]);
			for (size_t i = 0; i < nt; i++)
				free(tf[i]);
			free(jf);
			free(tf);
			return rc;
		}
		{
			char *one = (char *) path;

			return load_google(t, NULL, 0, &one, 1);
		}
	}
	fprintf(stderr, "estimator_accuracy: unknown format %s\n", fmt);
	return -1;
}

#define USAGE                                                                  \
	"usage: estimator_accuracy [--config FILE] "                           \
	"[--format rumen|google|alibaba]\n"                                    \
	"          [--warmup SHARE] [--reps N] [--seed N] [--dump FILE] "      \
	"TRACE...\n"

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"format", required_argument, NULL, 'F'},
		{"warmup", required_argument, NULL, 'w'},
		{"reps", required_argument, NULL, 'r'},
		{"seed", required_argument, NULL, 's'},
		{"dump", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *config = NULL, *format = NULL;
	struct run_opts ro = {
		.warmup = 0.1, .reps = 1000, .seed = 1, .level = 0.95};
	struct est_config cfg;
	char *end;
	char err[512];
	int opt, rc = 0;

	while ((opt = getopt_long(argc, argv, "c:F:w:r:s:d:h", lopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'c':
			config = optarg;
			break;
		case 'F':
			format = optarg;
			break;
		case 'w':
			ro.warmup = strtod(optarg, &end);
			if (*end || !(ro.warmup >= 0 && ro.warmup < 1)) {
				fprintf(stderr, "estimator_accuracy: --warmup "
						"must be in [0, 1)\n");
				return 2;
			}
			break;
		case 'r':
			ro.reps = (unsigned) strtoul(optarg, &end, 10);
			if (*end || ro.reps < 1 || ro.reps > 100000) {
				fprintf(stderr, "estimator_accuracy: --reps "
						"must be 1..100000\n");
				return 2;
			}
			break;
		case 's':
			ro.seed = strtoull(optarg, &end, 10);
			if (*end || optarg[0] == '-') {
				fprintf(stderr, "estimator_accuracy: --seed "
						"must be a number\n");
				return 2;
			}
			break;
		case 'd':
			if (ro.dump)
				fclose(ro.dump);
			ro.dump = fopen(optarg, "w");
			if (!ro.dump) {
				fprintf(stderr, "estimator_accuracy: %s: %s\n",
					optarg, strerror(errno));
				return 1;
			}
			fprintf(ro.dump,
				"trace\tjob\tuser\tname\tphase\tstart\t"
				"completed\ttasks\tactual\tp50\tp90\t"
				"rel_error\tsource\tp90_from\thistory\n");
			break;
		case 'h':
			printf(USAGE);
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, USAGE);
		return 2;
	}
	est_config_defaults(&cfg);
	if (config && est_config_load(&cfg, config, true, err, sizeof(err))) {
		fprintf(stderr, "estimator_accuracy: %s\n", err);
		return 1;
	}
	if (dl_hist_cfg_check(&cfg.hist, err, sizeof(err))) {
		fprintf(stderr, "estimator_accuracy: %s\n", err);
		return 1;
	}
	printf("Predictor settings: MinSamples=%u JobWindow=%u "
	       "HistoryPerKey=%u "
	       "PriorSpread=%g PriorWeight=%g DefaultMap=%g DefaultReduce=%g "
	       "CalibrationWindow=%u CalibrationMin=%u\n",
	       cfg.hist.pred.min_samples, cfg.hist.pred.job_window,
	       cfg.hist.window, cfg.hist.pred.prior_sd,
	       cfg.hist.pred.prior_weight, cfg.hist.pred.default_len[0],
	       cfg.hist.pred.default_len[1], cfg.hist.pred.calib_window,
	       cfg.hist.pred.calib_min);
	for (int i = optind; i < argc; i++) {
		struct trace t = {0};
		const char *fmt = format ? format : detect(argv[i]);

		if (!fmt) {
			fprintf(stderr,
				"estimator_accuracy: %s: unknown "
				"format (use --format)\n",
				argv[i]);
			rc = 1;
			continue;
		}
		if (load(&t, argv[i], fmt) || replay(&t, &cfg.hist, &ro))
			rc = 1;
		trace_free(&t);
	}
	est_config_free(&cfg);
	if (ro.dump && fclose(ro.dump)) {
		fprintf(stderr, "estimator_accuracy: --dump: %s\n",
			strerror(errno));
		rc = 1;
	}
	return rc;
}
