# libdeadline, the core: plain C11, no Slurm headers.  One folder per
# subsystem (doc/architecture.md has the map).
#
# Two libraries, so that slurmctld and Slurm's client commands load only
# what the plugins use:
#   libdeadline.la        installed, shared: what the plugins and user
#                         commands need (also built static for the tools);
#   libdeadline_tools.la  not installed, static: what only the simulator,
#                         the estimator daemon, the benchmarks and the tests
#                         need (comparison baselines, the oracle bound, the
#                         estimator's in-memory history).
lib_LTLIBRARIES += src/common/libdeadline.la
DL_CORE_SOURCES = \
	src/common/model/model.c src/common/model/model.h \
	src/common/model/partset.c src/common/model/partset.h \
	src/common/model/nodeset.c src/common/model/nodeset.h \
	src/common/model/locality.c src/common/model/locality.h \
	src/common/model/job_hints.c src/common/model/job_hints.h \
	src/common/model/forecast.c src/common/model/forecast.h \
	src/common/estimate/estimate.c src/common/estimate/estimate.h \
	src/common/estimate/goal.c src/common/estimate/goal.h \
	src/common/estimate/stats.c src/common/estimate/stats.h \
	src/common/estimate/predictor.c src/common/estimate/predictor.h \
	src/common/estimate/usage.c src/common/estimate/usage.h \
	src/common/estimate/est_proto.c src/common/estimate/est_proto.h \
	src/common/estimate/estimator_client.c \
	src/common/estimate/estimator_client.h \
	src/common/estimate/prior_cache.c src/common/estimate/prior_cache.h \
	src/common/policy/policy.c src/common/policy/policy.h \
	src/common/policy/input.c src/common/policy/input.h \
	src/common/policy/adaptive.c src/common/policy/adaptive.h \
	src/common/policy/ras.c src/common/policy/ras.h \
	src/common/policy/reverse.c src/common/policy/reverse.h \
	src/common/policy/capacity.c src/common/policy/capacity.h \
	src/common/policy/heap.c src/common/policy/heap.h \
	src/common/policy/utility.c src/common/policy/utility.h \
	src/common/policy/placement.c src/common/policy/placement.h \
	src/common/policy/place_index.c src/common/policy/place_index.h \
	src/common/policy/affinity.c src/common/policy/affinity.h \
	src/common/policy/share.c src/common/policy/share.h \
	src/common/policy/lookahead.c src/common/policy/lookahead.h \
	src/common/policy/triage.c src/common/policy/triage.h \
	src/common/policy/width_limit.c src/common/policy/width_limit.h \
	src/common/policy/reserve.c src/common/policy/reserve.h \
	src/common/policy/fair.c src/common/policy/fair.h \
	src/common/realtime/realtime.h src/common/realtime/internal.h \
	src/common/realtime/state.c \
	src/common/realtime/pool.c src/common/realtime/pool.h \
	src/common/realtime/chain.c src/common/realtime/chain.h \
	src/common/realtime/place.c src/common/realtime/place.h \
	src/common/realtime/admit.c src/common/realtime/admit.h \
	src/common/realtime/reduce.c \
	src/common/realtime/verdict.c src/common/realtime/verdict.h \
	src/common/realtime/feedback.c src/common/realtime/feedback.h \
	src/common/realtime/tickets.c \
	src/common/realtime/wc_cache.c src/common/realtime/wc_cache.h \
	src/common/realtime/query.c \
	src/common/realtime/sync.c src/common/realtime/state_json.c \
	src/common/realtime/shared.c \
	src/common/realtime/vector.c src/common/realtime/vector.h \
	src/common/realtime/worst.c src/common/realtime/worst.h \
	src/common/realtime/dispatch.c src/common/realtime/dispatch.h \
	src/common/realtime/plan_cycle.c src/common/realtime/plan_cycle.h \
	src/common/plan/plan.c src/common/plan/plan.h \
	src/common/plan/plan_json.c src/common/plan/plan_json.h \
	src/common/plan/decide.c src/common/plan/decide.h \
	src/common/plan/sched_state.c src/common/plan/sched_state.h \
	src/common/plan/id_index.c src/common/plan/id_index.h \
	src/common/plan/alert.c src/common/plan/alert.h \
	src/common/simulate/engine.c src/common/simulate/engine.h \
	src/common/simulate/policy.h \
	src/common/simulate/core_policy.c src/common/simulate/core_policy.h \
	src/common/simulate/spec.c src/common/simulate/spec.h \
	src/common/simulate/dist.c src/common/simulate/dist.h \
	src/common/simulate/rng.c src/common/simulate/rng.h \
	src/common/portfolio/score.c src/common/portfolio/score.h \
	src/common/portfolio/round.c src/common/portfolio/round.h \
	src/common/portfolio/scale.c src/common/portfolio/scale.h \
	src/common/portfolio/future.c src/common/portfolio/future.h \
	src/common/portfolio/forecast.c src/common/portfolio/forecast.h \
	src/common/portfolio/hindsight.c src/common/portfolio/hindsight.h \
	src/common/portfolio/choose.c src/common/portfolio/choose.h \
	src/common/portfolio/portfolio.c src/common/portfolio/portfolio.h \
	src/common/config/config.c src/common/config/config.h \
	src/common/config/kv_file.c src/common/config/kv_file.h \
	src/common/io/atomic_file.c src/common/io/atomic_file.h \
	src/common/io/utf8.c src/common/io/utf8.h \
	src/common/io/log.c src/common/io/log.h \
	src/common/io/clock.c src/common/io/clock.h \
	src/common/io/grow.c src/common/io/grow.h \
	src/common/io/json.c src/common/io/json.h \
	src/common/io/timefmt.c src/common/io/timefmt.h
src_common_libdeadline_la_SOURCES = $(DL_CORE_SOURCES)
src_common_libdeadline_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) -pthread
src_common_libdeadline_la_LIBADD = $(JSONC_LIBS) -lm -lpthread
src_common_libdeadline_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 \
	-export-symbols-regex '^dl_'

# The same objects as a static convenience library (no runtime path).
noinst_LTLIBRARIES += src/common/libdeadline_static.la
src_common_libdeadline_static_la_SOURCES = $(DL_CORE_SOURCES)
src_common_libdeadline_static_la_CFLAGS = $(src_common_libdeadline_la_CFLAGS)
src_common_libdeadline_static_la_LIBADD = $(JSONC_LIBS) -lm -lpthread

# Simulator, estimator daemon, benchmarks and tests only.
noinst_LTLIBRARIES += src/common/libdeadline_tools.la
DL_TOOLS_SOURCES = \
	src/common/compare/baseline.c src/common/compare/baseline.h \
	src/common/compare/oracle.c src/common/compare/oracle.h \
	src/common/compare/alone.c src/common/compare/alone.h \
	src/common/compare/tardiness.c src/common/compare/tardiness.h \
	src/common/compare/dc.c src/common/compare/dc.h \
	src/common/estimate/history.c src/common/estimate/history.h
src_common_libdeadline_tools_la_SOURCES = $(DL_TOOLS_SOURCES)
src_common_libdeadline_tools_la_CFLAGS = $(src_common_libdeadline_la_CFLAGS)
src_common_libdeadline_tools_la_LIBADD = src/common/libdeadline_static.la

# The libraries a tool links: the tools part, then the core it uses.
DL_TOOLS_LIBS = src/common/libdeadline_tools.la src/common/libdeadline_static.la

dist_doc_DATA += doc/data-affinity.md doc/realtime.md
EXTRA_DIST += doc/ras-reverse.md doc/select-deadline.md \
	bench/results/ras-bench.md bench/results/ras-sim-reverse.md
