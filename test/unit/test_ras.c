/*
 * test_ras.c - the ras utility (Eq. 5-7) and its degenerate cases, the
 * placement (Algorithm 1) and the ras plan cycle.
 */
#include <math.h>
#include <string.h>

#include "common/policy/place_index.h"
#include "common/plan/plan_json.h"
#include "common/policy/placement.h"
#include "common/policy/policy.h"
#include "common/policy/ras.h"
#include "common/policy/utility.h"
#include "fixtures.h"

/* The partition sets the placement tests use: {0}, {1}, {0, 1}. */
static const struct dl_partset *parts_of(uint64_t mask)
{
	static uint64_t words[4] = {0, 1, 2, 3};
	static const struct dl_partset sets[4] = {
		{&words[0], 1}, {&words[1], 1}, {&words[2], 1}, {&words[3], 1}};

	ck_assert_uint_lt(mask, 4);
	return &sets[mask];
}

#define TOL 1e-12

/* ---- utility ---- */

static const double needs[] = {NAN, -3, 0,  0.3, 1,   1.5,     2,
			       7.3, 20, 35, 40,  100, INFINITY};

START_TEST(test_map_utility_grid)
{
	for (int sp = 0; sp <= 40; sp++)
		for (size_t k = 0; k < sizeof(needs) / sizeof(needs[0]); k++) {
			double prev = -INFINITY;

			for (int sa = 0; sa <= sp + 2; sa++) {
				double u = dl_utility_map(sa, needs[k], sp);

				ck_assert_msg(isfinite(u),
					      "u(%d; %g, %d) not finite", sa,
					      needs[k], sp);
				ck_assert(u >= DL_UTILITY_FLOOR && u <= 1);
				ck_assert_msg(u >= prev,
					      "u decreases at s_alloc=%d "
					      "(s_req %g, s_pend %d)",
					      sa, needs[k], sp);
				if (sa >= sp)
					ck_assert_double_eq(u, 1);
				prev = u;
			}
		}
}
END_TEST

START_TEST(test_map_utility_paper)
{
	/* Fig. 4.2 shape: s_req = 20, s_pend = 35 */
	ck_assert_double_eq_tol(dl_utility_map(10, 20, 35),
				log(10) / log(20) - 1, TOL);
	ck_assert_double_eq_tol(dl_utility_map(20, 20, 35), 0, TOL);
	ck_assert_double_eq_tol(dl_utility_map(27, 20, 35), 7.0 / 15, TOL);
	ck_assert_double_eq(dl_utility_map(35, 20, 35), 1);
	ck_assert_double_eq(dl_utility_map(50, 20, 35), 1); /* the cap */
	ck_assert_double_eq_tol(dl_utility_map(1, 20, 35), -1, TOL);
	/* fractional need: zero exactly at s_req */
	ck_assert_double_eq_tol(dl_utility_map(7.3, 7.3, 35), 0, TOL);
}
END_TEST

START_TEST(test_map_utility_degenerate)
{
	/* s_alloc = 0 below the need: the floor, not -inf */
	ck_assert_double_eq(dl_utility_map(0, 20, 35), DL_UTILITY_FLOOR);
	/* s_req = 1: log(1) = 0 in the denominator; 0 -> floor, 1 -> 0 */
	ck_assert_double_eq(dl_utility_map(0, 1, 10), DL_UTILITY_FLOOR);
	ck_assert_double_eq_tol(dl_utility_map(1, 1, 10), 0, TOL);
	/* s_req < 1: linear from the floor to 0 at s_req */
	ck_assert_double_eq_tol(dl_utility_map(0.25, 0.5, 10), -1, TOL);
	ck_assert_double_eq_tol(dl_utility_map(1, 0.5, 10), 0.5 / 9.5, TOL);
	/* s_pend = s_req: no zero divisor; full allocation is 1 */
	ck_assert_double_eq_tol(dl_utility_map(4, 5, 5), log(4) / log(5) - 1,
				TOL);
	ck_assert_double_eq(dl_utility_map(5, 5, 5), 1);
	/* need above what is left (late job): needs all of it */
	ck_assert_double_eq_tol(dl_utility_map(4, INFINITY, 8),
				log(4) / log(8) - 1, TOL);
	ck_assert_double_eq_tol(dl_utility_map(4, 100, 8), log(4) / log(8) - 1,
				TOL);
	/* no need: linear from 0 */
	ck_assert_double_eq_tol(dl_utility_map(0, -2, 8), 0, TOL);
	ck_assert_double_eq_tol(dl_utility_map(2, 0, 8), 0.25, TOL);
	/* unknown need: one sample */
	ck_assert_double_eq(dl_utility_map(0, NAN, 8), DL_UTILITY_FLOOR);
	ck_assert_double_eq_tol(dl_utility_map(1, NAN, 8), 0, TOL);
	/* nothing left */
	ck_assert_double_eq(dl_utility_map(0, 3, 0), 1);
	/* invalid input is reported, not guessed */
	ck_assert(isnan(dl_utility_map(NAN, 3, 8)));
	ck_assert(isnan(dl_utility_map(-1, 3, 8)));
	ck_assert(isnan(dl_utility_map(1, 3, -8)));
	ck_assert(isnan(dl_utility_map(1, 3, INFINITY)));
}
END_TEST

START_TEST(test_reduce_utility)
{
	for (int rp = 0; rp <= 30; rp++) {
		double prev = -INFINITY;

		for (int ra = 0; ra <= rp + 1; ra++) {
			double u = dl_utility_reduce(ra, rp);

			ck_assert(isfinite(u));
			ck_assert(u >= DL_UTILITY_FLOOR && u <= 0);
			ck_assert(u >= prev);
			prev = u;
		}
		ck_assert_double_eq(dl_utility_reduce(rp, rp), 0);
	}
	ck_assert_double_eq(dl_utility_reduce(0, 0), 0);
	ck_assert_double_eq(dl_utility_reduce(0, 1), DL_UTILITY_FLOOR);
	ck_assert_double_eq(dl_utility_reduce(1, 1), 0);
	ck_assert_double_eq_tol(dl_utility_reduce(1, 10), -1, TOL);
	ck_assert_double_eq_tol(dl_utility_reduce(5, 10), log(5) / log(10) - 1,
				TOL);
	ck_assert(isnan(dl_utility_reduce(-1, 3)));
}
END_TEST

START_TEST(test_reverse_utility)
{
	/* Fig. 5.17: s_fit = 10, s_req = 15, s_pend = 35 */
	ck_assert_double_eq_tol(dl_utility_map_reverse(5, 10, 15, 35),
				log(5) / log(10) - 1, TOL);
	ck_assert_double_eq_tol(dl_utility_map_reverse(10, 10, 15, 35), 0, TOL);
	ck_assert_double_eq_tol(dl_utility_map_reverse(12, 10, 15, 35), 0.2,
				TOL);
	ck_assert_double_eq_tol(dl_utility_map_reverse(15, 10, 15, 35), 0.5,
				TOL);
	ck_assert_double_eq_tol(dl_utility_map_reverse(25, 10, 15, 35), 0.75,
				TOL);
	ck_assert_double_eq(dl_utility_map_reverse(35, 10, 15, 35), 1);
	ck_assert_double_eq(dl_utility_map_reverse(0, 10, 15, 35),
			    DL_UTILITY_FLOOR);
	/* s_fit = 0: linear 0 -> 0.5 -> 1 */
	ck_assert_double_eq_tol(dl_utility_map_reverse(0, 0, 15, 35), 0, TOL);
	ck_assert_double_eq_tol(dl_utility_map_reverse(6, 0, 12, 36), 0.25,
				TOL);
	/* s_req <= s_fit: Eq. 6 with s_req := s_fit, on a grid */
	for (int sp = 0; sp <= 30; sp++)
		for (size_t k = 0; k < sizeof(needs) / sizeof(needs[0]); k++)
			for (int sa = 0; sa <= sp; sa++) {
				double f = needs[k];

				ck_assert_double_eq_tol(
					dl_utility_map_reverse(sa, f, f, sp),
					dl_utility_map(sa, f, sp), TOL);
				if (!isnan(f) && f > 0.5)
					ck_assert_double_eq_tol(
						dl_utility_map_reverse(
							sa, f, f / 2, sp),
						dl_utility_map(sa, f, sp), TOL);
			}
	/* finite and monotone on a grid of (s_fit, s_req) */
	for (int sp = 0; sp <= 30; sp += 3)
		for (size_t a = 0; a < sizeof(needs) / sizeof(needs[0]); a++)
			for (size_t b = 0; b < sizeof(needs) / sizeof(needs[0]);
			     b++) {
				double prev = -INFINITY;

				for (int sa = 0; sa <= sp + 1; sa++) {
					double u = dl_utility_map_reverse(
						sa, needs[a], needs[b], sp);

					ck_assert(isfinite(u));
					ck_assert(u >= DL_UTILITY_FLOOR &&
						  u <= 1);
					ck_assert(u >= prev);
					prev = u;
				}
			}
	ck_assert(isnan(dl_utility_map_reverse(NAN, 1, 2, 3)));
}
END_TEST

/* ---- placement ---- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t) (rng_state >> 33) % n;
}

static void set_vec(double *v, double cpu, double mem, double io)
{
	v[0] = cpu;
	v[1] = mem;
	v[2] = io;
}

/* Sum of demands on each node from rows must stay within capacity. */
static void check_capacity(const struct dl_pl_node *nodes, uint32_t nn,
			   const struct dl_pl_job *jobs, uint32_t nj,
			   const struct dl_place *rows, uint32_t nrows,
			   const double *fixed_use)
{
	double *use = calloc(nn * 3, sizeof(double));
	uint32_t *maps = calloc(nj, sizeof(uint32_t));
	uint32_t *reds = calloc(nj, sizeof(uint32_t));

	for (uint32_t k = 0; k < nrows; k++) {
		const struct dl_pl_job *j = &jobs[rows[k].job];
		double rd[3];

		ck_assert_uint_lt(rows[k].node, nn);
		dl_pl_reducer_demand(j, j->maps, rd);
		for (int r = 0; r < 3; r++)
			use[rows[k].node * 3 + r] += rows[k].maps * j->map[r] +
						     rows[k].reduces * rd[r];
		maps[rows[k].job] += rows[k].maps;
		reds[rows[k].job] += rows[k].reduces;
		ck_assert(nodes[rows[k].node].usable);
	}
	for (uint32_t n = 0; n < nn; n++)
		for (int r = 0; r < 3; r++) {
			double lim = nodes[n].cap[r];

			if (fixed_use && fixed_use[n * 3 + r] > lim)
				lim = fixed_use[n * 3 + r];
			ck_assert_msg(use[n * 3 + r] <= lim + 1e-6,
				      "node %u resource %d: %g used of %g", n,
				      r, use[n * 3 + r], nodes[n].cap[r]);
		}
	for (uint32_t j = 0; j < nj; j++) {
		ck_assert_uint_le(jobs[j].maps, jobs[j].maps_left);
		ck_assert_uint_le(jobs[j].reduces, jobs[j].reduces_left);
		ck_assert_uint_eq(maps[j], jobs[j].maps);
		ck_assert_uint_eq(reds[j], jobs[j].reduces);
	}
	free(use);
	free(maps);
	free(reds);
}

struct inst {
	struct dl_pl_node nodes[40];
	struct dl_pl_job jobs[30];
	uint32_t runs[30][16];
	uint32_t nn, nj;
};

static void random_instance(struct inst *s, uint64_t seed, bool running)
{
	memset(s, 0, sizeof(*s));
	rng_state = seed;
	s->nn = 5 + rnd(35);
	s->nj = 2 + rnd(28);
	for (uint32_t n = 0; n < s->nn; n++) {
		set_vec(s->nodes[n].cap, 2 + rnd(31), 1000 + rnd(64000),
			rnd(3) ? 50 + rnd(500) : INFINITY);
		s->nodes[n].partitions = parts_of(1 + rnd(3)); /* 0/1 */
		s->nodes[n].usable = rnd(10) != 0;
	}
	for (uint32_t j = 0; j < s->nj; j++) {
		struct dl_pl_job *x = &s->jobs[j];

		x->partition = rnd(4) == 0 ? UINT32_MAX : rnd(2);
		set_vec(x->map, 1 + rnd(4), 100 + rnd(4000), rnd(60));
		set_vec(x->reduce, 1 + rnd(2), 500 + rnd(8000), rnd(80));
		x->maps_left = rnd(200);
		x->reduces_left = rnd(3) ? 0 : rnd(8);
		if (x->reduces_left && x->maps_left && rnd(2)) {
			x->shuffle_mode = true;
			set_vec(x->shuffle, 0.1 * rnd(5), 10 * rnd(50),
				rnd(15));
			x->reduce[2] = 0;
		}
		x->s_req = rnd(5) == 0 ? NAN : 0.5 * rnd(80);
		x->s_fit = x->s_req;
		if (running && x->maps_left) {
			/* a few running maps, each on a usable node that has
			 * room for it (checked by the caller's capacity) */
			x->nmap_running = rnd(4);
			if (x->nmap_running > x->maps_left)
				x->nmap_running = x->maps_left;
			for (uint32_t i = 0; i < x->nmap_running; i++)
				s->runs[j][i] =
					rnd(s->nn + 1); /* nn: unknown */
			x->map_nodes = s->runs[j];
		}
	}
}

START_TEST(test_placement_capacity_random)
{
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct inst s;
		struct dl_place *rows = NULL;
		uint32_t nrows = 0;
		struct dl_pl_stats st;

		random_instance(&s, seed, false);
		ck_assert_int_eq(
			dl_placement(s.nodes, s.nn, s.jobs, s.nj,
				     seed % 2 ? DL_UTIL_RAS : DL_UTIL_REVERSE,
				     10, &rows, &nrows, &st),
			0);
		check_capacity(s.nodes, s.nn, s.jobs, s.nj, rows, nrows, NULL);
		free(rows);
	}
}
END_TEST

START_TEST(test_rounds_never_lower_min)
{
	uint32_t moved = 0;

	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct inst s;
		struct dl_place *rows = NULL;
		uint32_t nrows = 0;
		struct dl_pl_stats st;

		random_instance(&s, seed, true);
		/* running tasks might not fit the random capacities: give
		 * the nodes they sit on enough room for them */
		for (uint32_t n = 0; n < s.nn; n++)
			for (int r = 0; r < 3; r++)
				s.nodes[n].cap[r] += 8 * 8000;
		ck_assert_int_eq(dl_placement(s.nodes, s.nn, s.jobs, s.nj,
					      DL_UTIL_RAS, 10, &rows, &nrows,
					      &st),
				 0);
		for (uint32_t r = 1; r <= st.rounds && r <= DL_PL_MAX_TRACE;
		     r++)
			ck_assert_msg(st.min_utility[r] >=
					      st.min_utility[r - 1] - 1e-12,
				      "seed %llu round %u lowered the minimum "
				      "%g -> %g",
				      (unsigned long long) seed, r,
				      st.min_utility[r - 1], st.min_utility[r]);
		moved += st.moves > 0;
		free(rows);
	}
	/* the property must have been exercised by actual moves */
	ck_assert_uint_gt(moved, 10);
}
END_TEST

/* A crafted case where round 2 must move slots: round 1 fills node 0
 * with job A before job B (only allowed on node 0) is considered. */
START_TEST(test_rounds_move_to_lowest)
{
	struct dl_pl_node nodes[2] = {0};
	struct dl_pl_job jobs[2] = {0};
	struct dl_place *rows;
	uint32_t nrows;
	struct dl_pl_stats st;

	for (int n = 0; n < 2; n++) {
		set_vec(nodes[n].cap, 4, INFINITY, INFINITY);
		nodes[n].usable = true;
		nodes[n].partitions = parts_of(n == 0 ? 3 : 1);
	}
	/* A: any node, 8 maps, needs 8; B: partition 1 = node 0 only */
	set_vec(jobs[0].map, 1, 0, 0);
	jobs[0].partition = 0;
	jobs[0].maps_left = 8;
	jobs[0].s_req = 8;
	set_vec(jobs[1].map, 1, 0, 0);
	jobs[1].partition = 1;
	jobs[1].maps_left = 4;
	jobs[1].s_req = 4;
	ck_assert_int_eq(dl_placement(nodes, 2, jobs, 2, DL_UTIL_RAS, 10, &rows,
				      &nrows, &st),
			 0);
	/* round 1 fills node 0 alternately (A 2, B 2), then node 1 with A:
	 * A 6 (log6/log8 - 1), B 2 (-0.5).  Round 2 moves node 0's slots
	 * from A to B while A stays above B: A 5, B 3, the max-min optimum
	 * (A 4, B 4 would leave A at log4/log8 - 1 = -1/3). */
	ck_assert_uint_eq(jobs[0].maps, 5);
	ck_assert_uint_eq(jobs[1].maps, 3);
	ck_assert_uint_ge(st.rounds, 2);
	ck_assert_uint_gt(st.moves, 0);
	ck_assert_double_eq_tol(st.min_utility[1], -0.5, 1e-12);
	ck_assert_double_eq_tol(st.min_utility[st.rounds], log(5) / log(8) - 1,
				1e-12);
	free(rows);
}
END_TEST

/* Complementary profiles share a node up to its capacity on every
 * resource: 4 CPUs and 100 MB/s of I/O per node. */
START_TEST(test_complementary_profiles)
{
	struct dl_pl_node nodes[2] = {0};
	struct dl_pl_job jobs[2] = {0};
	struct dl_place *rows;
	uint32_t nrows;

	for (int n = 0; n < 2; n++) {
		set_vec(nodes[n].cap, 4, 8000, 100);
		nodes[n].usable = true;
		nodes[n].partitions = parts_of(1);
	}
	set_vec(jobs[0].map, 1, 500, 10); /* CPU-heavy */
	set_vec(jobs[1].map, 1, 500, 60); /* I/O-heavy */
	for (int j = 0; j < 2; j++) {
		jobs[j].partition = UINT32_MAX;
		jobs[j].maps_left = 8;
		jobs[j].s_req = 4;
	}
	ck_assert_int_eq(dl_placement(nodes, 2, jobs, 2, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 0);
	ck_assert_uint_eq(jobs[1].maps, 2); /* one I/O task per node */
	ck_assert_uint_eq(jobs[0].maps, 6); /* CPU tasks fill the cores */
	for (uint32_t k = 0; k < nrows; k++)
		if (rows[k].job == 1)
			ck_assert_uint_eq(rows[k].maps, 1);
		else
			ck_assert_uint_eq(rows[k].maps, 3);
	free(rows);
}
END_TEST

START_TEST(test_reducers_spread)
{
	struct dl_pl_node nodes[4] = {0};
	struct dl_pl_job jobs[2] = {0};
	struct dl_place *rows;
	uint32_t nrows;
	uint32_t per_node[4] = {0};

	for (int n = 0; n < 4; n++) {
		set_vec(nodes[n].cap, 8, 8000, INFINITY);
		nodes[n].usable = true;
		nodes[n].partitions = parts_of(1);
	}
	for (int j = 0; j < 2; j++) {
		jobs[j].partition = UINT32_MAX;
		set_vec(jobs[j].reduce, 1, 1000, 0);
		set_vec(jobs[j].map, 1, 100, 0);
		jobs[j].reduces_left = 2;
		jobs[j].maps_left = 0;
	}
	ck_assert_int_eq(dl_placement(nodes, 4, jobs, 2, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 0);
	for (uint32_t k = 0; k < nrows; k++)
		per_node[rows[k].node] += rows[k].reduces;
	for (int n = 0; n < 4; n++)
		ck_assert_uint_eq(per_node[n], 1); /* no two collocated */
	ck_assert_double_eq(jobs[0].utility, 1);
	/* more reducers than nodes: a job's reducers still spread first */
	jobs[0].reduces_left = 6;
	free(rows);
	ck_assert_int_eq(dl_placement(nodes, 4, jobs, 1, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 0);
	for (uint32_t k = 0; k < nrows; k++)
		ck_assert(rows[k].reduces == 1 || rows[k].reduces == 2);
	ck_assert_uint_eq(jobs[0].reduces, 6);
	free(rows);
}
END_TEST

/* A shuffling reducer's demand grows with the maps placed: on one node of
 * 100 MB/s, maps of 10 MB/s and 10 MB/s of shuffle per map (up to
 * DL_SHUFFLE_COPIES) leave room for 5 maps, not 10. */
START_TEST(test_shuffle_growth)
{
	struct dl_pl_node node = {0};
	struct dl_pl_job job = {0};
	struct dl_place *rows;
	uint32_t nrows;

	set_vec(node.cap, 64, 64000, 100);
	node.usable = true;
	node.partitions = parts_of(1);
	job.partition = UINT32_MAX;
	set_vec(job.map, 1, 100, 10);
	set_vec(job.reduce, 1, 1000, 0);
	set_vec(job.shuffle, 0, 0, 10);
	job.shuffle_mode = true;
	job.maps_left = 20;
	job.reduces_left = 1;
	job.s_req = 20;
	ck_assert_int_eq(dl_placement(&node, 1, &job, 1, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 0);
	ck_assert_uint_eq(job.reduces, 1);
	ck_assert_uint_eq(job.maps, 5);
	free(rows);
	/* without shuffle mode the reducer needs no I/O: 10 maps */
	job.shuffle_mode = false;
	ck_assert_int_eq(dl_placement(&node, 1, &job, 1, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 0);
	ck_assert_uint_eq(job.maps, 10);
	free(rows);
}
END_TEST

START_TEST(test_running_maps_are_targets)
{
	struct dl_pl_node node = {0};
	struct dl_pl_job jobs[3] = {0};
	uint32_t on0[3] = {0, 0, 0};
	struct dl_place *rows;
	uint32_t nrows;

	set_vec(node.cap, 4, INFINITY, INFINITY);
	node.usable = true;
	node.partitions = parts_of(1);
	for (int j = 0; j < 3; j++) {
		jobs[j].partition = UINT32_MAX;
		set_vec(jobs[j].map, 1, 0, 0);
		set_vec(jobs[j].reduce, 1, 0, 0);
		jobs[j].maps_left = 10;
	}
	/* job 0 runs 3 maps and needs nothing; job 1 needs 4; job 2 is in
	 * its reduce phase with its one reducer running */
	jobs[0].nmap_running = 3;
	jobs[0].map_nodes = on0;
	jobs[0].s_req = 0;
	jobs[1].s_req = 4;
	jobs[2].maps_left = 0;
	jobs[2].reduces_left = 1;
	jobs[2].nreduce_running = 1;
	jobs[2].reduce_nodes = on0;
	ck_assert_int_eq(dl_placement(&node, 1, jobs, 3, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 0);
	/* the running maps' slots are targets: job 1 (utility -2 without
	 * them) gets all three as job 0's tasks end, job 0 none; the
	 * running reducer, of the highest utility, is never moved */
	ck_assert_uint_eq(jobs[0].maps, 0);
	ck_assert_uint_eq(jobs[1].maps, 3);
	ck_assert_uint_eq(jobs[2].reduces, 1);
	ck_assert_double_eq(jobs[2].utility, 1);
	free(rows);
}
END_TEST

START_TEST(test_placement_bad_input)
{
	struct dl_pl_node node = {0};
	struct dl_pl_job job = {0};
	struct dl_place *rows;
	uint32_t nrows;

	set_vec(node.cap, 4, 100, 100);
	node.usable = true;
	job.maps_left = 3;
	job.map[0] = NAN;
	ck_assert_int_eq(dl_placement(&node, 1, &job, 1, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 EINVAL);
	job.map[0] = -1;
	ck_assert_int_eq(dl_placement(&node, 1, &job, 1, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 EINVAL);
	job.map[0] = 1;
	node.cap[1] = NAN;
	ck_assert_int_eq(dl_placement(&node, 1, &job, 1, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 EINVAL);
	node.cap[1] = 100;
	job.nmap_running = 4; /* more running than left */
	ck_assert_int_eq(dl_placement(&node, 1, &job, 1, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 EINVAL);
	ck_assert_int_eq(dl_placement(&node, 1, NULL, 1, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 EINVAL);
	/* nothing to place is fine */
	ck_assert_int_eq(dl_placement(NULL, 0, NULL, 0, DL_UTIL_RAS, 10, &rows,
				      &nrows, NULL),
			 0);
	ck_assert_uint_eq(nrows, 0);
	free(rows);
}
END_TEST

/* ---- the ras plan cycle ---- */

static void w_init(struct fx_world *w, uint32_t nodes, uint32_t cpus)
{
	char err[128];

	memset(w, 0, sizeof(*w));
	fx_cluster(&w->cl, nodes, cpus, 0);
	w->cfg = fx_config();
	ck_assert_int_eq(
		dl_config_set(&w->cfg, "Policy", "ras", err, sizeof(err)), 0);
}

static struct dl_plan *w_plan(struct fx_world *w, double now, char *err,
			      size_t len)
{
	struct dl_policy_input in = {.cluster = &w->cl,
				     .jobs = w->jobs,
				     .njobs = w->n,
				     .cfg = &w->cfg,
				     .now = now,
				     .forecast = NULL,
				     .rt = NULL};

	dl_plan_free(w->plan);
	w->plan = dl_policy_plan(&in, err, len);
	return w->plan;
}

START_TEST(test_ras_plan)
{
	struct fx_world w;
	char err[256] = "";
	struct dl_plan *p;
	const struct dl_plan_job *a, *b, *c;
	uint32_t sum_a = 0;

	w_init(&w, 4, 4);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "NodeIO", "n[1-2]=100", err, sizeof(err)),
		0);
	/* a: I/O-heavy, tight goal; b: light, relaxed; c: no deadline */
	a = NULL;
	w.jobs[w.n] = fx_job(1, 40, 0, 1000);
	w.jobs[w.n]->profile.map = (struct dl_demand){1, 0, 60};
	w.jobs[w.n]->profile.given = true;
	fx_done(w.jobs[w.n++], DL_MAP, 2, 100, 0);
	w.jobs[w.n] = fx_job(2, 40, 0, 5000);
	fx_done(w.jobs[w.n++], DL_MAP, 2, 100, 0);
	w.jobs[w.n++] = fx_job(3, 10, 0, 0);
	p = w_plan(&w, 500, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_int_eq(p->policy, DL_POLICY_RAS);
	ck_assert_uint_eq(p->nnodes, 4);
	ck_assert_double_eq(p->nodes[0].cap[2], 100);
	ck_assert(isinf(p->nodes[2].cap[2])); /* not in NodeIO, DefaultIO 0 */
	a = dl_plan_find(p, 1);
	b = dl_plan_find(p, 2);
	c = dl_plan_find(p, 3);
	ck_assert(a->managed && b->managed && !c->managed);
	/* a: 38 tasks of 100 s in 500 s: Eq. 1 says 7.6, whole waves say 8
	 * (5 waves of 8); n1 and n2 take one of its tasks each (I/O), n3
	 * and n4 are unlimited on I/O */
	ck_assert_double_eq_tol(a->sreq, 7.6, 1e-9);
	ck_assert_double_eq(a->need, 8);
	ck_assert_double_eq(a->demand[DL_MAP].io, 60);
	for (uint32_t k = 0; k < p->nplace; k++) {
		const struct dl_place *r = &p->place[k];

		ck_assert_uint_lt(r->job, p->njobs);
		if (p->jobs[r->job].job_id == 1) {
			sum_a += r->maps;
			if (r->node < 2)
				ck_assert_uint_le(r->maps, 1);
		}
		ck_assert_uint_ne(p->jobs[r->job].job_id, 3);
	}
	ck_assert_uint_eq(sum_a, a->alloc);
	ck_assert_uint_eq(a->alloc + b->alloc, 16); /* every CPU used */
	ck_assert(a->alloc >= 8);
	/* the lowest utility ranks first */
	ck_assert(isfinite(a->utility) && isfinite(b->utility));
	ck_assert_uint_eq(a->utility <= b->utility ? a->rank : b->rank, 1);
	ck_assert(strstr(a->explain, "utility") != NULL);
	fx_world_free(&w);
}
END_TEST

START_TEST(test_ras_plan_bad_input)
{
	struct fx_world w;
	char err[256] = "";

	w_init(&w, 2, 4);
	w.jobs[w.n] = fx_job(1, 4, 0, 1000);
	w.jobs[w.n++]->profile.map.io = NAN;
	ck_assert_ptr_null(w_plan(&w, 10, err, sizeof(err)));
	ck_assert(strstr(err, "profile") != NULL);
	w.jobs[0]->profile.map.io = -1;
	ck_assert_ptr_null(w_plan(&w, 10, err, sizeof(err)));
	w.jobs[0]->profile.map.io = 1;
	free(w.cfg.node_io);
	w.cfg.node_io = strdup("n[1-=5");
	ck_assert_ptr_null(w_plan(&w, 10, err, sizeof(err)));
	ck_assert(strstr(err, "NodeIO") != NULL || strstr(err, "n[1-") != NULL);
	fx_world_free(&w);
}
END_TEST

/* The map phase ends within the cycle: reducers are placed in their
 * reduce profile; otherwise (afterok, no overlap) none are. */
START_TEST(test_profile_switch)
{
	struct fx_world w;
	char err[256] = "";
	struct dl_plan *p;
	struct dl_job *j;

	w_init(&w, 4, 4);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "PlanInterval", "60", err, sizeof(err)),
		0);
	j = fx_job(1, 8, 0, 10000);
	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 2, 2, 100), 0);
	j->reduce_id = 2;
	fx_done(j, DL_MAP, 6, 100, 0);
	fx_run(j, DL_MAP, 2, 950, 0); /* 100 s tasks, 50 s left each */
	w.jobs[w.n++] = j;
	p = w_plan(&w, 1000, err, sizeof(err)); /* PlanInterval 60 s */
	ck_assert_msg(p != NULL, "%s", err);
	{
		uint32_t reduces = 0;

		for (uint32_t k = 0; k < p->nplace; k++)
			reduces += p->place[k].reduces;
		ck_assert_uint_eq(reduces, 2);
		ck_assert_double_eq(p->jobs[0].demand[DL_REDUCE].cpu, 2);
	}
	/* tasks with 300 s left: the map phase goes on; no reducers */
	j->phase[DL_MAP].running[0].start = 1000 - 20;
	j->phase[DL_MAP].sum_len[0] = 6 * 320;
	p = w_plan(&w, 1000, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	for (uint32_t k = 0; k < p->nplace; k++)
		ck_assert_uint_eq(p->place[k].reduces, 0);
	/* ... unless the reducers may overlap the maps: they shuffle */
	j->reduce_overlap = true;
	p = w_plan(&w, 1000, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s", err);
	{
		uint32_t reduces = 0;

		for (uint32_t k = 0; k < p->nplace; k++)
			reduces += p->place[k].reduces;
		ck_assert_uint_eq(reduces, 2);
	}
	fx_world_free(&w);
}
END_TEST

/* ---- enforcement: the plan index and the start rule ---- */

/* What runs now, as a table (select/deadline and the simulator count it
 * from Slurm's records and their model). */
struct fake_now {
	uint32_t here[4][2][4]; /* [job][phase][node] */
	uint32_t run[4][2];
	bool wait[4][2];
};

static uint32_t fake_here(void *ctx, uint32_t job, int phase, uint32_t node)
{
	struct fake_now *f = ctx;

	ck_assert_uint_lt(job, 4);
	ck_assert_uint_lt(node, 4);
	return f->here[job][phase][node];
}

static uint32_t fake_running(void *ctx, uint32_t job, int phase, bool *waiting)
{
	struct fake_now *f = ctx;

	ck_assert_uint_lt(job, 4);
	*waiting = f->wait[job][phase];
	return f->run[job][phase];
}

START_TEST(test_place_index)
{
	struct dl_plan *p = dl_plan_new(3);
	struct dl_place_index x;
	struct fake_now f = {0};
	struct dl_place_now now = {fake_here, fake_running, &f};
	uint32_t job;
	int phase;
	double used[3] = {0, 0, 0};

	ck_assert_ptr_nonnull(p);
	p->policy = DL_POLICY_RAS;
	p->nnodes = 2;
	p->nodes = calloc(2, sizeof(*p->nodes));
	snprintf(p->nodes[0].name, sizeof(p->nodes[0].name), "n1");
	snprintf(p->nodes[1].name, sizeof(p->nodes[1].name), "n2");
	for (int n = 0; n < 2; n++) {
		p->nodes[n].cap[0] = 4;
		p->nodes[n].cap[1] = INFINITY;
		p->nodes[n].cap[2] = 100;
	}
	/* job 0: map 10 / reduce 11, I/O heavy, 2 maps planned; job 1: map
	 * 20, 6 planned; job 2: not managed */
	p->jobs[0] = (struct dl_plan_job){.job_id = 10,
					  .reduce_id = 11,
					  .managed = true,
					  .phase = DL_MAP,
					  .alloc = 2,
					  .rank = 2};
	p->jobs[0].demand[DL_MAP] = (struct dl_demand){1, 0, 60};
	p->jobs[0].demand[DL_REDUCE] = (struct dl_demand){2, 0, 0};
	p->jobs[1] = (struct dl_plan_job){.job_id = 20,
					  .managed = true,
					  .phase = DL_MAP,
					  .alloc = 6,
					  .rank = 1};
	p->jobs[1].demand[DL_MAP] = (struct dl_demand){1, 0, 10};
	p->jobs[2] = (struct dl_plan_job){.job_id = 30};
	p->nplace = 4;
	p->place = calloc(4, sizeof(*p->place));
	p->place[0] = (struct dl_place){1, 1, 3, 0};
	p->place[1] = (struct dl_place){0, 1, 1, 0};
	p->place[2] = (struct dl_place){0, 0, 1, 1};
	p->place[3] = (struct dl_place){1, 0, 3, 0};
	ck_assert_int_eq(dl_place_index_build(&x, p), 0);
	ck_assert(dl_place_index_find(&x, 11, &job, &phase));
	ck_assert_uint_eq(job, 0);
	ck_assert_int_eq(phase, DL_REDUCE);
	ck_assert(dl_place_index_find(&x, 20, &job, &phase));
	ck_assert_uint_eq(job, 1);
	ck_assert_int_eq(phase, DL_MAP);
	ck_assert(!dl_place_index_find(&x, 30, &job, &phase)); /* unmanaged */
	ck_assert(!dl_place_index_find(&x, 99, &job, &phase));
	ck_assert_uint_eq(dl_place_index_row(&x, 1, 0)->maps, 3);
	ck_assert_ptr_null(dl_place_index_row(&x, 2, 0));
	/* planned: the allocation of the active phase, the rows of the
	 * other */
	ck_assert_uint_eq(x.planned[2 * 0 + DL_MAP], 2);
	ck_assert_uint_eq(x.planned[2 * 0 + DL_REDUCE], 1);
	ck_assert_uint_eq(x.planned[2 * 1 + DL_MAP], 6);

	/* empty node, job 1 not waiting: job 0's map may start on n1 */
	ck_assert(dl_place_may_start(&x, 0, DL_MAP, 0, &now, used));
	/* ...but not beyond the 2 maps the plan gives it, on any node */
	f.run[0][DL_MAP] = 2;
	ck_assert(!dl_place_may_start(&x, 0, DL_MAP, 0, &now, used));
	ck_assert(!dl_place_may_start(&x, 0, DL_MAP, 1, &now, used));
	f.run[0][DL_MAP] = 1;
	f.here[0][DL_MAP][0] = 1;
	/* job 1 on n1 with job 0's map running: 60 + 10 I/O, 2 CPUs */
	dl_place_add_use(p, 0, DL_MAP, used);
	ck_assert_double_eq(used[2], 60);
	ck_assert(dl_place_may_start(&x, 1, DL_MAP, 0, &now, used));
	/* with job 1's three maps there the CPUs are full (1 + 3 = 4) */
	for (int k = 0; k < 3; k++)
		dl_place_add_use(p, 1, DL_MAP, used);
	ck_assert(!dl_place_may_start(&x, 0, DL_REDUCE, 0, &now, used));
	/* I/O: two I/O-heavy maps never fit 100 MB/s, whatever the plan */
	used[0] = 1;
	used[1] = 0;
	used[2] = 60;
	ck_assert(!dl_place_may_start(&x, 0, DL_MAP, 0, &now, used));
	/* a forecast-reduced capacity binds the same way */
	used[2] = 0;
	p->nodes[0].cap[0] = 1;
	ck_assert(!dl_place_may_start(&x, 0, DL_MAP, 0, &now, used));
	/* no view of what runs, a bad node or phase: no */
	used[0] = 0;
	p->nodes[0].cap[0] = 4;
	ck_assert(dl_place_may_start(&x, 0, DL_MAP, 0, &now, used));
	ck_assert(!dl_place_may_start(&x, 0, DL_MAP, 0, NULL, used));
	ck_assert(!dl_place_may_start(&x, 0, DL_MAP, 2, &now, used));
	ck_assert(!dl_place_may_start(&x, 0, 2, 0, &now, used));
	ck_assert(!dl_place_may_start(&x, 3, DL_MAP, 0, &now, used));
	/* bad rows are refused */
	p->place[0].node = 7;
	dl_place_index_free(&x);
	ck_assert_int_eq(dl_place_index_build(&x, p), EINVAL);
	ck_assert_int_eq(dl_place_index_build(&x, NULL), 0);
	ck_assert(!dl_place_index_find(&x, 10, &job, &phase));
	dl_place_index_free(&x);
	dl_plan_free(p);
}
END_TEST

/* The room a row keeps for a job of lower utility: a job of higher
 * utility (a higher rank) may not take it, the job it is kept for may
 * take a free slot anywhere, and the reservation lapses once that job
 * runs what the plan gives it. */
START_TEST(test_start_rule_owed)
{
	struct dl_plan *p = dl_plan_new(2);
	struct dl_place_index x;
	struct fake_now f = {0};
	struct dl_place_now now = {fake_here, fake_running, &f};
	double n0[3] = {2, 0, 0}, n1[3] = {0, 0, 0};

	ck_assert_ptr_nonnull(p);
	p->policy = DL_POLICY_RAS;
	p->nnodes = 2;
	p->nodes = calloc(2, sizeof(*p->nodes));
	for (int n = 0; n < 2; n++) {
		p->nodes[n].cap[0] = 4;
		p->nodes[n].cap[1] = INFINITY;
		p->nodes[n].cap[2] = INFINITY;
	}
	/* A: high utility (rank 2), 3 maps planned: 2 on n0, 1 on n1;
	 * B: low utility (rank 1), 2 planned, both on n0 */
	p->jobs[0] = (struct dl_plan_job){.job_id = 1,
					  .managed = true,
					  .phase = DL_MAP,
					  .alloc = 3,
					  .rank = 2};
	p->jobs[1] = (struct dl_plan_job){.job_id = 2,
					  .managed = true,
					  .phase = DL_MAP,
					  .alloc = 2,
					  .rank = 1};
	for (int j = 0; j < 2; j++)
		p->jobs[j].demand[DL_MAP] = (struct dl_demand){1, 0, 0};
	p->nplace = 3;
	p->place = calloc(3, sizeof(*p->place));
	p->place[0] = (struct dl_place){0, 0, 2, 0};
	p->place[1] = (struct dl_place){0, 1, 1, 0};
	p->place[2] = (struct dl_place){1, 0, 2, 0};
	ck_assert_int_eq(dl_place_index_build(&x, p), 0);
	/* A runs 2 on n0 (below its 3), B nothing and has tasks waiting:
	 * n0's 2 free CPUs are B's; A may use its row on n1 only */
	f.run[0][DL_MAP] = 2;
	f.here[0][DL_MAP][0] = 2;
	f.wait[0][DL_MAP] = f.wait[1][DL_MAP] = true;
	ck_assert(!dl_place_may_start(&x, 0, DL_MAP, 0, &now, n0));
	ck_assert(dl_place_may_start(&x, 0, DL_MAP, 1, &now, n1));
	/* B may start on n0, and on n1 too: a free slot goes to the job of
	 * lowest utility whose task fits, A's row there or not */
	ck_assert(dl_place_may_start(&x, 1, DL_MAP, 0, &now, n0));
	ck_assert(dl_place_may_start(&x, 1, DL_MAP, 1, &now, n1));
	/* B started one on n1: one CPU of n0 is still B's, one is free */
	f.run[1][DL_MAP] = 1;
	f.here[1][DL_MAP][1] = 1;
	n1[0] = 1;
	ck_assert(dl_place_may_start(&x, 0, DL_MAP, 0, &now, n0));
	n0[0] = 3; /* ...and once A took that one, n0 is full for A */
	ck_assert(!dl_place_may_start(&x, 0, DL_MAP, 0, &now, n0));
	ck_assert(dl_place_may_start(&x, 1, DL_MAP, 0, &now, n0));
	/* B runs its 2: nothing is kept for it any more */
	f.run[1][DL_MAP] = 2;
	n0[0] = 2;
	f.run[0][DL_MAP] = 1;
	ck_assert(!dl_place_may_start(&x, 1, DL_MAP, 0, &now, n0));
	ck_assert(dl_place_may_start(&x, 0, DL_MAP, 0, &now, n0));
	/* a job with nothing waiting keeps no room either */
	f.run[1][DL_MAP] = 0;
	f.here[1][DL_MAP][1] = 0;
	f.wait[1][DL_MAP] = false;
	ck_assert(dl_place_may_start(&x, 0, DL_MAP, 0, &now, n0));
	dl_place_index_free(&x);
	dl_plan_free(p);
}
END_TEST

/* The starvation case end to end: job A fills a full cluster, holding
 * rows on every node; job B arrives with a tight goal.  The plan moves
 * some of A's running slots to B as targets, and when one of A's tasks
 * ends, on any node (its own rows included), A may not start another
 * (it is above its share) while B may: the slot is not refilled from the
 * old plan. */
START_TEST(test_ras_no_refill)
{
	struct fx_world w;
	char err[256] = "";
	const struct dl_plan_job *a, *b;
	struct dl_place_index x;
	struct fake_now f = {0};
	struct dl_place_now now = {fake_here, fake_running, &f};
	uint32_t ia, ib, rows_a = 0;

	w_init(&w, 4, 4);
	/* A: 200 tasks of 100 s, 16 running (4 per node), 180 waiting,
	 * due in time for 12 at once */
	w.jobs[w.n] = fx_job(1, 200, 0, 2700);
	fx_done(w.jobs[w.n], DL_MAP, 4, 100, 0);
	for (uint32_t n = 0; n < 4; n++)
		for (int k = 0; k < 4; k++)
			ck_assert_int_eq(dl_phase_add_running(
						 &w.jobs[w.n]->phase[DL_MAP],
						 950, n, DL_POOL_REGULAR),
					 0);
	w.n++;
	/* B: 8 tasks of 100 s (a history prior) due in 250 s: needs 4 */
	w.jobs[w.n] = fx_job(2, 8, 990, 1250);
	w.jobs[w.n]->phase[DL_MAP].prior_mean = 100;
	w.n++;
	ck_assert_msg(w_plan(&w, 1000, err, sizeof(err)) != NULL, "%s", err);
	a = fx_world_get(&w, 1);
	b = fx_world_get(&w, 2);
	ia = (uint32_t) (a - w.plan->jobs);
	ib = (uint32_t) (b - w.plan->jobs);
	/* B gets slots A's running tasks hold; A keeps rows on most nodes */
	ck_assert_uint_ge(b->alloc, 3);
	ck_assert_uint_eq(a->alloc + b->alloc, 16);
	ck_assert_int_eq(dl_place_index_build(&x, w.plan), 0);
	for (uint32_t n = 0; n < 4; n++) {
		const struct dl_place *ra = dl_place_index_row(&x, ia, n);

		rows_a += ra && ra->maps;
	}
	ck_assert_uint_ge(rows_a, 2);
	f.run[ia][DL_MAP] = 16;
	f.wait[ia][DL_MAP] = f.wait[ib][DL_MAP] = true;
	for (uint32_t n = 0; n < 4; n++)
		f.here[ia][DL_MAP][n] = 4;
	/* one of A's tasks ends on each node in turn */
	for (uint32_t n = 0; n < 4; n++) {
		double used[3] = {3, 0, 0};

		f.here[ia][DL_MAP][n] = 3;
		f.run[ia][DL_MAP] = 15;
		ck_assert_msg(
			!dl_place_may_start(&x, ia, DL_MAP, n, &now, used),
			"A refills node %u", n);
		ck_assert_msg(dl_place_may_start(&x, ib, DL_MAP, n, &now, used),
			      "B may not start on node %u", n);
		f.here[ia][DL_MAP][n] = 4;
		f.run[ia][DL_MAP] = 16;
	}
	dl_place_index_free(&x);
	fx_world_free(&w);
}
END_TEST

START_TEST(test_learned_profiles)
{
	struct dl_job *j = fx_job(1, 4, 0, 100);
	struct dl_demand learned = {1.5, 800, 20}, bad = {-1, 1, 1};

	/* no hint: the learned profile is used, for the phases it covers */
	ck_assert_int_eq(dl_profile_use_learned(j, &learned, NULL), 1);
	ck_assert_double_eq(j->profile.map.io, 20);
	ck_assert_double_eq(j->profile.reduce.cpu, 0);
	/* a hint wins */
	j->profile.map = (struct dl_demand){1, 0, 60};
	j->profile.given = true;
	ck_assert_int_eq(dl_profile_use_learned(j, &learned, &learned), 1);
	ck_assert_double_eq(j->profile.map.io, 60);
	ck_assert_double_eq(j->profile.reduce.mem, 800);
	/* invalid or empty learned values are ignored */
	j->profile.reduce = (struct dl_demand){0, 0, 0};
	ck_assert_int_eq(dl_profile_use_learned(j, NULL, &bad), 0);
	ck_assert_int_eq(
		dl_profile_use_learned(j, NULL, &(struct dl_demand){0, 0, 0}),
		0);
	ck_assert_int_eq(dl_profile_use_learned(
				 j, NULL, &(struct dl_demand){1, INFINITY, 1}),
			 0);
	ck_assert_int_eq(dl_profile_use_learned(
				 j, NULL, &(struct dl_demand){NAN, NAN, NAN}),
			 0);
	/* quantities the history has no number for count as not given */
	ck_assert_int_eq(dl_profile_use_learned(
				 j, NULL, &(struct dl_demand){1, NAN, 60}),
			 1);
	ck_assert_double_eq(j->profile.reduce.cpu, 1);
	ck_assert_double_eq(j->profile.reduce.mem, 0);
	ck_assert_double_eq(j->profile.reduce.io, 60);
	ck_assert_int_eq(dl_profile_use_learned(NULL, &learned, NULL), 0);
	dl_job_free(j);
}
END_TEST

/* sdeadline reads the plan file: utility and s_fit travel in it, and a plan
 * file written before they existed still reads (NaN). */
START_TEST(test_plan_json_utility)
{
	struct dl_plan *p = dl_plan_new(2), *q;
	char err[256] = "", *text, *old;
	char *cut;

	p->policy = DL_POLICY_REVERSE;
	p->jobs[0].job_id = 5;
	p->jobs[0].utility = -0.25;
	p->jobs[0].sfit = 3.5;
	p->jobs[1].job_id = 6;
	p->jobs[1].utility = NAN;
	p->jobs[1].sfit = NAN;
	text = dl_plan_to_string(p);
	ck_assert_ptr_nonnull(text);
	q = dl_plan_from_string(text, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_double_eq(dl_plan_find(q, 5)->utility, -0.25);
	ck_assert_double_eq(dl_plan_find(q, 5)->sfit, 3.5);
	ck_assert(isnan(dl_plan_find(q, 6)->utility));
	dl_plan_free(q);
	/* an older file: no "utility" and no "sfit" keys */
	old = strdup(text);
	while ((cut = strstr(old, "\"utility\"")) ||
	       (cut = strstr(old, "\"sfit\""))) {
		char *end = strchr(cut, ',');

		ck_assert_ptr_nonnull(end);
		memmove(cut, end + 1, strlen(end + 1) + 1);
	}
	ck_assert_ptr_null(strstr(old, "utility"));
	q = dl_plan_from_string(old, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert(isnan(dl_plan_find(q, 5)->utility));
	dl_plan_free(q);
	free(old);
	free(text);
	dl_plan_free(p);
}
END_TEST

/* The need counts whole waves: 34 tasks of 390 s due in 951 s need 17
 * slots (2 waves), not Eq. 1's 13.9 (3 waves with 14: 1170 s). */
START_TEST(test_wave_need)
{
	struct fx_world w;
	char err[256] = "";
	const struct dl_plan_job *a;

	w_init(&w, 40, 1);
	w.jobs[w.n] = fx_job(1, 36, 0, 1951);
	fx_done(w.jobs[w.n++], DL_MAP, 2, 390, 0);
	ck_assert_ptr_nonnull(w_plan(&w, 1000, err, sizeof(err)));
	a = dl_plan_find(w.plan, 1);
	ck_assert_double_eq_tol(a->sreq, 34 * 390.0 / 951, 1e-9);
	ck_assert_double_eq(a->need, 17);
	ck_assert_uint_ge(a->alloc, 17);
	ck_assert_int_eq(a->verdict, DL_VERDICT_ON_TRACK);
	/* a goal no concurrency can meet: everything left */
	w.jobs[0]->soft_deadline = 1300;
	ck_assert_ptr_nonnull(w_plan(&w, 1000, err, sizeof(err)));
	ck_assert_double_eq(dl_plan_find(w.plan, 1)->need, 34);
	fx_world_free(&w);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ras");
	TCase *u = tcase_create("utility");
	TCase *pl = tcase_create("placement");
	TCase *pol = tcase_create("policy");

	tcase_add_test(u, test_map_utility_grid);
	tcase_add_test(u, test_map_utility_paper);
	tcase_add_test(u, test_map_utility_degenerate);
	tcase_add_test(u, test_reduce_utility);
	tcase_add_test(u, test_reverse_utility);
	tcase_add_test(pl, test_placement_capacity_random);
	tcase_add_test(pl, test_rounds_never_lower_min);
	tcase_add_test(pl, test_rounds_move_to_lowest);
	tcase_add_test(pl, test_complementary_profiles);
	tcase_add_test(pl, test_reducers_spread);
	tcase_add_test(pl, test_shuffle_growth);
	tcase_add_test(pl, test_running_maps_are_targets);
	tcase_add_test(pl, test_placement_bad_input);
	tcase_add_test(pol, test_ras_plan);
	tcase_add_test(pol, test_ras_plan_bad_input);
	tcase_add_test(pol, test_wave_need);
	tcase_add_test(pol, test_profile_switch);
	tcase_add_test(pol, test_place_index);
	tcase_add_test(pol, test_start_rule_owed);
	tcase_add_test(pol, test_ras_no_refill);
	tcase_add_test(pol, test_learned_profiles);
	tcase_add_test(pol, test_plan_json_utility);
	tcase_set_timeout(pl, 60);
	suite_add_tcase(s, u);
	suite_add_tcase(s, pl);
	suite_add_tcase(s, pol);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
