/*
 * fuzz_spank_opts.c - the deadline SPANK options: any option text gets a
 * value or a message, never a crash; what is accepted reaches the job
 * control environment and reads back unchanged through dl_hints_from_env()
 * (the sched plugin's side); the soft deadline checks hold.
 *
 * Input: lines "<k><value>", k selecting the option ((k - '0') % 6 in enum
 * order: 0 soft deadline, 1 profile, 2 reduce cost, 3 max delays, 4 reduces,
 * 5 input nodes; values with a '/', which name a file, are skipped); times
 * go through Slurm's own parser from libslurm, as in sbatch.  Every line's
 * value is also read as job_submit/deadline's array limit mark
 * (DEADLINE_ARRAY_LIMIT), which any client can put in the environment: it
 * is taken only as digits up to UINT32_MAX, the same way alone and inside
 * an environment, and reads back as the number it printed.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deadline_opts.h"

extern time_t slurm_parse_time(const char *time_str, int past);
/* job_submit's hold request mark: only "user" and "admin" are one, the
 * name round-trips, and no mark is a hint the sched side refuses. */
static void check_hold_request(const char *text)
{
	char entry[64], err[160];
	char *env[1] = {entry};
	struct dl_job_hints h;
	enum dl_hold_request r = dl_hints_parse_hold_request(text);

	if ((r != DL_HOLD_REQUEST_NONE) !=
	    (!strcmp(text, "user") || !strcmp(text, "admin")))
		__builtin_trap();
	if (r && dl_hints_parse_hold_request(dl_hold_request_name(r)) != r)
		__builtin_trap();
	if (snprintf(entry, sizeof(entry), "%s=%s", DL_ENV_HOLD_REQUEST,
		     text) >= (int) sizeof(entry))
		return;
	if (dl_hints_hold_request_from_env(env, 1) != r ||
	    dl_hints_from_env(env, 1, &h, err, sizeof(err)))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* parse_time prints "Invalid time specification" on stderr for most inputs;
 * keep the fuzzer's log readable (sanitizer reports come from our code,
 * outside this window). */
static time_t quiet_parse_time(const char *text)
{
	static int devnull = -1;
	int saved;
	time_t t;

	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	fflush(stderr);
	saved = dup(2);
	if (devnull >= 0)
		dup2(devnull, 2);
	t = slurm_parse_time(text, 0);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	return t;
}

static void check_env(const struct dl_spank_opts *o)
{
	struct dl_spank_env env[DL_SPANK_OPT_COUNT];
	char entries[DL_SPANK_OPT_COUNT][200];
	char *ptrs[DL_SPANK_OPT_COUNT];
	struct dl_job_hints h, again;
	char err[256], buf[200];
	int n = dl_spank_opts_env(o, env);

	if (n < 0)
		return; /* too long for the environment: refused in sbatch */
	for (int i = 0; i < n; i++) {
		if (!strcmp(env[i].name, DL_ENV_INPUT_NODES)) {
			/* the normal form is a fixed point */
			static char normal[DL_LOCALITY_MAX_TEXT + 1];

			if (dl_locality_normalise(env[i].value, normal,
						  sizeof(normal), err,
						  sizeof(err)) ||
			    strcmp(normal, env[i].value))
				__builtin_trap();
		}
		snprintf(entries[i], sizeof(entries[i]), "%s%s=%s",
			 DL_ENV_PREFIX, env[i].name, env[i].value);
		ptrs[i] = entries[i];
	}
	if (dl_hints_from_env(ptrs, (uint32_t) n, &h, err, sizeof(err)))
		__builtin_trap(); /* an accepted value the sched side refuses */
	if (o->given[DL_SPANK_SOFT_DEADLINE] &&
	    h.soft_deadline != o->soft_deadline)
		__builtin_trap();
	if (o->given[DL_SPANK_REDUCE_COST] &&
	    h.reduce_cost != o->hints.reduce_cost)
		__builtin_trap();
	if (o->given[DL_SPANK_MAX_DELAYS] &&
	    h.max_delays != o->hints.max_delays)
		__builtin_trap();
	if (o->given[DL_SPANK_MR_REDUCES] &&
	    h.mr_reduces != o->hints.mr_reduces)
		__builtin_trap();
	if (o->given[DL_SPANK_TASK_PROFILE]) {
		/* the normalised form is a fixed point */
		if (!h.has_profile ||
		    dl_hints_format_profile(&h, buf, sizeof(buf)))
			__builtin_trap();
		dl_hints_init(&again);
		if (dl_hints_parse_profile(buf, &again, err, sizeof(err)) ||
		    dl_hints_format_profile(&again, entries[0],
					    sizeof(entries[0])) ||
		    strcmp(buf, entries[0]))
			__builtin_trap();
	}
}

static void check_array_limit(const char *text)
{
	char entry[64], printed[32], err[160];
	char *env[1] = {entry};
	struct dl_job_hints h;
	int64_t v = -1, again = -1;
	bool digits = text[0] != '\0';
	int rc = dl_hints_parse_array_limit(text, &v, err, sizeof(err));

	for (const char *c = text; *c; c++)
		digits = digits && *c >= '0' && *c <= '9';
	if (rc && (!err[0] || v != -1))
		__builtin_trap(); /* a refusal says why and sets nothing */
	if (!rc && (!digits || v < 0 || v > UINT32_MAX))
		__builtin_trap();
	if (rc && digits && strspn(text, "0") + 10 >= strlen(text) &&
	    strtoull(text, NULL, 10) <= UINT32_MAX)
		__builtin_trap(); /* a whole number in range refused */
	if (!rc) {
		snprintf(printed, sizeof(printed), "%" PRId64, v);
		if (dl_hints_parse_array_limit(printed, &again, NULL, 0) ||
		    again != v)
			__builtin_trap();
	}
	if (snprintf(entry, sizeof(entry), "%s=%s", DL_ENV_ARRAY_LIMIT, text) >=
	    (int) sizeof(entry))
		return;
	if (dl_hints_from_env(env, 1, &h, err, sizeof(err)) != (rc != 0) ||
	    h.array_limit != (rc ? -1 : v))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const double now = (double) time(NULL);
	struct dl_spank_opts o;
	char *text, *line, *rest;
	char err[512];

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	dl_spank_opts_init(&o);
	rest = text;
	while ((line = strsep(&rest, "\n"))) {
		enum dl_spank_opt which;

		if (!line[0])
			continue;
		check_array_limit(line + 1);
		check_hold_request(line + 1);
		which = (enum dl_spank_opt)(
			(unsigned) ((unsigned char) line[0] - '0') %
			DL_SPANK_OPT_COUNT);
		if (which == DL_SPANK_INPUT_NODES && strchr(line + 1, '/'))
			continue; /* a file name: no file access here */
		err[0] = '\0';
		if (dl_spank_opt_set(&o, which, line + 1, quiet_parse_time, err,
				     sizeof(err)) &&
		    !err[0])
			__builtin_trap(); /* every refusal says why */
	}
	check_env(&o);
	if (o.given[DL_SPANK_SOFT_DEADLINE]) {
		double soft = o.soft_deadline;
		int rc = dl_spank_opts_check(&o, now, 0, 0, err, sizeof(err));

		if ((soft <= now) != (rc != 0) || (rc && !err[0]))
			__builtin_trap();
		if (soft > now && soft - 1 > 0 &&
		    !dl_spank_opts_check(&o, now, soft - 1, 0, err,
					 sizeof(err)))
			__builtin_trap(); /* accepted after the hard deadline */
		if (soft > now &&
		    !dl_spank_opts_check(&o, now, 0, soft, err, sizeof(err)))
			__builtin_trap(); /* accepted at --begin */
	}
	free(text);
	return 0;
}
