# sdeadline: the current deadline plan, one row per deadline job
bin_PROGRAMS += src/sdeadline/sdeadline
src_sdeadline_sdeadline_SOURCES = src/sdeadline/sdeadline.c
src_sdeadline_sdeadline_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
src_sdeadline_sdeadline_LDADD = src/common/libdeadline_static.la \
	$(JSONC_LIBS) $(SLURM_LIBS) -lm -lpthread
