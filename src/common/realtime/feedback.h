/*
 * realtime/feedback.h - the feedback controller's threshold (private to
 * realtime/).
 */
#ifndef DL_RT_FEEDBACK_H
#define DL_RT_FEEDBACK_H

#include "common/realtime/internal.h"

/* Δ of Alg. V: the configured FeedbackThreshold, else the job's typical
 * map length, else its worst case. */
double rt_feedback_delta(const struct dl_rt_state *st, const struct rt_job *j);

#endif
