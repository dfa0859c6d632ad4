# ras and reverse policies in the core
DL_CORE_SOURCES += \
	src/common/nodeset.c src/common/nodeset.h \
	src/common/forecast.c src/common/forecast.h \
	src/common/utility.c src/common/utility.h \
	src/common/placement.c src/common/placement.h \
	src/common/policy_ras.c src/common/policy_ras.h \
	src/common/policy_reverse.c src/common/policy_reverse.h \
	src/common/place_index.c src/common/place_index.h \
	src/common/usage.c src/common/usage.h
EXTRA_DIST += doc/ras-reverse.md doc/select-deadline.md bench/results/ras-bench.md \
	bench/results/ras-sim-reverse.md
