# deadline-estimatord
