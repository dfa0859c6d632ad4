/*
 * capacity.h - what the plan can hand out, in CPUs and memory, grouped into
 * node classes: nodes with the same partition membership and pool.  A job
 * takes a slot of its task's size from a class of its partition; classes
 * are aggregates, so fragmentation inside a node is not modelled (the
 * placement policies, ras and reverse, work per node).
 */
#ifndef DL_CAPACITY_H
#define DL_CAPACITY_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/model.h"

struct dl_capclass {
	struct dl_partset partitions; /* empty: every partition */
	uint8_t pool;
	uint32_t nodes;
	double cpus_total, mem_total; /* of up nodes, minus others' use */
	double cpus_free, mem_free;   /* what is left to hand out */
};

struct dl_capacity {
	struct dl_capclass *cls;
	uint32_t ncls;
	bool has_pool[DL_POOLS];
};

int dl_capacity_build(struct dl_capacity *cap, const struct dl_cluster *cl);
/* The same classes holding what jobs the plan does not manage hold now
 * (cpus_other, mem_other): capacity a deadline job may claim, to get as
 * that work ends. */
int dl_capacity_build_other(struct dl_capacity *cap,
			    const struct dl_cluster *cl);
void dl_capacity_free(struct dl_capacity *cap);

/* Whether the class's nodes take jobs of partition `part`. */
bool dl_capclass_serves(const struct dl_capclass *c, uint32_t part);
/* Every CPU of the classes that take jobs of partition `part` (0 for
 * cap NULL). */
double dl_capacity_partition_cpus(const struct dl_capacity *cap, uint32_t part);
/* The index of the class an up node belongs to, or -1 (down node, or a
 * cluster other than the one the classes were built from). */
int dl_capacity_class_of(const struct dl_capacity *cap,
			 const struct dl_node *n);

/* Whole slots of size (cpu, mem) a job of partition `part` finds on `pool`
 * (-1: any pool); `total` counts all capacity, otherwise what is free. */
double dl_capacity_slots(const struct dl_capacity *cap, uint32_t part, int pool,
			 double cpu, double mem, bool total);

/* Take one slot of size (cpu, mem) for partition `part` from `pool`
 * (-1: any).  Returns the pool taken from, or -1 when nothing fits. */
int dl_capacity_take(struct dl_capacity *cap, uint32_t part, int pool,
		     double cpu, double mem);

#endif
