/*
 * gen_util.c - the generator registry and helpers shared by generators.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/io/atomic_file.h"

#include "common/model/model.h"
#include "sim/gen.h"
#include "sim/gen_kinds.h"

static const struct gen_kind kinds[] = {
	{"polo-ch3-a", "(no options)", gen_polo_a},
	{"polo-ch3-b", "(no options)", gen_polo_b},
	{"binned", "--bins FILE", gen_binned},
	{"reverse", GEN_REVERSE_USAGE, gen_reverse},
	{"swim", GEN_SWIM_USAGE, gen_swim},
	{"google2011", GEN_GOOGLE_USAGE, gen_google2011},
	{"alibaba2017", GEN_ALIBABA_USAGE, gen_alibaba2017},
	{"rumen", GEN_RUMEN_USAGE, gen_rumen},
	{"swf", GEN_SWF_USAGE, gen_swf},
	{"phased", GEN_PHASED_USAGE, gen_phased},
};

size_t gen_count(void)
{
	return sizeof(kinds) / sizeof(*kinds);
}

const struct gen_kind *gen_at(size_t i)
{
	return i < gen_count() ? &kinds[i] : NULL;
}

const struct gen_kind *gen_find(const char *name)
{
	for (size_t i = 0; name && i < gen_count(); i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

static int set_partition(struct sim_cluster_spec *c, char *err, size_t errlen)
{
	c->partitions[0] = strdup("batch");
	if (!c->partitions[0]) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	c->npartitions = 1;
	return 0;
}

int gen_cluster_uniform(struct sim_cluster_spec *c, uint32_t nodes,
			uint32_t cpus, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->mode = SIM_SLOTS_CPU;
	c->order = SIM_ORDER_FIRST_FIT;
	if (set_partition(c, err, errlen))
		return ENOMEM;
	c->nodes = calloc(nodes ? nodes : 1, sizeof(*c->nodes));
	if (!c->nodes) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	for (uint32_t n = 0; n < nodes; n++) {
		char name[32];

		snprintf(name, sizeof(name), "n%u", n + 1);
		c->nodes[n].name = strdup(name);
		if (!c->nodes[n].name) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		c->nodes[n].cpus = cpus;
		c->nodes[n].speed = 1;
		c->nodes[n].pool = DL_POOL_REGULAR;
		c->nodes[n].partitions = 1;
		c->nnodes++;
	}
	return 0;
}

int gen_cluster_typed(struct sim_cluster_spec *c, const uint32_t *count,
		      const uint32_t *map_slots, const uint32_t *reduce_slots,
		      const double *speed, uint32_t groups, char *err,
		      size_t errlen)
{
	uint32_t total = 0, k = 0;

	memset(c, 0, sizeof(*c));
	c->mode = SIM_SLOTS_TYPED;
	/* Hadoop hands a free slot to whichever TaskTracker reports next:
	 * spread over the nodes rather than filling the first ones */
	c->order = SIM_ORDER_ROUND_ROBIN;
	if (set_partition(c, err, errlen))
		return ENOMEM;
	for (uint32_t g = 0; g < groups; g++)
		total += count[g];
	c->nodes = calloc(total ? total : 1, sizeof(*c->nodes));
	if (!c->nodes) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	for (uint32_t g = 0; g < groups; g++)
		for (uint32_t i = 0; i < count[g]; i++, k++) {
			char name[32];

			snprintf(name, sizeof(name), "%s%u",
				 groups > 1 ? (g ? "b" : "a") : "n", i + 1);
			c->nodes[k].name = strdup(name);
			if (!c->nodes[k].name) {
				snprintf(err, errlen, "out of memory");
				return ENOMEM;
			}
			c->nodes[k].cpus = map_slots[g] + reduce_slots[g];
			c->nodes[k].map_slots = map_slots[g];
			c->nodes[k].reduce_slots = reduce_slots[g];
			c->nodes[k].speed = speed ? speed[g] : 1;
			c->nodes[k].pool = DL_POOL_REGULAR;
			c->nodes[k].partitions = 1;
			c->nnodes++;
		}
	return 0;
}

struct sim_job_spec *gen_add_job(struct sim_workload_spec *w, uint32_t *cap,
				 const char *name)
{
	struct sim_job_spec *j;

	if (w->njobs == *cap) {
		uint32_t n = *cap ? *cap * 2 : 64;
		void *p = realloc(w->jobs, n * sizeof(*w->jobs));

		if (!p)
			return NULL;
		w->jobs = p;
		*cap = n;
	}
	j = &w->jobs[w->njobs];
	memset(j, 0, sizeof(*j));
	j->name = strdup(name);
	j->user = strdup("user");
	j->account = strdup("");
	if (!j->name || !j->user || !j->account) {
		free(j->name);
		free(j->user);
		free(j->account);
		return NULL;
	}
	j->remote_factor = 1;
	for (int p = 0; p < 2; p++) {
		j->phase[p].cpus = 1;
		sim_dist_const(&j->phase[p].len, 1);
	}
	w->njobs++;
	return j;
}

int gen_parse(const struct gen_args *a, struct gen_opt *opts, size_t n,
	      char *err, size_t errlen)
{
	for (int i = 1; i < a->argc; i++) {
		bool known = false;

		for (size_t k = 0; k < n && !known; k++) {
			if (strcmp(a->argv[i], opts[k].name))
				continue;
			known = true;
			if (i + 1 >= a->argc) {
				snprintf(err, errlen, "%s needs a value",
					 opts[k].name);
				return GEN_USAGE_ERROR;
			}
			opts[k].value = a->argv[++i];
		}
		if (!known) {
			snprintf(err, errlen, "unknown option '%s'",
				 a->argv[i]);
			return GEN_USAGE_ERROR;
		}
	}
	return 0;
}

int gen_num(const struct gen_opt *o, double lo, double hi, double def,
	    double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	if (!o->value) {
		*out = def;
		return 0;
	}
	errno = 0;
	v = strtod(o->value, &end);
	if (errno || end == o->value || *end || !(v >= lo) || !(v <= hi)) {
		snprintf(err, errlen,
			 "%s: expected a number in [%g, %g], got '%s'", o->name,
			 lo, hi, o->value);
		return GEN_USAGE_ERROR;
	}
	*out = v;
	return 0;
}

int gen_factors(const struct gen_opt *k, const struct gen_opt *kmin,
		const struct gen_opt *kmax, double def, double *lo, double *hi,
		char *err, size_t errlen)
{
	double v;

	if (k->value && (kmin->value || kmax->value)) {
		snprintf(err, errlen, "give --k or --k-min/--k-max, not both");
		return GEN_USAGE_ERROR;
	}
	if (gen_num(k, 1, 1e4, def, &v, err, errlen) ||
	    gen_num(kmin, 1, 1e4, v, lo, err, errlen) ||
	    gen_num(kmax, 1, 1e4, *lo > v ? *lo : v, hi, err, errlen))
		return GEN_USAGE_ERROR;
	if (*hi < *lo) {
		snprintf(err, errlen, "--k-max is below --k-min");
		return GEN_USAGE_ERROR;
	}
	return 0;
}

#define MAX_INPUT (512u * 1024u * 1024u)

extern char **environ;

/* gzip -dc PATH into memory, without a shell */
static int gunzip(const char *path, char **text, size_t *len, char *err,
		  size_t errlen)
{
	char *argv[] = {"gzip", "-dc", "--", (char *) path, NULL};
	posix_spawn_file_actions_t fa;
	int fd[2], rc, status;
	pid_t pid;
	size_t cap = 1 << 20, n = 0;
	char *buf;

	if (pipe(fd)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return errno;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	rc = posix_spawnp(&pid, "gzip", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc) {
		close(fd[0]);
		snprintf(err, errlen, "cannot run gzip: %s", strerror(rc));
		return rc;
	}
	buf = malloc(cap + 1);
	rc = buf ? 0 : ENOMEM;
	while (!rc) {
		ssize_t got;

		if (n == cap) {
			char *p;

			if (cap >= MAX_INPUT) {
				rc = EFBIG;
				break;
			}
			cap *= 2;
			p = realloc(buf, cap + 1);
			if (!p) {
				rc = ENOMEM;
				break;
			}
			buf = p;
		}
		got = read(fd[0], buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			rc = errno;
		else if (!got)
			break;
		else
			n += (size_t) got;
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!rc && (!WIFEXITED(status) || WEXITSTATUS(status)))
		rc = EIO;
	if (rc) {
		free(buf);
		snprintf(err, errlen, "cannot decompress %s: %s", path,
			 rc == EIO ? "gzip failed" : strerror(rc));
		return rc;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int gen_read_input(const char *path, char **text, size_t *len, char *err,
		   size_t errlen)
{
	size_t l = strlen(path);
	int rc;

	if (l > 3 && !strcmp(path + l - 3, ".gz"))
		return gunzip(path, text, len, err, errlen);
	rc = dl_read_file(path, MAX_INPUT, text, len);
	if (rc)
		snprintf(err, errlen, "cannot read %s: %s", path,
			 rc == EFBIG ? "larger than 512 MiB" : strerror(rc));
	return rc;
}
