/*
 * compare/dc.h - Kc & Anyanwu's Deadline Constraint scheduler (CloudCom 2010)
 * as the simulator's baseline for the realtime policy (doc/design.md §8).
 *
 * Their closed forms were not available to us; they are derived from the
 * definitions the RTMR paper gives (see doc/realtime.md):
 *   - all R reduce tasks start together and each runs its worst case ε_r,
 *     so the reduce stage must start by S_r^max = A + D − ε_r, which is also
 *     the map stage's deadline;
 *   - the job gets the minimum number of map slots that finishes its map
 *     work by then when they are all free at arrival (the continuous form
 *     of σ·c_m / (S_r^max − A)):  n_m^min = ceil(M · ε_m / (S_r^max − A)).
 * Schedulability test: reject unless (a) n_m^min map slots are free at the
 * arrival and (b) R reduce slots are free at the instant S_r^max (so a job
 * with R above the reduce slots is always rejected).  An admitted job
 * reserves n_m^min map slots over [A, S_r^max) and R reduce slots over
 * [S_r^max, A + D).  The test checks the reduce slots at one instant only
 * and the continuous map bound ignores waves: the deficiencies the RTMR
 * paper lists, which the simulator should show.
 */
#ifndef DL_RT_DC_H
#define DL_RT_DC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dl_dc_state;

struct dl_dc_request {
	uint64_t id;
	double arrival;
	double deadline; /* absolute */
	uint32_t maps, reduces;
	double wc_map, wc_reduce; /* worst-case task lengths (s) */
};

struct dl_dc_verdict {
	bool admitted;
	double sr_max;        /* latest start of the reduce stage */
	uint32_t nm_min;      /* map slots the job needs from its arrival */
	uint32_t free_map;    /* free map slots at the arrival */
	uint32_t free_reduce; /* free reduce slots at sr_max */
	char msg[200];
};

struct dl_dc_state *dl_dc_new(uint32_t map_slots, uint32_t reduce_slots);
void dl_dc_free(struct dl_dc_state *st);

/* The schedulability test; with commit the reservations are made.
 * Requests come in arrival order (reservations that ended before an
 * arrival are dropped).  Returns 0 with the verdict, EINVAL (bad request),
 * EEXIST (its reservations are still there), ENOMEM. */
int dl_dc_admit(struct dl_dc_state *st, const struct dl_dc_request *req,
		bool commit, struct dl_dc_verdict *v);

/* The job ended at `now`: its reservations end there.  0 or ENOENT. */
int dl_dc_release(struct dl_dc_state *st, uint64_t id, double now);

/* Slots not reserved at time t (map: phase 0, reduce: phase 1). */
uint32_t dl_dc_free_at(const struct dl_dc_state *st, int phase, double t);

#endif
