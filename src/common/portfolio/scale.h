/*
 * scale.h - a portfolio round's queue scaled down to what a round can
 * simulate within its budget: a seeded random sample of the arrays on the
 * same share of the cluster.
 *
 * Above `max_tasks` queued tasks (pending and running), arrays are taken in
 * a seeded random order until the sample holds max_tasks tasks (at least
 * one array).  Its share of the queue's work (tasks x mean length x CPUs,
 * both phases) is f; the cluster keeps every node i with
 * floor((i + 1) f + u) > floor(i f + u), u seeded in [0, 1): f of the nodes
 * spread evenly over the node list (nodes of a kind are usually listed
 * together, so the mix is kept), each node kept with probability f, so the
 * kept CPUs are f of the cluster's in expectation.  A sampled array whose
 * partition has no kept node that could hold one of its tasks gets the
 * first such node as well.  Running tasks of sampled arrays stay on their
 * node when it is kept, else move to the kept node of the array's partition
 * with the most CPUs free (lowest first among equal ones; a node may end
 * up over-committed, which the engine tolerates: it starts nothing there
 * until enough ends).
 *
 * The policies then face the same load (work per CPU) with fewer arrays
 * and nodes; the scores a round compares are rates and means (missed %,
 * mean tardiness, mean bounded slowdown), comparable across candidates run
 * on the same sample.  Deterministic given the seed; no I/O, no global
 * state.  The result shares the input's strings and length tables: it is
 * valid while the input is, and freed with dl_pf_scaled_free only.
 */
#ifndef DL_PORTFOLIO_SCALE_H
#define DL_PORTFOLIO_SCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/simulate/spec.h"

struct dl_pf_scaled {
	bool scaled; /* false: the queue was small enough, cs/ws unused */
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	double share;       /* f: the sample's share of the queue's work */
	uint32_t jobs_in;   /* arrays in the queue */
	uint32_t nodes_in;  /* nodes in the cluster */
	uint64_t tasks_in;  /* tasks in the queue */
	uint64_t tasks_out; /* tasks in the sample */
};

/* Scale (cs, ws) when it holds more than max_tasks tasks (0: never).  0
 * with *out filled (out->scaled says whether it was scaled), or ENOMEM /
 * EINVAL with err set. */
int dl_pf_scale(const struct sim_cluster_spec *cs,
		const struct sim_workload_spec *ws, uint64_t max_tasks,
		uint64_t seed, struct dl_pf_scaled *out, char *err,
		size_t errlen);

void dl_pf_scaled_free(struct dl_pf_scaled *s);

#endif
