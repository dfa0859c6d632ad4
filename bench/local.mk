# benchmarks (bench/*.c), built by make bench
