/*
 * spec.c - parsing and writing the cluster and workload documents.
 */
#include "sim/spec.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/atomic_file.h"
#include "common/model/model.h"
#include "common/io/json.h"

#define MAX_FILE (1024u * 1024u * 1024u)
#define MAX_TIME 1e10 /* about 317 years of simulated seconds */

/* ---------------------------------------------------------------- series */

static int check_values(struct sim_series *s, const char *origin, double scale,
			char *err, size_t errlen)
{
	for (uint32_t i = 0; i < s->n; i++) {
		double v = s->values[i] * scale;

		if (!isfinite(v) || v < 0 || v > 1) {
			snprintf(err, errlen,
				 "%s: value %u (%g after scale %g) is outside "
				 "[0, 1] (the share of nodes held by the "
				 "external load)",
				 origin, i, v, scale);
			return EINVAL;
		}
		s->values[i] = v;
	}
	return 0;
}

int sim_series_parse_text(const char *text, size_t len, const char *origin,
			  double step, struct sim_series *s, char *err,
			  size_t errlen)
{
	size_t cap = 0, line = 1, i = 0;

	memset(s, 0, sizeof(*s));
	s->step = step > 0 ? step : 60;
	while (i < len) {
		char buf[64];
		size_t k = 0;
		char *end;
		double v;

		while (i < len && text[i] != '\n' && k < sizeof(buf) - 1)
			buf[k++] = text[i++];
		if (i < len && text[i] != '\n') {
			snprintf(err, errlen, "%s: line %zu is too long",
				 origin, line);
			sim_series_free(s);
			return EINVAL;
		}
		i++;
		buf[k] = '\0';
		{
			char *p = buf;

			while (*p == ' ' || *p == '\t' || *p == '\r')
				p++;
			if (!*p || *p == '#') {
				line++;
				continue;
			}
			errno = 0;
			v = strtod(p, &end);
			while (*end == ' ' || *end == '\t' || *end == '\r')
				end++;
			if (errno || end == p || *end || !isfinite(v)) {
				snprintf(err, errlen,
					 "%s: line %zu: expected one number",
					 origin, line);
				sim_series_free(s);
				return EINVAL;
			}
		}
		if (s->n == SIM_MAX_SERIES) {
			snprintf(err, errlen, "%s: more than %u values", origin,
				 SIM_MAX_SERIES);
			sim_series_free(s);
			return EINVAL;
		}
		if (s->n == cap) {
			size_t nc = cap ? cap * 2 : 1024;
			void *p = realloc(s->values, nc * sizeof(*s->values));

			if (!p) {
				snprintf(err, errlen, "out of memory");
				sim_series_free(s);
				return ENOMEM;
			}
			s->values = p;
			cap = nc;
		}
		s->values[s->n++] = v;
		line++;
	}
	if (!s->n) {
		snprintf(err, errlen, "%s: no values", origin);
		return EINVAL;
	}
	return 0;
}

int sim_series_parse_json(json_object *o, const char *path,
			  const char *base_dir, struct sim_series *s, char *err,
			  size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	static const char *keys[] = {"start",  "step",  "values", "file",
				     "repeat", "scale", NULL};
	json_object *v;
	const char *file;
	double step, scale;
	int rc;

	memset(s, 0, sizeof(*s));
	dl_json_known_keys(&rd, o, path, keys);
	step = dl_json_num(&rd, o, path, "step", 0, 1e-3, MAX_TIME, 60);
	scale = dl_json_num(&rd, o, path, "scale", 0, 0, 1e9, 1);
	file = dl_json_str(&rd, o, path, "file", 0, 0, SIZE_MAX, NULL);
	if (rd.failed)
		return EINVAL;
	if (json_object_object_get_ex(o, "values", &v) == !!file) {
		snprintf(err, errlen, "%s: give exactly one of values and file",
			 path);
		return EINVAL;
	}
	if (file) {
		char full[4096];
		char *text = NULL;
		size_t len = 0;

		if (!base_dir) {
			snprintf(err, errlen,
				 "%s.file: files are read only from a cluster "
				 "file on disk",
				 path);
			return EINVAL;
		}
		if (file[0] == '/')
			snprintf(full, sizeof(full), "%s", file);
		else
			snprintf(full, sizeof(full), "%s/%s", base_dir, file);
		rc = dl_read_file(full, MAX_FILE, &text, &len);
		if (rc) {
			snprintf(err, errlen, "%s.file: cannot read %s: %s",
				 path, full, strerror(rc));
			return rc;
		}
		rc = sim_series_parse_text(text, len, full, step, s, err,
					   errlen);
		free(text);
		if (rc)
			return rc;
	} else {
		size_t n;

		if (!json_object_is_type(v, json_type_array) ||
		    !(n = json_object_array_length(v)) || n > SIM_MAX_SERIES) {
			snprintf(err, errlen,
				 "%s.values: expected 1 to %u numbers", path,
				 SIM_MAX_SERIES);
			return EINVAL;
		}
		s->values = malloc(n * sizeof(*s->values));
		if (!s->values) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			json_object *x = json_object_array_get_idx(v, i);

			s->values[i] = dl_json_is_number(x)
					       ? json_object_get_double(x)
					       : NAN;
		}
		s->n = (uint32_t) n;
	}
	s->step = step;
	s->start =
		dl_json_num(&rd, o, path, "start", 0, -MAX_TIME, MAX_TIME, 0);
	s->repeat = dl_json_bool(&rd, o, path, "repeat", 0, false);
	if (rd.failed || check_values(s, path, scale, err, errlen)) {
		sim_series_free(s);
		return EINVAL;
	}
	return 0;
}

static json_object *series_to_json(const struct sim_series *s)
{
	json_object *o = json_object_new_object(), *a;

	if (!o)
		return NULL;
	json_object_object_add(o, "start", json_object_new_double(s->start));
	json_object_object_add(o, "step", json_object_new_double(s->step));
	json_object_object_add(o, "repeat", json_object_new_boolean(s->repeat));
	a = json_object_new_array();
	for (uint32_t i = 0; a && i < s->n; i++)
		json_object_array_add(a, json_object_new_double(s->values[i]));
	json_object_object_add(o, "values", a);
	return o;
}

/* --------------------------------------------------------------- cluster */

static int find_partition(const struct sim_cluster_spec *c, const char *name)
{
	for (uint32_t i = 0; i < c->npartitions; i++)
		if (!strcmp(c->partitions[i], name))
			return (int) i;
	return -1;
}

static int add_partition(struct sim_cluster_spec *c, const char *name,
			 const char *path, char *err, size_t errlen)
{
	int k = find_partition(c, name);

	if (k >= 0)
		return k;
	if (!name[0] || strlen(name) > 64) {
		snprintf(err, errlen,
			 "%s: partition names have 1 to 64 characters", path);
		return -1;
	}
	if (c->npartitions == SIM_MAX_PARTITIONS) {
		snprintf(err, errlen, "%s: more than %d partitions", path,
			 SIM_MAX_PARTITIONS);
		return -1;
	}
	c->partitions[c->npartitions] = strdup(name);
	if (!c->partitions[c->npartitions]) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return (int) c->npartitions++;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static int parse_node_group(struct sim_cluster_spec *c, json_object *g,
			    const char *path, char *err, size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	static const char *keys[] = {"name",         "count", "cpus",
				     "mem",          "io",    "map_slots",
				     "reduce_slots", "speed", "pool",
				     "partitions",   NULL};
	uint64_t count, cpus, mem, ms, rs;
	double io, speed;
	const char *name, *pool;
	uint64_t parts = 0;
	json_object *pa;
	bool typed = c->mode == SIM_SLOTS_TYPED;

	dl_json_known_keys(&rd, g, path, keys);
	name = dl_json_str(&rd, g, path, "name", 0, 0, SIZE_MAX, "n");
	count = dl_json_uint(&rd, g, path, "count", 0, 1, SIM_MAX_NODES, 1);
	cpus = dl_json_uint(&rd, g, path, "cpus", !typed ? DL_JSON_REQUIRED : 0,
			    typed ? 0 : 1, 1u << 20, typed ? 1 : 0);
	mem = dl_json_uint(&rd, g, path, "mem", 0, 0, UINT64_C(1) << 40, 0);
	io = dl_json_num(&rd, g, path, "io", 0, 0, 1e12, 0);
	ms = dl_json_uint(&rd, g, path, "map_slots",
			  typed ? DL_JSON_REQUIRED : 0, 0, 1u << 20, 0);
	rs = dl_json_uint(&rd, g, path, "reduce_slots",
			  typed ? DL_JSON_REQUIRED : 0, 0, 1u << 20, 0);
	speed = dl_json_num(&rd, g, path, "speed", 0, 1e-3, 1e3, 1);
	pool = dl_json_str(&rd, g, path, "pool", 0, 0, SIZE_MAX, "regular");
	if (rd.failed)
		return EINVAL;
	if (!typed && (ms || rs)) {
		snprintf(err, errlen,
			 "%s: map_slots/reduce_slots need \"slots\": \"typed\"",
			 path);
		return EINVAL;
	}
	if (typed && !ms && !rs) {
		snprintf(err, errlen, "%s: a node needs map or reduce slots",
			 path);
		return EINVAL;
	}
	if (strcmp(pool, "regular") && strcmp(pool, "accel")) {
		snprintf(err, errlen, "%s.pool: expected regular or accel",
			 path);
		return EINVAL;
	}
	if (!name[0] || strlen(name) > 200 ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._-") != strlen(name)) {
		snprintf(err, errlen,
			 "%s.name: 1 to 200 letters, digits, '.', '_' or '-' "
			 "(a Slurm node name)",
			 path);
		return EINVAL;
	}
	if (json_object_object_get_ex(g, "partitions", &pa)) {
		size_t n;

		if (!json_object_is_type(pa, json_type_array) ||
		    !(n = json_object_array_length(pa))) {
			snprintf(err, errlen,
				 "%s.partitions: expected a non-empty array of "
				 "names",
				 path);
			return EINVAL;
		}
		for (size_t i = 0; i < n; i++) {
			json_object *x = json_object_array_get_idx(pa, i);
			int k;

			if (!json_object_is_type(x, json_type_string)) {
				snprintf(err, errlen,
					 "%s.partitions[%zu]: expected a name",
					 path, i);
				return EINVAL;
			}
			k = add_partition(c, json_object_get_string(x), path,
					  err, errlen);
			if (k < 0)
				return EINVAL;
			parts |= UINT64_C(1) << k;
		}
	} else {
		int k = add_partition(
			c, c->npartitions ? c->partitions[0] : "batch", path,
			err, errlen);

		if (k < 0)
			return EINVAL;
		parts |= UINT64_C(1) << k;
	}
	if (c->nnodes + count > SIM_MAX_NODES) {
		snprintf(err, errlen, "%s: more than %u nodes in the cluster",
			 path, SIM_MAX_NODES);
		return EINVAL;
	}
	{
		void *p = realloc(c->nodes,
				  (c->nnodes + count) * sizeof(*c->nodes));

		if (!p) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		c->nodes = p;
	}
	for (uint64_t i = 0; i < count; i++) {
		struct sim_node_spec *n = &c->nodes[c->nnodes];
		char buf[256];

		memset(n, 0, sizeof(*n));
		if (count == 1)
			snprintf(buf, sizeof(buf), "%s", name);
		else
			snprintf(buf, sizeof(buf), "%s%llu", name,
				 (unsigned long long) i + 1);
		n->name = strdup(buf);
		if (!n->name) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		n->cpus = (uint32_t) cpus;
		n->mem = mem;
		n->io = io;
		n->map_slots = (uint32_t) ms;
		n->reduce_slots = (uint32_t) rs;
		n->speed = speed;
		n->pool =
			strcmp(pool, "accel") ? DL_POOL_REGULAR : DL_POOL_ACCEL;
		n->partitions = parts;
		c->nnodes++;
	}
	return 0;
}

/* "task_overhead" as a distribution (doc/simulator.md): each task draws its
 * own.  A constant one is the plain number, so it runs exactly as before. */
static int overhead_dist_parse(json_object *o, struct sim_cluster_spec *c,
			       char *err, size_t errlen)
{
	struct sim_dist d;
	double top;
	int rc;

	if ((rc = sim_dist_parse(o, "cluster.task_overhead", &d, err, errlen)))
		return rc;
	c->task_overhead = sim_dist_mean(&d);
	/* the largest draw: the clamp, or the largest value given */
	top = d.max;
	if (d.kind == SIM_DIST_CONST || d.kind == SIM_DIST_EMPIRICAL) {
		double v = d.a;

		for (uint32_t i = 0; i < d.nvalues; i++)
			if (d.values[i] > v || !i)
				v = d.values[i];
		if (d.straggler_prob > 0)
			v *= d.straggler_factor;
		if (v < top)
			top = v;
	}
	if (!(top <= 3600)) {
		snprintf(err, errlen,
			 "cluster.task_overhead: an overhead must stay within "
			 "[0, 3600] seconds (set \"max\")");
		sim_dist_free(&d);
		return EINVAL;
	}
	if (d.kind == SIM_DIST_CONST && !(d.straggler_prob > 0)) {
		sim_dist_free(&d);
		return 0;
	}
	c->task_overhead_dist = malloc(sizeof(*c->task_overhead_dist));
	if (!c->task_overhead_dist) {
		sim_dist_free(&d);
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	*c->task_overhead_dist = d;
	return 0;
}

int sim_cluster_parse(const char *text, size_t len, const char *origin,
		      const char *base_dir, struct sim_cluster_spec *c,
		      char *err, size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	static const char *keys[] = {"slots",
				     "node_order",
				     "dispatch_latency",
				     "task_overhead",
				     "batch_sched_delay",
				     "partitions",
				     "nodes",
				     "external_load",
				     "description",
				     NULL};
	json_object *root, *v;
	const char *mode, *order;
	char path[64];
	int rc = EINVAL;

	memset(c, 0, sizeof(*c));
	root = dl_json_parse(text, len, SIZE_MAX, origin, err, errlen);
	if (!root)
		return EINVAL;
	dl_json_known_keys(&rd, root, "cluster", keys);
	mode = dl_json_str(&rd, root, "cluster", "slots", 0, 0, SIZE_MAX,
			   "cpu");
	order = dl_json_str(&rd, root, "cluster", "node_order", 0, 0, SIZE_MAX,
			    "first-fit");
	c->dispatch_latency = dl_json_num(&rd, root, "cluster",
					  "dispatch_latency", 0, 0, 3600, 0);
	if (json_object_object_get_ex(root, "task_overhead", &v) &&
	    json_object_is_type(v, json_type_object)) {
		if ((rc = overhead_dist_parse(v, c, err, errlen)))
			goto out;
		rc = EINVAL;
	} else {
		c->task_overhead = dl_json_num(&rd, root, "cluster",
					       "task_overhead", 0, 0, 3600, 0);
	}
	c->batch_sched_delay = dl_json_num(&rd, root, "cluster",
					   "batch_sched_delay", 0, 0, 3600, 0);
	if (rd.failed)
		goto out;
	if (!strcmp(mode, "cpu")) {
		c->mode = SIM_SLOTS_CPU;
	} else if (!strcmp(mode, "typed")) {
		c->mode = SIM_SLOTS_TYPED;
	} else {
		snprintf(err, errlen, "cluster.slots: expected cpu or typed");
		goto out;
	}
	if (!strcmp(order, "first-fit")) {
		c->order = SIM_ORDER_FIRST_FIT;
	} else if (!strcmp(order, "round-robin")) {
		c->order = SIM_ORDER_ROUND_ROBIN;
	} else {
		snprintf(err, errlen,
			 "cluster.node_order: expected first-fit or "
			 "round-robin");
		goto out;
	}
	if (json_object_object_get_ex(root, "partitions", &v)) {
		size_t n;

		if (!json_object_is_type(v, json_type_array) ||
		    !(n = json_object_array_length(v))) {
			snprintf(err, errlen,
				 "cluster.partitions: expected a non-empty "
				 "array of names");
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			json_object *x = json_object_array_get_idx(v, i);

			if (!json_object_is_type(x, json_type_string)) {
				snprintf(err, errlen,
					 "cluster.partitions[%zu]: expected a "
					 "name",
					 i);
				goto out;
			}
			if (add_partition(c, json_object_get_string(x),
					  "cluster.partitions", err,
					  errlen) < 0)
				goto out;
		}
	}
	if (!json_object_object_get_ex(root, "nodes", &v) ||
	    !json_object_is_type(v, json_type_array) ||
	    !json_object_array_length(v)) {
		snprintf(err, errlen,
			 "cluster.nodes: expected a non-empty array of node "
			 "groups");
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		snprintf(path, sizeof(path), "cluster.nodes[%zu]", i);
		rc = parse_node_group(c, json_object_array_get_idx(v, i), path,
				      err, errlen);
		if (rc)
			goto out;
	}
	rc = EINVAL;
	{
		char **names = malloc(c->nnodes * sizeof(*names));

		if (!names) {
			snprintf(err, errlen, "out of memory");
			rc = ENOMEM;
			goto out;
		}
		for (uint32_t i = 0; i < c->nnodes; i++)
			names[i] = c->nodes[i].name;
		qsort(names, c->nnodes, sizeof(*names), cmp_name);
		for (uint32_t i = 1; i < c->nnodes; i++)
			if (!strcmp(names[i], names[i - 1])) {
				snprintf(err, errlen,
					 "cluster.nodes: node name %s is used "
					 "twice",
					 names[i]);
				free(names);
				goto out;
			}
		free(names);
	}
	if (json_object_object_get_ex(root, "external_load", &v) &&
	    sim_series_parse_json(v, "cluster.external_load", base_dir, &c->ext,
				  err, errlen))
		goto out;
	rc = 0;
out:
	json_object_put(root);
	return rc;
}

json_object *sim_cluster_to_json(const struct sim_cluster_spec *c)
{
	json_object *o = json_object_new_object(), *nodes, *parts;

	if (!o)
		return NULL;
	json_object_object_add(o, "slots",
			       json_object_new_string(c->mode == SIM_SLOTS_TYPED
							      ? "typed"
							      : "cpu"));
	json_object_object_add(
		o, "node_order",
		json_object_new_string(c->order == SIM_ORDER_ROUND_ROBIN
					       ? "round-robin"
					       : "first-fit"));
	if (c->dispatch_latency > 0)
		json_object_object_add(
			o, "dispatch_latency",
			json_object_new_double(c->dispatch_latency));
	if (c->task_overhead_dist)
		json_object_object_add(o, "task_overhead",
				       sim_dist_to_json(c->task_overhead_dist));
	else if (c->task_overhead > 0)
		json_object_object_add(
			o, "task_overhead",
			json_object_new_double(c->task_overhead));
	if (c->batch_sched_delay > 0)
		json_object_object_add(
			o, "batch_sched_delay",
			json_object_new_double(c->batch_sched_delay));
	parts = json_object_new_array();
	for (uint32_t i = 0; parts && i < c->npartitions; i++)
		json_object_array_add(parts,
				      json_object_new_string(c->partitions[i]));
	json_object_object_add(o, "partitions", parts);
	nodes = json_object_new_array();
	for (uint32_t i = 0; nodes && i < c->nnodes; i++) {
		const struct sim_node_spec *n = &c->nodes[i];
		json_object *g = json_object_new_object(), *pa;

		if (!g)
			break;
		json_object_object_add(g, "name",
				       json_object_new_string(n->name));
		if (c->mode == SIM_SLOTS_TYPED) {
			json_object_object_add(
				g, "map_slots",
				json_object_new_int64(n->map_slots));
			json_object_object_add(
				g, "reduce_slots",
				json_object_new_int64(n->reduce_slots));
		} else {
			json_object_object_add(g, "cpus",
					       json_object_new_int64(n->cpus));
		}
		if (n->mem)
			json_object_object_add(
				g, "mem",
				json_object_new_int64((int64_t) n->mem));
		if (n->io > 0)
			json_object_object_add(g, "io",
					       json_object_new_double(n->io));
		if (n->speed != 1)
			json_object_object_add(
				g, "speed", json_object_new_double(n->speed));
		if (n->pool == DL_POOL_ACCEL)
			json_object_object_add(g, "pool",
					       json_object_new_string("accel"));
		pa = json_object_new_array();
		for (uint32_t k = 0; pa && k < c->npartitions; k++)
			if (n->partitions & (UINT64_C(1) << k))
				json_object_array_add(
					pa, json_object_new_string(
						    c->partitions[k]));
		json_object_object_add(g, "partitions", pa);
		json_object_array_add(nodes, g);
	}
	json_object_object_add(o, "nodes", nodes);
	if (c->ext.n)
		json_object_object_add(o, "external_load",
				       series_to_json(&c->ext));
	return o;
}

/* -------------------------------------------------------------- workload */

static const char *job_keys[] = {"name",
				 "user",
				 "account",
				 "partition",
				 "arrival",
				 "begin",
				 "deadline",
				 "relative_deadline",
				 "deadline_factor",
				 "hard_deadline",
				 "reduce_cost",
				 "remote",
				 "accel_speedup",
				 "maps",
				 "map_length",
				 "map_lengths",
				 "map_cpus",
				 "map_mem",
				 "map_io",
				 "map_time_limit",
				 "map_prior",
				 "map_input_mb",
				 "map_max_running",
				 "reduces",
				 "reduce_length",
				 "reduce_lengths",
				 "reduce_cpus",
				 "reduce_mem",
				 "reduce_io",
				 "reduce_time_limit",
				 "reduce_prior",
				 "reduce_input_mb",
				 "reduce_max_running",
				 NULL};

static int parse_phase(json_object *o, const char *path, const char *pfx,
		       bool typed, struct sim_phase_spec *ph, char *err,
		       size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	char key[32], sub[200];
	json_object *v;
	uint64_t tasks, cpus, mem;
	bool has_len, has_list;

	snprintf(key, sizeof(key), "%ss", pfx);
	tasks = dl_json_uint(&rd, o, path, key,
			     (!strcmp(pfx, "map")) ? DL_JSON_REQUIRED : 0,
			     !strcmp(pfx, "map") ? 1 : 0, DL_MAX_TASKS, 0);
	if (rd.failed)
		return EINVAL;
	ph->tasks = (uint32_t) tasks;
	snprintf(key, sizeof(key), "%s_cpus", pfx);
	cpus = dl_json_uint(&rd, o, path, key, 0, 1, 1u << 20, 1);
	if (rd.failed)
		return EINVAL;
	ph->cpus = (uint32_t) cpus;
	snprintf(key, sizeof(key), "%s_mem", pfx);
	mem = dl_json_uint(&rd, o, path, key, 0, 0, UINT64_C(1) << 40, 0);
	if (rd.failed)
		return EINVAL;
	ph->mem = mem;
	snprintf(key, sizeof(key), "%s_io", pfx);
	ph->io = dl_json_num(&rd, o, path, key, 0, 0, 1e12, 0);
	if (rd.failed)
		return EINVAL;
	snprintf(key, sizeof(key), "%s_time_limit", pfx);
	ph->time_limit = dl_json_num(&rd, o, path, key, 0, 0, MAX_TIME, 0);
	if (rd.failed)
		return EINVAL;
	snprintf(key, sizeof(key), "%s_input_mb", pfx);
	ph->input_mb = dl_json_num(&rd, o, path, key, 0, 0, 1e12, 0);
	if (rd.failed)
		return EINVAL;
	/* the array's own %N: 0 = none, as Slurm reads it */
	snprintf(key, sizeof(key), "%s_max_running", pfx);
	ph->max_running = (uint32_t) dl_json_uint(&rd, o, path, key, 0, 0,
						  DL_MAX_TASKS, 0);
	if (rd.failed)
		return EINVAL;
	if (!ph->tasks)
		ph->max_running = 0; /* limits nothing (and is not written) */
	if (typed && (cpus != 1 || mem || ph->io > 0)) {
		snprintf(err, errlen,
			 "%s: a typed-slot cluster takes one slot per task; "
			 "%s_cpus, %s_mem and %s_io do not apply",
			 path, pfx, pfx, pfx);
		return EINVAL;
	}
	snprintf(key, sizeof(key), "%s_prior", pfx);
	if (json_object_object_get_ex(o, key, &v)) {
		static const char *pk[] = {"mean", "p90", NULL};

		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		dl_json_known_keys(&rd, v, sub, pk);
		ph->prior_mean =
			dl_json_num(&rd, v, sub, "mean", DL_JSON_REQUIRED,
				    SIM_MIN_LENGTH, 1e9, 0);
		ph->prior_p90 = dl_json_num(&rd, v, sub, "p90", 0, 0, 1e9, 0);
		if (rd.failed)
			return EINVAL;
	}
	snprintf(key, sizeof(key), "%s_length", pfx);
	has_len = json_object_object_get_ex(o, key, &v);
	if (has_len) {
		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		if (sim_dist_parse(v, sub, &ph->len, err, errlen))
			return EINVAL;
	}
	snprintf(key, sizeof(key), "%s_lengths", pfx);
	has_list = json_object_object_get_ex(o, key, &v);
	if (has_list) {
		size_t n;

		if (has_len) {
			snprintf(err, errlen,
				 "%s: give %s_length or %s_lengths, not both",
				 path, pfx, pfx);
			return EINVAL;
		}
		if (!json_object_is_type(v, json_type_array) ||
		    (n = json_object_array_length(v)) != ph->tasks) {
			snprintf(err, errlen,
				 "%s.%s: expected an array of %u task lengths",
				 path, key, ph->tasks);
			return EINVAL;
		}
		ph->lengths = malloc((n ? n : 1) * sizeof(*ph->lengths));
		if (!ph->lengths) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			json_object *x = json_object_array_get_idx(v, i);
			double y = dl_json_is_number(x)
					   ? json_object_get_double(x)
					   : NAN;

			if (!isfinite(y) || y < SIM_MIN_LENGTH || y > 1e9) {
				snprintf(err, errlen,
					 "%s.%s[%zu]: expected a length in "
					 "[%g, 1e9] seconds",
					 path, key, i, SIM_MIN_LENGTH);
				return EINVAL;
			}
			ph->lengths[i] = y;
		}
		/* the mean of the list stands for the distribution (priors,
		 * generators) */
		{
			double s = 0;

			for (size_t i = 0; i < n; i++)
				s += ph->lengths[i];
			sim_dist_const(&ph->len, n ? s / (double) n : 1);
		}
	}
	if (ph->tasks && !has_len && !has_list) {
		snprintf(err, errlen,
			 "%s: %s tasks need %s_length or %s_lengths", path, pfx,
			 pfx, pfx);
		return EINVAL;
	}
	return 0;
}

/* job fields over the workload's "defaults" */
static json_object *merged(json_object *def, json_object *job)
{
	json_object *m;

	if (!def)
		return json_object_get(job);
	m = json_object_new_object();
	if (!m)
		return NULL;
	json_object_object_foreach(def, dk, dv)
		json_object_object_add(m, dk, json_object_get(dv));
	json_object_object_foreach(job, jk, jv)
		json_object_object_add(m, jk, json_object_get(jv));
	return m;
}

static int parse_job(json_object *o, const char *path, uint32_t idx,
		     const struct sim_cluster_spec *c, struct sim_job_spec *j,
		     char *err, size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	const char *part;
	json_object *v;
	char buf[32];
	double rel, dl, begin;
	int k, given = 0;

	dl_json_known_keys(&rd, o, path, job_keys);
	if (rd.failed)
		return EINVAL;
	snprintf(buf, sizeof(buf), "job%u", idx + 1);
	j->name = dl_json_strdup(&rd, o, path, "name", 0, SIZE_MAX, buf);
	j->user = dl_json_strdup(&rd, o, path, "user", 0, SIZE_MAX, "user");
	j->account = dl_json_strdup(&rd, o, path, "account", 0, SIZE_MAX, "");
	part = dl_json_str(&rd, o, path, "partition", 0, 0, SIZE_MAX,
			   c->npartitions ? c->partitions[0] : "batch");
	j->arrival = dl_json_num(&rd, o, path, "arrival", DL_JSON_REQUIRED, 0,
				 MAX_TIME, 0);
	begin = dl_json_num(&rd, o, path, "begin", 0, 0, MAX_TIME, 0);
	dl = dl_json_num(&rd, o, path, "deadline", 0, 0, MAX_TIME, 0);
	rel = dl_json_num(&rd, o, path, "relative_deadline", 0, 0, MAX_TIME, 0);
	j->deadline_factor =
		dl_json_num(&rd, o, path, "deadline_factor", 0, 0, 1e6, 0);
	j->hard = dl_json_bool(&rd, o, path, "hard_deadline", 0, false);
	j->reduce_cost =
		dl_json_num(&rd, o, path, "reduce_cost", 0, 0, 1000, 0);
	j->accel_speedup =
		dl_json_num(&rd, o, path, "accel_speedup", 0, 0, 1000, 0);
	if (rd.failed)
		return EINVAL;
	given = (dl > 0) + (rel > 0) + (j->deadline_factor > 0);
	if (given > 1) {
		snprintf(err, errlen,
			 "%s: give one of deadline, relative_deadline and "
			 "deadline_factor",
			 path);
		return EINVAL;
	}
	if (dl > 0 && dl <= j->arrival) {
		snprintf(err, errlen,
			 "%s.deadline: %g is not after the arrival %g", path,
			 dl, j->arrival);
		return EINVAL;
	}
	j->deadline = dl > 0 ? dl : (rel > 0 ? j->arrival + rel : 0);
	/* as sbatch refuses --begin after --deadline */
	if (j->deadline > 0 && begin >= j->deadline) {
		snprintf(err, errlen,
			 "%s.begin: %g is not before the deadline %g", path,
			 begin, j->deadline);
		return EINVAL;
	}
	if (j->hard && !given) {
		snprintf(err, errlen, "%s: hard_deadline without a deadline",
			 path);
		return EINVAL;
	}
	k = find_partition(c, part);
	if (k < 0) {
		snprintf(err, errlen,
			 "%s.partition: the cluster has no partition %s", path,
			 part);
		return EINVAL;
	}
	j->partition = (uint32_t) k;
	j->remote_factor = 1;
	if (json_object_object_get_ex(o, "remote", &v)) {
		static const char *rk[] = {"prob", "factor", NULL};
		char sub[200];

		snprintf(sub, sizeof(sub), "%s.remote", path);
		dl_json_known_keys(&rd, v, sub, rk);
		j->remote_prob = dl_json_num(&rd, v, sub, "prob",
					     DL_JSON_REQUIRED, 0, 1, 0);
		j->remote_factor = dl_json_num(&rd, v, sub, "factor",
					       DL_JSON_REQUIRED, 1, 1000, 1);
		if (rd.failed)
			return EINVAL;
	}
	if (parse_phase(o, path, "map", c->mode == SIM_SLOTS_TYPED,
			&j->phase[0], err, errlen) ||
	    parse_phase(o, path, "reduce", c->mode == SIM_SLOTS_TYPED,
			&j->phase[1], err, errlen))
		return EINVAL;
	/* no task of the job starts before its begin time */
	if (begin > j->arrival)
		for (int p = 0; p < 2; p++) {
			j->phase[p].deferred = j->phase[p].tasks;
			j->phase[p].begin = begin;
		}
	return 0;
}

/* Every task must fit on some node of its partition when the cluster is
 * empty, or it could never run. */
static int check_fits(const struct sim_job_spec *j, const char *path,
		      const struct sim_cluster_spec *c, char *err,
		      size_t errlen)
{
	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &j->phase[p];
		bool fits = false;

		if (!ph->tasks)
			continue;
		for (uint32_t n = 0; n < c->nnodes && !fits; n++) {
			const struct sim_node_spec *nd = &c->nodes[n];

			if (c->mode == SIM_SLOTS_TYPED) {
				fits = p ? nd->reduce_slots > 0
					 : nd->map_slots > 0;
				continue;
			}
			if (!(nd->partitions & (UINT64_C(1) << j->partition)))
				continue;
			fits = nd->cpus >= ph->cpus &&
			       (!nd->mem || nd->mem >= ph->mem) &&
			       (!(nd->io > 0) || nd->io >= ph->io);
		}
		if (!fits) {
			snprintf(err, errlen,
				 "%s: a %s task (%u CPUs, %llu MB, %g MB/s) "
				 "fits on no node of partition %s",
				 path, p ? "reduce" : "map", ph->cpus,
				 (unsigned long long) ph->mem, ph->io,
				 c->npartitions ? c->partitions[j->partition]
						: "?");
			return EINVAL;
		}
	}
	return 0;
}

int sim_workload_parse(const char *text, size_t len, const char *origin,
		       const struct sim_cluster_spec *c,
		       struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	static const char *keys[] = {"jobs", "defaults", "stats_window",
				     "description", NULL};
	json_object *root, *jobs, *def = NULL, *v;
	uint64_t total = 0;
	char path[64];
	size_t n;
	int rc = EINVAL;

	memset(w, 0, sizeof(*w));
	if (!c || !c->nnodes) {
		snprintf(err, errlen,
			 "%s: no cluster to check the jobs against", origin);
		return EINVAL;
	}
	root = dl_json_parse(text, len, SIZE_MAX, origin, err, errlen);
	if (!root)
		return EINVAL;
	dl_json_known_keys(&rd, root, "workload", keys);
	w->description = dl_json_strdup(&rd, root, "workload", "description", 0,
					SIZE_MAX, NULL);
	if (rd.failed)
		goto out;
	if (json_object_object_get_ex(root, "defaults", &def) &&
	    !json_object_is_type(def, json_type_object)) {
		snprintf(err, errlen, "workload.defaults: expected an object");
		goto out;
	}
	if (json_object_object_get_ex(root, "stats_window", &v)) {
		json_object *a, *b;

		if (!json_object_is_type(v, json_type_array) ||
		    json_object_array_length(v) != 2 ||
		    !dl_json_is_number(a = json_object_array_get_idx(v, 0)) ||
		    !dl_json_is_number(b = json_object_array_get_idx(v, 1)) ||
		    !isfinite(json_object_get_double(a)) ||
		    !(json_object_get_double(b) > json_object_get_double(a)) ||
		    !isfinite(json_object_get_double(b))) {
			snprintf(err, errlen,
				 "workload.stats_window: expected [from, to] "
				 "with from < to");
			goto out;
		}
		w->has_window = true;
		w->window[0] = json_object_get_double(a);
		w->window[1] = json_object_get_double(b);
	}
	if (!json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array)) {
		snprintf(err, errlen,
			 "workload.jobs: expected an array of jobs");
		goto out;
	}
	n = json_object_array_length(jobs);
	if (n > SIM_MAX_JOBS) {
		snprintf(err, errlen, "workload.jobs: more than %u jobs",
			 SIM_MAX_JOBS);
		goto out;
	}
	w->jobs = calloc(n ? n : 1, sizeof(*w->jobs));
	if (!w->jobs) {
		snprintf(err, errlen, "out of memory");
		rc = ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *jo = json_object_array_get_idx(jobs, i), *m;

		snprintf(path, sizeof(path), "workload.jobs[%zu]", i);
		if (!json_object_is_type(jo, json_type_object)) {
			snprintf(err, errlen, "%s: expected an object", path);
			goto out;
		}
		m = merged(def, jo);
		if (!m) {
			snprintf(err, errlen, "out of memory");
			rc = ENOMEM;
			goto out;
		}
		w->njobs++;
		rc = parse_job(m, path, (uint32_t) i, c, &w->jobs[i], err,
			       errlen);
		json_object_put(m);
		if (rc)
			goto out;
		rc = EINVAL;
		if (check_fits(&w->jobs[i], path, c, err, errlen))
			goto out;
		total += (uint64_t) w->jobs[i].phase[0].tasks +
			 w->jobs[i].phase[1].tasks;
		if (total > SIM_MAX_TOTAL_TASKS) {
			snprintf(err, errlen,
				 "workload: more than %u tasks in all",
				 SIM_MAX_TOTAL_TASKS);
			goto out;
		}
	}
	rc = 0;
out:
	json_object_put(root);
	return rc;
}

static void add_phase_json(json_object *o, const struct sim_phase_spec *ph,
			   const char *pfx, bool typed)
{
	char key[32];

	snprintf(key, sizeof(key), "%ss", pfx);
	json_object_object_add(o, key, json_object_new_int64(ph->tasks));
	if (!ph->tasks)
		return;
	if (ph->lengths) {
		json_object *a = json_object_new_array();

		for (uint32_t i = 0; a && i < ph->tasks; i++)
			json_object_array_add(
				a, json_object_new_double(ph->lengths[i]));
		snprintf(key, sizeof(key), "%s_lengths", pfx);
		json_object_object_add(o, key, a);
	} else {
		snprintf(key, sizeof(key), "%s_length", pfx);
		json_object_object_add(o, key, sim_dist_to_json(&ph->len));
	}
	if (!typed && ph->cpus != 1) {
		snprintf(key, sizeof(key), "%s_cpus", pfx);
		json_object_object_add(o, key, json_object_new_int64(ph->cpus));
	}
	if (ph->mem) {
		snprintf(key, sizeof(key), "%s_mem", pfx);
		json_object_object_add(
			o, key, json_object_new_int64((int64_t) ph->mem));
	}
	if (ph->io > 0) {
		snprintf(key, sizeof(key), "%s_io", pfx);
		json_object_object_add(o, key, json_object_new_double(ph->io));
	}
	if (ph->time_limit > 0) {
		snprintf(key, sizeof(key), "%s_time_limit", pfx);
		json_object_object_add(o, key,
				       json_object_new_double(ph->time_limit));
	}
	if (ph->input_mb > 0) {
		snprintf(key, sizeof(key), "%s_input_mb", pfx);
		json_object_object_add(o, key,
				       json_object_new_double(ph->input_mb));
	}
	if (ph->max_running) {
		snprintf(key, sizeof(key), "%s_max_running", pfx);
		json_object_object_add(o, key,
				       json_object_new_int64(ph->max_running));
	}
	if (ph->prior_mean > 0) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "mean",
				       json_object_new_double(ph->prior_mean));
		if (ph->prior_p90 > 0)
			json_object_object_add(
				p, "p90",
				json_object_new_double(ph->prior_p90));
		snprintf(key, sizeof(key), "%s_prior", pfx);
		json_object_object_add(o, key, p);
	}
}

json_object *sim_workload_to_json(const struct sim_workload_spec *w,
				  const struct sim_cluster_spec *c)
{
	json_object *o = json_object_new_object(), *jobs;
	bool typed = c && c->mode == SIM_SLOTS_TYPED;

	if (!o)
		return NULL;
	if (w->description)
		json_object_object_add(o, "description",
				       json_object_new_string(w->description));
	if (w->has_window) {
		json_object *a = json_object_new_array();

		json_object_array_add(a, json_object_new_double(w->window[0]));
		json_object_array_add(a, json_object_new_double(w->window[1]));
		json_object_object_add(o, "stats_window", a);
	}
	jobs = json_object_new_array();
	for (uint32_t i = 0; jobs && i < w->njobs; i++) {
		const struct sim_job_spec *j = &w->jobs[i];
		json_object *jo = json_object_new_object();

		if (!jo)
			break;
		json_object_object_add(jo, "name",
				       json_object_new_string(j->name));
		if (j->user && strcmp(j->user, "user"))
			json_object_object_add(jo, "user",
					       json_object_new_string(j->user));
		if (j->account && j->account[0])
			json_object_object_add(
				jo, "account",
				json_object_new_string(j->account));
		if (c && j->partition && j->partition < c->npartitions)
			json_object_object_add(
				jo, "partition",
				json_object_new_string(
					c->partitions[j->partition]));
		json_object_object_add(jo, "arrival",
				       json_object_new_double(j->arrival));
		for (int p = 0; p < 2; p++)
			if (j->phase[p].deferred &&
			    j->phase[p].begin > j->arrival) {
				json_object_object_add(
					jo, "begin",
					json_object_new_double(
						j->phase[p].begin));
				break;
			}
		if (j->deadline_factor > 0)
			json_object_object_add(
				jo, "deadline_factor",
				json_object_new_double(j->deadline_factor));
		else if (j->deadline > 0)
			json_object_object_add(
				jo, "deadline",
				json_object_new_double(j->deadline));
		if (j->hard)
			json_object_object_add(jo, "hard_deadline",
					       json_object_new_boolean(1));
		if (j->reduce_cost > 0)
			json_object_object_add(
				jo, "reduce_cost",
				json_object_new_double(j->reduce_cost));
		if (j->remote_prob > 0) {
			json_object *r = json_object_new_object();

			json_object_object_add(
				r, "prob",
				json_object_new_double(j->remote_prob));
			json_object_object_add(
				r, "factor",
				json_object_new_double(j->remote_factor));
			json_object_object_add(jo, "remote", r);
		}
		if (j->accel_speedup > 0)
			json_object_object_add(
				jo, "accel_speedup",
				json_object_new_double(j->accel_speedup));
		add_phase_json(jo, &j->phase[0], "map", typed);
		add_phase_json(jo, &j->phase[1], "reduce", typed);
		json_object_array_add(jobs, jo);
	}
	json_object_object_add(o, "jobs", jobs);
	return o;
}

/* ----------------------------------------------------------------- files */

static int load(const char *path, char **text, size_t *len, char *err,
		size_t errlen)
{
	int rc = dl_read_file(path, MAX_FILE, text, len);

	if (rc)
		snprintf(err, errlen, "cannot read %s: %s", path,
			 rc == EFBIG ? "larger than 1 GiB" : strerror(rc));
	return rc;
}

int sim_cluster_load(const char *path, struct sim_cluster_spec *c, char *err,
		     size_t errlen)
{
	char *text = NULL, dir[4096], *slash;
	size_t len = 0;
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = load(path, &text, &len, err, errlen)))
		return rc;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	rc = sim_cluster_parse(text, len, path, dir, c, err, errlen);
	free(text);
	return rc;
}

int sim_workload_load(const char *path, const struct sim_cluster_spec *c,
		      struct sim_workload_spec *w, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(w, 0, sizeof(*w));
	if ((rc = load(path, &text, &len, err, errlen)))
		return rc;
	rc = sim_workload_parse(text, len, path, c, w, err, errlen);
	free(text);
	return rc;
}
