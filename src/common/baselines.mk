# baseline policies and the oracle bound (simulator comparisons)
DL_CORE_SOURCES += \
	src/common/policy_baseline.c src/common/policy_baseline.h \
	src/common/oracle.c src/common/oracle.h
