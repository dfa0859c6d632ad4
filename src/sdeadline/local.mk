# sdeadline: the current deadline plan, one row per deadline job.
# Linked with the static core: a real binary (no libtool wrapper), so that it
# can be installed setgid (see "Access to the plan" in sdeadline(1)):
#   make install SDEADLINE_GROUP=slurm-deadline
# installs it root:slurm-deadline mode 2755.
bin_PROGRAMS += src/sdeadline/sdeadline
SDL_VIEW_SOURCES = src/sdeadline/sdl_view.c src/sdeadline/sdl_view.h
src_sdeadline_sdeadline_SOURCES = src/sdeadline/sdeadline.c \
	src/sdeadline/plan_access.c src/sdeadline/plan_access.h \
	$(SDL_VIEW_SOURCES)
src_sdeadline_sdeadline_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
src_sdeadline_sdeadline_LDADD = src/common/libdeadline_static.la \
	$(JSONC_LIBS) $(SLURM_CMD_LIBS) -lm -lpthread

SDEADLINE_GROUP =
install-exec-hook: install-sdeadline-setgid
install-sdeadline-setgid:
	@if test -n "$(SDEADLINE_GROUP)"; then \
		echo " chgrp $(SDEADLINE_GROUP) + chmod 2755 $(DESTDIR)$(bindir)/sdeadline"; \
		chgrp "$(SDEADLINE_GROUP)" "$(DESTDIR)$(bindir)/sdeadline" && \
		chmod 2755 "$(DESTDIR)$(bindir)/sdeadline"; \
	fi
.PHONY: install-sdeadline-setgid

if HAVE_CHECK
UNIT_TESTS += test/unit/test_sdl_view
test_unit_test_sdl_view_SOURCES = test/unit/test_sdl_view.c \
	test/unit/fixtures.h $(SDL_VIEW_SOURCES)
test_unit_test_sdl_view_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/src/sdeadline
test_unit_test_sdl_view_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_sdl_view_LDADD = $(UNIT_LDADD)
endif
