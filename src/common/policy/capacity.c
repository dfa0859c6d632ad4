/*
 * capacity.c - node classes and slot accounting for the plan.
 */
#include "common/policy/capacity.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool dl_capclass_serves(const struct dl_capclass *c, uint32_t part)
{
	return dl_partset_empty(&c->partitions) ||
	       dl_partset_has(&c->partitions, part);
}

double dl_capacity_partition_cpus(const struct dl_capacity *cap, uint32_t part)
{
	double cpus = 0;

	for (uint32_t k = 0; cap && k < cap->ncls; k++)
		if (dl_capclass_serves(&cap->cls[k], part))
			cpus += cap->cls[k].cpus_total;
	return cpus;
}

static int cmp_class(const void *a, const void *b)
{
	const struct dl_capclass *x = a, *y = b;
	uint32_t px = dl_partset_empty(&x->partitions)
			      ? UINT32_MAX
			      : dl_partset_count(&x->partitions);
	uint32_t py = dl_partset_empty(&y->partitions)
			      ? UINT32_MAX
			      : dl_partset_count(&y->partitions);
	int c;

	/* classes serving fewer partitions first: take from the least
	 * contended nodes before the shared ones */
	if (px != py)
		return px < py ? -1 : 1;
	c = dl_partset_cmp(&x->partitions, &y->partitions);
	if (c)
		return c;
	return (int) x->pool - (int) y->pool;
}

/* The class of node n among the first ncls, or NULL.  Nodes alike tend to
 * be listed together, so the class of the previous node is tried first. */
static struct dl_capclass *class_for(struct dl_capacity *cap,
				     const struct dl_node *n, uint32_t *last)
{
	struct dl_capclass *c = *last < cap->ncls ? &cap->cls[*last] : NULL;

	if (c && c->pool == n->pool &&
	    dl_partset_equal(&c->partitions, &n->partitions))
		return c;
	for (uint32_t k = 0; k < cap->ncls; k++)
		if (cap->cls[k].pool == n->pool &&
		    dl_partset_equal(&cap->cls[k].partitions, &n->partitions)) {
			*last = k;
			return &cap->cls[k];
		}
	return NULL;
}

/* other: the classes of what work the plan does not manage holds, instead
 * of what it leaves. */
static int build(struct dl_capacity *cap, const struct dl_cluster *cl,
		 bool other)
{
	uint32_t room = 0, last = UINT32_MAX;

	if (!cap)
		return EINVAL;
	memset(cap, 0, sizeof(*cap));
	if (!cl || !cl->nnodes)
		return 0;
	for (uint32_t i = 0; i < cl->nnodes; i++) {
		const struct dl_node *n = &cl->nodes[i];
		struct dl_capclass *c;
		double cpus, mem;

		if (!n->up || n->pool >= DL_POOLS)
			continue;
		c = class_for(cap, n, &last);
		if (!c) {
			/* classes are few: room grows by doubling, at most
			 * one per node */
			if (cap->ncls == room) {
				uint32_t more = room ? 2 * room : 4;
				struct dl_capclass *q;

				if (more > cl->nnodes)
					more = cl->nnodes;
				q = realloc(cap->cls, more * sizeof(*q));
				if (!q) {
					dl_capacity_free(cap);
					return ENOMEM;
				}
				cap->cls = q;
				room = more;
			}
			c = &cap->cls[cap->ncls];
			memset(c, 0, sizeof(*c));
			if (dl_partset_copy(&c->partitions, &n->partitions)) {
				dl_capacity_free(cap);
				return ENOMEM;
			}
			last = cap->ncls++;
			c->pool = n->pool;
		}
		if (other) {
			cpus = n->cpus_other < n->cpus ? n->cpus_other
						       : n->cpus;
			mem = (double) (n->mem_other < n->mem ? n->mem_other
							      : n->mem);
		} else {
			cpus = n->cpus > n->cpus_other ? n->cpus - n->cpus_other
						       : 0;
			mem = n->mem > n->mem_other
				      ? (double) (n->mem - n->mem_other)
				      : 0;
		}
		c->nodes++;
		c->cpus_total += cpus;
		c->mem_total += mem;
		cap->has_pool[n->pool] = true;
	}
	if (cap->ncls)
		qsort(cap->cls, cap->ncls, sizeof(*cap->cls), cmp_class);
	for (uint32_t k = 0; k < cap->ncls; k++) {
		cap->cls[k].cpus_free = cap->cls[k].cpus_total;
		cap->cls[k].mem_free = cap->cls[k].mem_total;
	}
	return 0;
}

int dl_capacity_build(struct dl_capacity *cap, const struct dl_cluster *cl)
{
	return build(cap, cl, false);
}

int dl_capacity_build_other(struct dl_capacity *cap,
			    const struct dl_cluster *cl)
{
	return build(cap, cl, true);
}

int dl_capacity_class_of(const struct dl_capacity *cap, const struct dl_node *n)
{
	if (!cap || !n || !n->up || n->pool >= DL_POOLS)
		return -1;
	for (uint32_t k = 0; k < cap->ncls; k++)
		if (cap->cls[k].pool == n->pool &&
		    dl_partset_equal(&cap->cls[k].partitions, &n->partitions))
			return (int) k;
	return -1;
}

void dl_capacity_free(struct dl_capacity *cap)
{
	if (!cap)
		return;
	for (uint32_t k = 0; k < cap->ncls; k++)
		dl_partset_free(&cap->cls[k].partitions);
	free(cap->cls);
	memset(cap, 0, sizeof(*cap));
}

static double class_slots(const struct dl_capclass *c, double cpu, double mem,
			  bool total)
{
	double cpus = total ? c->cpus_total : c->cpus_free;
	double m = total ? c->mem_total : c->mem_free;
	double s = cpu > 0 ? floor(cpus / cpu + 1e-9) : INFINITY;

	if (mem > 0 && floor(m / mem + 1e-9) < s)
		s = floor(m / mem + 1e-9);
	return s > 0 ? s : 0;
}

double dl_capacity_slots(const struct dl_capacity *cap, uint32_t part, int pool,
			 double cpu, double mem, bool total)
{
	double s = 0;

	if (!cap || !(cpu > 0 || mem > 0))
		return 0;
	for (uint32_t k = 0; k < cap->ncls; k++)
		if (dl_capclass_serves(&cap->cls[k], part) &&
		    (pool < 0 || cap->cls[k].pool == pool))
			s += class_slots(&cap->cls[k], cpu, mem, total);
	return s;
}

int dl_capacity_take(struct dl_capacity *cap, uint32_t part, int pool,
		     double cpu, double mem)
{
	if (!cap || !(cpu > 0 || mem > 0))
		return -1;
	for (uint32_t k = 0; k < cap->ncls; k++) {
		struct dl_capclass *c = &cap->cls[k];

		if (!dl_capclass_serves(c, part) ||
		    (pool >= 0 && c->pool != pool))
			continue;
		if (class_slots(c, cpu, mem, false) < 1)
			continue;
		c->cpus_free -= cpu;
		if (mem > 0)
			c->mem_free -= mem;
		return c->pool;
	}
	return -1;
}
