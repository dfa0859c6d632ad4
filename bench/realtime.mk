# benchmarks: realtime admission
