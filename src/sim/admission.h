/*
 * admission.h - the simulator's admission-based policies (doc/simulator.md,
 * "Admission-based policies"): realtime (the project's, doc/realtime.md),
 * rtmr (RTMR as published: EDF position only, ever-growing c^max) and dc
 * (Kc & Anyanwu's Deadline Constraint test with EDF dispatch).  Their
 * hooks only translate between the engine's records and the core
 * (realtime.h, realtime/worst.h, realtime/dispatch.h, compare/dc.h, history.h).
 */
#ifndef SIM_ADMISSION_H
#define SIM_ADMISSION_H

#include "sim/policy.h"

/* Which admission policy a registry entry is (its arg). */
enum sim_adm_kind {
	SIM_ADM_REALTIME = 0,
	SIM_ADM_RTMR,
	SIM_ADM_DC,
};

int sim_adm_init(const struct sim_policy *self, struct sim_engine *eng,
		 void **state, char *err, size_t errlen);
void sim_adm_fini(void *state);
bool sim_adm_admit(void *state, struct sim_engine *eng, uint32_t job, char *why,
		   size_t whylen);
struct dl_plan *sim_adm_plan(void *state, const struct sim_policy *self,
			     struct sim_engine *eng,
			     const struct dl_policy_input *in, char *err,
			     size_t errlen);
void sim_adm_task_end(void *state, struct sim_engine *eng, uint32_t job,
		      int phase, uint32_t task);
void sim_adm_job_end(void *state, struct sim_engine *eng, uint32_t job);
bool sim_adm_may_start(void *state, struct sim_engine *eng, uint32_t job,
		       int phase);

/* What a run of an admission policy did (for the log and the tests). */
struct sim_adm_stats {
	uint32_t judged, admitted;
	uint32_t feedback_updates; /* Alg. V rebuilt the vectors */
	uint32_t wc_history;       /* worst cases from the name's history */
	uint32_t wc_limit;         /* ... from the time limit */
	double cmax[2];            /* rtmr, dc: c^max per phase (s/MB) */
};
void sim_adm_get_stats(const void *state, struct sim_adm_stats *out);

#endif
