/*
 * estimator_accuracy.c - replays per-task traces through the estimator's
 * history and predictors in time order: each task is predicted when it
 * starts (from what has finished by then, plus its job's own completed
 * tasks), and observed when it ends.  Reports, per trace and phase, the
 * median and mean relative error of p50 and how often the actual length was
 * at most p90 (coverage of the p90 interval).
 *
 *   estimator_accuracy [--config FILE] [--format F] TRACE...
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

struct acc {
	double *err;
	size_t n, cap;
	size_t covered;
};

static void acc_add(struct acc *a, double err, bool covered)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 1024;
		a->err = xrealloc(a->err, a->cap * sizeof(double));
	}
	a->err[a->n++] = err;
	a->covered += covered;
}

static void acc_row(const char *label, struct acc *a)
{
	double sum = 0, med;

	if (!a->n)
		return;
	for (size_t i = 0; i < a->n; i++)
		sum += a->err[i];
	dl_sort_doubles(a->err, a->n);
	med = dl_quantile_sorted(a->err, a->n, 0.5);
	printf("| %s | %zu | %.3f | %.3f | %.1f %% |\n", label, a->n, med,
	       sum / (double) a->n,
	       100.0 * (double) a->covered / (double) a->n);
}

static int replay(struct trace *t, const struct dl_hist_cfg *cfg)
{
	struct event *ev = xrealloc(NULL, 2 * t->ntasks * sizeof(*ev));
	struct acc all[2] = {{0}}, by_src[2][DL_PRED_SOURCES] = {{{0}}};
	struct dl_hist *h;
	char err[256];
	size_t nev = 0, zero = 0;

	h = dl_hist_new(cfg, err, sizeof(err));
	if (!h) {
		fprintf(stderr, "estimator_accuracy: %s\n", err);
		return -1;
	}
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
				.completed = j->done[tk->phase],
				.ncompleted = j->ndone[tk->phase],
				.input_bytes = tk->bytes,
			};
			struct dl_prediction p;

			if (!(len > 0)) {
				zero++; /* relative error undefined */
				continue;
			}
			if (dl_hist_predict(h, &q, ev[i].t, &p)) {
				fprintf(stderr, "estimator_accuracy: predict "
						"failed\n");
				continue;
			}
			acc_add(&all[tk->phase], dl_rel_error(p.p50, len),
				len <= p.p90);
			acc_add(&by_src[tk->phase][p.source],
				dl_rel_error(p.p50, len), len <= p.p90);
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
	printf("\n### %s (%s)\n\n", t->path, t->format);
	printf("%zu tasks of %zu jobs; %zu zero-length tasks not scored.\n\n",
	       t->ntasks, t->njobs, zero);
	printf("| phase | predictions | median rel. error | mean rel. error | "
	       "p90 coverage |\n|---|---|---|---|---|\n");
	acc_row("map", &all[0]);
	acc_row("reduce", &all[1]);
	printf("\nBy the predictor that answered:\n\n");
	printf("| phase / source | predictions | median rel. error | mean rel. "
	       "error | p90 coverage |\n|---|---|---|---|---|\n");
	for (int p = 0; p < 2; p++)
		for (int s = 0; s < DL_PRED_SOURCES; s++) {
			char label[48];

			snprintf(label, sizeof(label), "%s / %s",
				 p ? "reduce" : "map", dl_pred_source_name(s));
			acc_row(label, &by_src[p][s]);
			free(by_src[p][s].err);
		}
	free(all[0].err);
	free(all[1].err);
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

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"format", required_argument, NULL, 'F'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *config = NULL, *format = NULL;
	struct est_config cfg;
	char err[512];
	int opt, rc = 0;

	while ((opt = getopt_long(argc, argv, "c:F:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			config = optarg;
			break;
		case 'F':
			format = optarg;
			break;
		case 'h':
			printf("usage: estimator_accuracy [--config FILE] "
			       "[--format rumen|google|alibaba] TRACE...\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: estimator_accuracy [--config FILE] "
				"[--format rumen|google|alibaba] TRACE...\n");
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
		if (load(&t, argv[i], fmt) || replay(&t, &cfg.hist))
			rc = 1;
		trace_free(&t);
	}
	est_config_free(&cfg);
	return rc;
}
