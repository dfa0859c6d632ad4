/*
 * realtime/verdict.c - the one-line verdicts users read (sbatch's error,
 * sdeadline): where the job would finish, who would miss, what deadline
 * would do.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "common/io/timefmt.h"
#include "common/realtime/verdict.h"

static void fmt_dur(char *buf, size_t len, double s)
{
	if (!isfinite(s))
		snprintf(buf, len, "unknown");
	else if (s < 120)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 7200)
		snprintf(buf, len, "%.1fm", s / 60);
	else
		snprintf(buf, len, "%.1fh", s / 3600);
}

/* The verdict's message; long parts are cut at the buffer's end. */
void rt_set_msg(struct dl_rt_verdict *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
}

void rt_fill_units(const struct rt_pool *pl, const struct rt_job *j,
		   struct dl_rt_verdict *v)
{
	for (int p = 0; p < DL_PHASES; p++) {
		v->units[p] = pl->units[p];
		v->slots[p] = pl->units[p] / (j->cpus[p] ? j->cpus[p] : 1);
	}
}

static void slots_text(char *buf, size_t len, const struct rt_pool *pl,
		       const struct rt_job *j)
{
	uint32_t cm = j->cpus[DL_MAP];

	if (pl->split)
		snprintf(buf, len, "%u map and %u reduce slots",
			 pl->units[DL_MAP] / cm,
			 pl->units[DL_REDUCE] / j->cpus[DL_REDUCE]);
	else if (cm == 1)
		snprintf(buf, len, "%u slots", pl->units[DL_MAP]);
	else
		snprintf(buf, len, "%u slots of %u CPUs",
			 pl->units[DL_MAP] / cm, cm);
}

static void wc_text(char *buf, size_t len, const struct rt_job *j)
{
	char m[24], r[24];

	fmt_dur(m, sizeof(m), j->wc[DL_MAP]);
	fmt_dur(r, sizeof(r), j->wc[DL_REDUCE]);
	if (j->tasks[DL_MAP] && j->tasks[DL_REDUCE])
		snprintf(buf, len, "worst-case map task %s, reduce task %s", m,
			 r);
	else if (j->tasks[DL_MAP])
		snprintf(buf, len, "worst-case task %s", m);
	else
		snprintf(buf, len, "worst-case reduce task %s", r);
}

void rt_set_blocker(struct dl_rt_verdict *v, const struct rt_blocker *b)
{
	v->blocker = b->id;
	v->blocker_ticket = b->id && b->ticket;
	v->blocker_finish = b->finish;
	v->blocker_deadline = b->deadline;
}

void rt_reject_message(struct dl_rt_verdict *v, const struct rt_pool *pl,
		       const struct rt_job *j, const char *why)
{
	char fin[40], dl[40], adm[40], slots[64], wc[96], tail[96] = "";

	dl_format_instant(v->earliest, fin, sizeof(fin));
	dl_format_instant(j->deadline, dl, sizeof(dl));
	slots_text(slots, sizeof(slots), pl, j);
	wc_text(wc, sizeof(wc), j);
	if (!isnan(v->admissible_deadline)) {
		dl_format_instant(v->admissible_deadline, adm, sizeof(adm));
		snprintf(tail, sizeof(tail),
			 "; a deadline of %s or later would be admitted", adm);
	}
	if (why) {
		rt_set_msg(v, "deadline cannot be guaranteed: %s%s", why, tail);
	} else if (v->blocker && v->earliest <= j->deadline) {
		char bf[40], bd[40], who[64];

		dl_format_instant(v->blocker_finish, bf, sizeof(bf));
		dl_format_instant(v->blocker_deadline, bd, sizeof(bd));
		if (v->blocker_ticket)
			snprintf(who, sizeof(who),
				 "a job admitted moments ago (no job id yet)");
		else
			snprintf(who, sizeof(who), "admitted job %llu",
				 (unsigned long long) v->blocker);
		rt_set_msg(v,
			   "deadline cannot be guaranteed: it would make %s "
			   "miss its deadline %s (finish %s) with %s (%s)%s",
			   who, bd, bf, slots, wc, tail);
	} else {
		rt_set_msg(
			v,
			"deadline cannot be guaranteed: earliest finish %s > "
			"%s with %s (%s)%s",
			fin, dl, slots, wc, tail);
	}
}
