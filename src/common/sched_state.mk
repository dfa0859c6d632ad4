# core pieces of the sched plugin: observation tracker, saved state
