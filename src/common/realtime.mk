# realtime policy (admission control) in the core: slot-availability
# vectors, worst-case lengths, the reservation walk, the admitted set with
# admission and feedback, its resync with the live state and persistence,
# the Deadline Constraint baseline, and the policy's plan.
DL_CORE_SOURCES += \
	src/common/rt_vector.c src/common/rt_vector.h \
	src/common/rt_worst.c src/common/rt_worst.h \
	src/common/rt_dispatch.c src/common/rt_dispatch.h \
	src/common/realtime.c src/common/realtime.h src/common/rt_internal.h \
	src/common/rt_sync.c src/common/rt_json.c \
	src/common/rt_dc.c src/common/rt_dc.h \
	src/common/policy_realtime.c src/common/policy_realtime.h \
	src/common/id_index.c src/common/id_index.h

# design notes of the realtime policy
dist_doc_DATA += doc/realtime.md
