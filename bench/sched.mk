# benchmarks: sched plugin lock hold time
