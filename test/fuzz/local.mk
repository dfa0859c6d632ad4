# Fuzz targets.  Each target test/fuzz/X.c defines LLVMFuzzerTestOneInput
# and has a seed corpus in test/fuzz/corpus/X/.
#  - `make check` replays every corpus through a gcc build (replay_X);
#  - `make fuzz` builds libFuzzer binaries with clang (ASan+UBSan) in
#    test/fuzz/bin/, and `make fuzz-run FUZZ_SECONDS=N` runs each for N s.
# Other fragments add their targets to FUZZ_BINS with the same recipe.
# The core is compiled once into FUZZ_CORE_LIB (clang, instrumented for
# the fuzzer) and every target links it: compiling the core per target
# took a minute of CPU each.
FUZZ_SECONDS = 30
FUZZ_BINS =
FUZZ_CORE = $(addprefix $(srcdir)/,$(filter %.c,$(DL_CORE_SOURCES) $(DL_TOOLS_SOURCES)))
FUZZ_FLAGS = -g -O1 -fno-sanitize-recover=all -std=gnu11 $(AM_CPPFLAGS) \
	$(JSONC_CFLAGS)
FUZZ_CC = $(CLANG) -fsanitize=fuzzer,address,undefined $(FUZZ_FLAGS)
FUZZ_LIBS = $(JSONC_LIBS) -lm -lpthread
FUZZ_CORE_LIB = test/fuzz/bin/libfuzzcore.a
FUZZ_CORE_OBJS = $(patsubst $(srcdir)/%.c,test/fuzz/obj/%.o,$(FUZZ_CORE))
# objects: -fsanitize=fuzzer-no-link (coverage without libFuzzer's main)
test/fuzz/obj/%.o: $(abs_top_srcdir)/%.c
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(CLANG) -fsanitize=fuzzer-no-link,address,undefined \
		$(FUZZ_FLAGS) -c -o $@ $<
$(FUZZ_CORE_LIB): $(FUZZ_CORE_OBJS)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_GEN)rm -f $@ && $(AR) rcs $@ $(FUZZ_CORE_OBJS)
EXTRA_DIST += test/fuzz/corpus test/fuzz/run-fuzzers.sh

check_PROGRAMS += test/fuzz/replay_config test/fuzz/replay_plan_json
TESTS += test/fuzz/replay_config test/fuzz/replay_plan_json
test_fuzz_replay_config_SOURCES = test/fuzz/fuzz_config.c test/fuzz/replay_main.c
test_fuzz_replay_config_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_config"'
test_fuzz_replay_config_LDADD = $(DL_TOOLS_LIBS) $(FUZZ_LIBS)
test_fuzz_replay_plan_json_SOURCES = test/fuzz/fuzz_plan_json.c test/fuzz/replay_main.c
test_fuzz_replay_plan_json_CPPFLAGS = $(AM_CPPFLAGS) $(JSONC_CFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_plan_json"'
test_fuzz_replay_plan_json_LDADD = $(DL_TOOLS_LIBS) $(FUZZ_LIBS)

FUZZ_BINS += test/fuzz/bin/fuzz_config test/fuzz/bin/fuzz_plan_json
test/fuzz/bin/fuzz_config: $(srcdir)/test/fuzz/fuzz_config.c $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)
test/fuzz/bin/fuzz_plan_json: $(srcdir)/test/fuzz/fuzz_plan_json.c $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)

fuzz: $(FUZZ_BINS)
fuzz-run: fuzz
	$(srcdir)/test/fuzz/run-fuzzers.sh $(FUZZ_SECONDS) $(srcdir)/test/fuzz/corpus $(FUZZ_BINS)
clean-local: clean-fuzz
clean-fuzz:
	rm -rf test/fuzz/bin test/fuzz/obj test/fuzz/work
.PHONY: fuzz fuzz-run clean-fuzz
