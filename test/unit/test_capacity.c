/*
 * test_capacity.c - node classes, slot counting and taking; the heap.
 */
#include <math.h>

#include "common/policy/capacity.h"
#include "common/policy/heap.h"
#include "fixtures.h"

START_TEST(test_classes)
{
	struct dl_cluster cl;
	struct dl_capacity cap;

	fx_cluster(&cl, 6, 4, 2);
	cl.nodes[5].up = false;
	cl.nodes[4].cpus_other = 3; /* a job we do not manage */
	ck_assert_int_eq(dl_capacity_build(&cap, &cl), 0);
	ck_assert_uint_eq(cap.ncls, 2);
	ck_assert(cap.has_pool[DL_POOL_ACCEL] && cap.has_pool[DL_POOL_REGULAR]);
	ck_assert_double_eq(dl_capacity_slots(&cap, 0, -1, 1, 0, true), 17);
	ck_assert_double_eq(
		dl_capacity_slots(&cap, 0, DL_POOL_ACCEL, 1, 0, true), 8);
	ck_assert_double_eq(dl_capacity_slots(&cap, 0, -1, 2, 0, true), 8);
	/* partition 1 has no nodes */
	ck_assert_double_eq(dl_capacity_slots(&cap, 1, -1, 1, 0, true), 0);
	dl_capacity_free(&cap);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(test_take)
{
	struct dl_cluster cl;
	struct dl_capacity cap;
	int taken = 0;

	fx_cluster(&cl, 2, 3, 0);
	ck_assert_int_eq(dl_capacity_build(&cap, &cl), 0);
	while (dl_capacity_take(&cap, 0, -1, 2, 1000) >= 0)
		taken++;
	ck_assert_int_eq(taken, 3); /* 6 CPUs / 2 */
	ck_assert_double_eq(dl_capacity_slots(&cap, 0, -1, 2, 0, false), 0);
	ck_assert_double_eq(dl_capacity_slots(&cap, 0, -1, 2, 0, true), 3);
	ck_assert_int_eq(dl_capacity_take(&cap, 0, -1, 0, 0), -1);
	ck_assert_int_eq(dl_capacity_take(NULL, 0, -1, 1, 0), -1);
	dl_capacity_free(&cap);
	dl_cluster_free(&cl);
	/* an empty cluster */
	ck_assert_int_eq(dl_capacity_build(&cap, NULL), 0);
	ck_assert_int_eq(dl_capacity_take(&cap, 0, -1, 1, 0), -1);
	dl_capacity_free(&cap);
}
END_TEST

static int before_int(uint32_t a, uint32_t b, void *ctx)
{
	const int *v = ctx;

	return (v[a] > v[b]) - (v[a] < v[b]);
}

START_TEST(test_heap_order)
{
	int v[200];
	struct dl_heap h;
	uint32_t i, prev = 0;
	int last = 1 << 30;

	for (i = 0; i < 200; i++)
		v[i] = (int) ((i * 7919u) % 211u);
	ck_assert_int_eq(dl_heap_init(&h, 2, before_int, v), 0);
	for (i = 0; i < 200; i++)
		ck_assert_int_eq(dl_heap_push(&h, i), 0);
	ck_assert(dl_heap_peek(&h, &prev));
	for (i = 0; i < 200; i++) {
		uint32_t it;

		ck_assert(dl_heap_pop(&h, &it));
		ck_assert_int_le(v[it], last);
		last = v[it];
	}
	ck_assert(!dl_heap_pop(&h, &prev));
	dl_heap_free(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("capacity");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_classes);
	tcase_add_test(tc, test_take);
	tcase_add_test(tc, test_heap_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
