/*
 * deadline_opts.c - validate the deadline SPANK options with the core's
 * parsers and turn them into job control environment entries.
 */
#include "deadline_opts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/atomic_file.h"

static const char *const opt_names[DL_SPANK_OPT_COUNT] = {
	[DL_SPANK_SOFT_DEADLINE] = "soft-deadline",
	[DL_SPANK_TASK_PROFILE] = "task-profile",
	[DL_SPANK_REDUCE_COST] = "reduce-cost",
	[DL_SPANK_MAX_DELAYS] = "max-delays",
	[DL_SPANK_MR_REDUCES] = "mr-reduces",
	[DL_SPANK_INPUT_NODES] = "input-nodes",
};

const char *dl_spank_opt_name(enum dl_spank_opt which)
{
	return (unsigned) which < DL_SPANK_OPT_COUNT ? opt_names[which] : "?";
}

void dl_spank_opts_init(struct dl_spank_opts *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof(*o));
	dl_hints_init(&o->hints);
}

/* Slurm's own time format (scontrol show job, sbatch -v). */
static void format_time(double t, char *buf, size_t len)
{
	time_t tt = (time_t) t;
	struct tm tm;

	if (!(t > 0) || !localtime_r(&tt, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, len, "%.0f", t);
}

/* 9999-12-31T23:59:59Z: beyond it a time no longer means a deadline (and
 * "uts" values could exceed what a double holds exactly). */
#define DL_SPANK_LATEST_TIME 253402300799

static int set_soft(struct dl_spank_opts *o, const char *arg,
		    dl_time_parser_f parse_time, char *err, size_t errlen)
{
	time_t t = 0;

	if (parse_time && arg[0]) {
		/* Slurm 22.05's parse_time reads past the end of a value
		 * with "now" after its start (it adds the absolute index to
		 * its position: up to twice the length, plus the longest
		 * keyword it compares): give it zeros to read there */
		size_t n = strlen(arg);
		char *padded = calloc(1, 2 * n + 64);

		if (!padded) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		memcpy(padded, arg, n);
		t = parse_time(padded);
		free(padded);
	}
	if (t <= 0) {
		snprintf(err, errlen,
			 "--soft-deadline=%s: not a time; use a --deadline "
			 "format: HH:MM[:SS], YYYY-MM-DD[THH:MM[:SS]], "
			 "MM/DD[/YY], now+N[minutes|hours|days], today, "
			 "tomorrow, midnight, noon, teatime",
			 arg);
		return EINVAL;
	}
	if (t > DL_SPANK_LATEST_TIME) {
		snprintf(err, errlen,
			 "--soft-deadline=%s: later than the year 9999", arg);
		return EINVAL;
	}
	o->soft_deadline = (double) t;
	return 0;
}

/* --input-nodes: the spec, or the file it names (a '/' in the value),
 * normalised into o->input_nodes. */
static int set_input_nodes(struct dl_spank_opts *o, const char *arg, char *err,
			   size_t errlen)
{
	char msg[256] = "", *file = NULL, *norm;
	const char *text = arg;
	size_t len = 0;
	int rc;

	if (strchr(arg, '/')) {
		rc = dl_read_file(arg, DL_LOCALITY_MAX_INPUT, &file, &len);
		if (rc == EFBIG)
			snprintf(err, errlen,
				 "--input-nodes=%s: the file is larger than "
				 "%u bytes",
				 arg, DL_LOCALITY_MAX_INPUT);
		else if (rc == EINVAL)
			snprintf(err, errlen,
				 "--input-nodes=%s: not a regular file", arg);
		else if (rc)
			snprintf(err, errlen,
				 "--input-nodes=%s: cannot read the file: %s",
				 arg, dl_file_strerror(rc));
		else if (strlen(file) != len)
			snprintf(err, errlen,
				 "--input-nodes=%s: the file holds a NUL byte",
				 arg);
		if (rc || strlen(file) != len) {
			free(file);
			return EINVAL;
		}
		text = file;
	}
	norm = malloc(sizeof(o->input_nodes));
	if (!norm) {
		free(file);
		snprintf(err, errlen, "--input-nodes: out of memory");
		return ENOMEM;
	}
	rc = dl_locality_normalise(text, norm, sizeof(o->input_nodes), msg,
				   sizeof(msg));
	if (rc)
		snprintf(err, errlen, "--input-nodes=%.80s%s: %s", arg,
			 strlen(arg) > 80 ? "..." : "", msg);
	else
		memcpy(o->input_nodes, norm, strlen(norm) + 1);
	free(norm);
	free(file);
	return rc ? EINVAL : 0;
}

int dl_spank_opt_set(struct dl_spank_opts *o, enum dl_spank_opt which,
		     const char *arg, dl_time_parser_f parse_time, char *err,
		     size_t errlen)
{
	struct dl_job_hints h;
	char msg[256] = "", own[512];
	int rc = EINVAL;

	/* msg: the core's message; err: what the user reads (never msg) */
	if (!err || !errlen) {
		err = own;
		errlen = sizeof(own);
	}
	err[0] = '\0';
	if (!o || (unsigned) which >= DL_SPANK_OPT_COUNT) {
		snprintf(err, errlen, "unknown deadline option");
		return EINVAL;
	}
	if (!arg) {
		snprintf(err, errlen, "--%s needs a value",
			 dl_spank_opt_name(which));
		return EINVAL;
	}
	h = o->hints;
	switch (which) {
	case DL_SPANK_SOFT_DEADLINE:
		rc = set_soft(o, arg, parse_time, err, errlen);
		break;
	case DL_SPANK_TASK_PROFILE:
		rc = dl_hints_parse_profile(arg, &h, msg, sizeof(msg));
		break;
	case DL_SPANK_REDUCE_COST:
		rc = dl_hints_parse_reduce_cost(arg, &h.reduce_cost, msg,
						sizeof(msg));
		break;
	case DL_SPANK_MAX_DELAYS:
		rc = dl_hints_parse_max_delays(arg, &h.max_delays, msg,
					       sizeof(msg));
		break;
	case DL_SPANK_MR_REDUCES:
		rc = dl_hints_parse_mr_reduces(arg, &h.mr_reduces, msg,
					       sizeof(msg));
		break;
	case DL_SPANK_INPUT_NODES:
		rc = set_input_nodes(o, arg, err, errlen);
		break;
	default:
		break;
	}
	if (rc) {
		if (which != DL_SPANK_SOFT_DEADLINE &&
		    which != DL_SPANK_INPUT_NODES)
			snprintf(err, errlen, "--%s=%s: %s",
				 dl_spank_opt_name(which), arg, msg);
		return rc;
	}
	o->hints = h;
	o->given[which] = true;
	return 0;
}

int dl_spank_opts_check(const struct dl_spank_opts *o, double now,
			double hard_deadline, double begin, char *err,
			size_t errlen)
{
	char msg[256] = "", own[512], soft[32], other[32];

	if (!err || !errlen) {
		err = own;
		errlen = sizeof(own);
	}
	err[0] = '\0';
	if (!o) {
		snprintf(err, errlen, "no deadline options");
		return EINVAL;
	}
	if (!o->given[DL_SPANK_SOFT_DEADLINE])
		return 0;
	format_time(o->soft_deadline, soft, sizeof(soft));
	if (!isfinite(hard_deadline) || hard_deadline < 0)
		hard_deadline = 0;
	if (dl_hints_check_soft(o->soft_deadline, hard_deadline, now, msg,
				sizeof(msg))) {
		if (hard_deadline > 0 && o->soft_deadline > hard_deadline) {
			format_time(hard_deadline, other, sizeof(other));
			snprintf(err, errlen,
				 "--soft-deadline=%s is later than "
				 "--deadline=%s: a soft deadline (completion "
				 "goal) must not be after the hard one",
				 soft, other);
		} else {
			snprintf(err, errlen, "--soft-deadline=%s: %s", soft,
				 msg);
		}
		return EINVAL;
	}
	if (isfinite(begin) && begin > 0 && o->soft_deadline <= begin) {
		format_time(begin, other, sizeof(other));
		snprintf(err, errlen,
			 "--soft-deadline=%s is not after --begin=%s: the job "
			 "cannot run before its soft deadline",
			 soft, other);
		return EINVAL;
	}
	return 0;
}

int dl_spank_opts_warning(const struct dl_spank_opts *o, double hard_deadline,
			  char *buf, size_t len)
{
	if (!o || !buf || !len)
		return 0;
	buf[0] = '\0';
	if (o->given[DL_SPANK_MAX_DELAYS] && !o->given[DL_SPANK_INPUT_NODES]) {
		snprintf(buf, len,
			 "deadline: --max-delays has no effect without "
			 "--input-nodes (which nodes hold each task's input)");
		return 1;
	}
	if (o->given[DL_SPANK_INPUT_NODES] &&
	    !o->given[DL_SPANK_SOFT_DEADLINE] && hard_deadline == 0) {
		snprintf(buf, len,
			 "deadline: --input-nodes has no effect without "
			 "--deadline or --soft-deadline");
		return 1;
	}
	return 0;
}

int dl_spank_opts_env(const struct dl_spank_opts *o,
		      struct dl_spank_env out[DL_SPANK_OPT_COUNT])
{
	int n = 0, len = 0;

	if (!o || !out)
		return -1;
	for (int i = 0; i < DL_SPANK_OPT_COUNT; i++) {
		struct dl_spank_env *e = &out[n];

		if (!o->given[i])
			continue;
		e->value = e->buf;
		switch ((enum dl_spank_opt) i) {
		case DL_SPANK_SOFT_DEADLINE:
			e->name = DL_ENV_SOFT_DEADLINE;
			len = snprintf(e->buf, sizeof(e->buf), "%.0f",
				       o->soft_deadline);
			break;
		case DL_SPANK_TASK_PROFILE:
			e->name = DL_ENV_TASK_PROFILE;
			len = dl_hints_format_profile(&o->hints, e->buf,
						      sizeof(e->buf))
				      ? -1
				      : 0;
			break;
		case DL_SPANK_REDUCE_COST:
			e->name = DL_ENV_REDUCE_COST;
			len = snprintf(e->buf, sizeof(e->buf), "%.17g",
				       o->hints.reduce_cost);
			break;
		case DL_SPANK_MAX_DELAYS:
			e->name = DL_ENV_MAX_DELAYS;
			len = snprintf(e->buf, sizeof(e->buf), "%d",
				       (int) o->hints.max_delays);
			break;
		case DL_SPANK_MR_REDUCES:
			e->name = DL_ENV_MR_REDUCES;
			len = snprintf(e->buf, sizeof(e->buf), "%d",
				       (int) o->hints.mr_reduces);
			break;
		case DL_SPANK_INPUT_NODES:
			e->name = DL_ENV_INPUT_NODES;
			e->value = o->input_nodes;
			len = o->input_nodes[0] ? 0 : -1;
			break;
		default:
			len = -1;
			break;
		}
		if (len < 0 || (size_t) len >= sizeof(e->buf))
			return -1;
		n++;
	}
	return n;
}
