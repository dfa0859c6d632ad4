/*
 * oracle_input.h - the simulator's instance as the core's oracle input:
 * every job with a deadline whose arrival falls in the statistics window
 * (all of them without a window), each task at its shortest possible length
 * (fastest node, local read, accelerated when it can be), and the cluster's
 * capacity over time after the external load.
 */
#ifndef SIM_ORACLE_INPUT_H
#define SIM_ORACLE_INPUT_H

#include <stddef.h>

#include "common/compare/oracle.h"
#include "common/compare/tardiness.h"
#include "common/simulate/engine.h"

/* Compute the bound for an engine that has been created (lengths drawn,
 * deadlines resolved); running it is not needed.  With tardiness_lb, also
 * the lower bound on the late jobs' total lateness (tardiness.h).  0 or
 * errno with err. */
int sim_oracle(const struct sim_engine *e, struct dl_oracle_result *res,
	       double *tardiness_lb, char *err, size_t errlen);
/* The same, and with layers (NULL: none) the lateness bound's layers
 * (dl_tardiness_bound_layers; the caller frees them). */
int sim_oracle_layers(const struct sim_engine *e, struct dl_oracle_result *res,
		      double *tardiness_lb, struct dl_tardiness_layers *layers,
		      char *err, size_t errlen);

#endif
