# documentation and man pages
# Man pages of every component (installed under $(mandir), rendered by
# man).  doc/check-man.sh (make check) renders each with groff and compares
# deadline.conf(5) with the core's option table.
dist_man_MANS += doc/deadline.conf.5 doc/sdeadline.1 doc/smapreduce.1 \
	doc/spank_deadline.8
dist_doc_DATA += doc/admin-guide.md doc/user-guide.md doc/ux.md \
	doc/sched-deadline.md doc/localcluster.md doc/architecture.md \
	doc/select-deadline.md doc/security.md doc/design.md \
	doc/slurm-facts.md doc/slurm-versions.md doc/quickstart-timeline.png

check_PROGRAMS += doc/check_conf_man
doc_check_conf_man_SOURCES = doc/check_conf_man.c
doc_check_conf_man_LDADD = src/common/libdeadline_static.la $(JSONC_LIBS) \
	-lm -lpthread
TESTS += doc/check-man.sh
EXTRA_DIST += doc/check-man.sh

# Every code name the guides put in backticks exists (in the tree or, for
# Slurm's functions, in the configured Slurm source), and nothing refers to
# a document outside the repository (doc/check-refs.py).
AM_TESTS_ENVIRONMENT = SLURM_SRC='$(SLURM_SRC)'; export SLURM_SRC;
TESTS += doc/check-refs.sh
EXTRA_DIST += doc/check-refs.sh doc/check-refs.py
