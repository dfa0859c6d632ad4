# deadline-sim
