# estimator client in the core (issue: deadline-estimatord)
