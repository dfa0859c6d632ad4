# baseline policies and the oracle bound (simulator comparisons)
