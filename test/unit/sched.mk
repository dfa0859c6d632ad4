# unit tests: sched plugin core pieces
