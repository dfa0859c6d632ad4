# benchmarks: ras/reverse placement
