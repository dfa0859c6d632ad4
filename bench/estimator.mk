# benchmarks: estimator
