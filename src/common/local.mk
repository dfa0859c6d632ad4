# libdeadline: the core (policies, model, estimates, plan), plain C11.
# Other fragments append to DL_CORE_SOURCES; Makefile.am assigns it last.
lib_LTLIBRARIES += src/common/libdeadline.la
DL_CORE_SOURCES = \
	src/common/atomic_file.c src/common/atomic_file.h \
	src/common/capacity.c src/common/capacity.h \
	src/common/dl_config.c src/common/dl_config.h \
	src/common/dl_log.c src/common/dl_log.h \
	src/common/estimate.c src/common/estimate.h \
	src/common/goal.c src/common/goal.h \
	src/common/heap.c src/common/heap.h \
	src/common/job_hints.c src/common/job_hints.h \
	src/common/kv_file.c src/common/kv_file.h \
	src/common/model.c src/common/model.h \
	src/common/plan.c src/common/plan.h \
	src/common/plan_json.c src/common/plan_json.h \
	src/common/policy.c src/common/policy.h \
	src/common/policy_adaptive.c src/common/policy_adaptive.h
src_common_libdeadline_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) -pthread
src_common_libdeadline_la_LIBADD = $(JSONC_LIBS) -lm -lpthread
src_common_libdeadline_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 \
	-export-symbols-regex '^dl_'

# The same objects as a static convenience library for the tests, the
# simulator and the benchmarks (no runtime path needed).
noinst_LTLIBRARIES += src/common/libdeadline_static.la
src_common_libdeadline_static_la_CFLAGS = $(src_common_libdeadline_la_CFLAGS)
src_common_libdeadline_static_la_LIBADD = $(JSONC_LIBS) -lm -lpthread
