# Data affinity (DESIGN §4.1, doc/data-affinity.md): the --input-nodes
# locality hint and Polo's defer-or-run rule with its deferral table.
DL_CORE_SOURCES += \
	src/common/locality.c src/common/locality.h \
	src/common/affinity.c src/common/affinity.h
dist_doc_DATA += doc/data-affinity.md
