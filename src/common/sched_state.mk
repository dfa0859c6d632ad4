# core pieces of the sched plugin: observation tracker, saved state
DL_CORE_SOURCES += src/common/sched_state.c src/common/sched_state.h
