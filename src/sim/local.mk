# deadline-sim: the trace-driven simulator (doc/simulator.md): its command
# line, policy registry, generators, trace adapters and output around the
# core's engine (src/common/simulate).  Its code is also a convenience
# library so the unit tests and the fuzz target can call the parsers
# directly.
noinst_LTLIBRARIES += src/sim/libsim.la
src_sim_libsim_la_SOURCES = \
	src/sim/admission.c src/sim/admission.h \
	src/sim/gen.h src/sim/gen_kinds.h \
	src/sim/gen_papers.c src/sim/gen_phased.c src/sim/gen_traces.c \
	src/sim/gen_util.c \
	src/sim/oracle_input.c src/sim/oracle_input.h \
	src/sim/output.c src/sim/output.h \
	src/sim/seeds.c src/sim/seeds.h \
	src/sim/policies.c src/sim/policy.h \
	src/sim/spec.c src/sim/spec.h
src_sim_libsim_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
src_sim_libsim_la_LIBADD = $(DL_TOOLS_LIBS) $(JSONC_LIBS) -lm

bin_PROGRAMS += src/sim/deadline-sim
src_sim_deadline_sim_SOURCES = src/sim/main.c
src_sim_deadline_sim_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
src_sim_deadline_sim_LDADD = src/sim/libsim.la $(JSONC_LIBS) -lm -lpthread

dist_man_MANS += doc/deadline-sim.1
dist_doc_DATA += doc/simulator.md
