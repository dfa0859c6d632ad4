# smapreduce: submit a map array and a dependent reduce array as one
# MapReduce job (sbatch underneath); --wait shows progress and a verdict.
# Linked with the static core so the installed binary needs no libdeadline.
bin_PROGRAMS += src/smapreduce/smapreduce
MR_PROGRESS_SOURCES = src/smapreduce/mr_progress.c \
	src/smapreduce/mr_progress.h
src_smapreduce_smapreduce_SOURCES = src/smapreduce/smapreduce.c \
	$(MR_PROGRESS_SOURCES)
src_smapreduce_smapreduce_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
src_smapreduce_smapreduce_LDADD = src/common/libdeadline_static.la \
	$(SLURM_CMD_LIBS) $(JSONC_LIBS) -lm

if HAVE_CHECK
UNIT_TESTS += test/unit/test_mr_progress
test_unit_test_mr_progress_SOURCES = test/unit/test_mr_progress.c \
	test/unit/fixtures.h $(MR_PROGRESS_SOURCES)
test_unit_test_mr_progress_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/src/smapreduce
test_unit_test_mr_progress_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_mr_progress_LDADD = $(UNIT_LDADD)
endif
