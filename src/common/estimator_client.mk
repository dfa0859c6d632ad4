# estimator client in the core (issue: deadline-estimatord): the predictor
# formulas, the in-memory history, the protocol and the client (the
# forecast f(t) it serves is src/common/forecast.[ch], in ras.mk).  No SQLite here: libdeadline is loaded by Slurm client commands.
DL_CORE_SOURCES += \
	src/common/stats.c src/common/stats.h \
	src/common/predictor.c src/common/predictor.h \
	src/common/history.c src/common/history.h \
	src/common/est_proto.c src/common/est_proto.h \
	src/common/estimator_client.c src/common/estimator_client.h
