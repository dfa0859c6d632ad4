# benchmarks and reproductions: simulator
