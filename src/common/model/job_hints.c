/*
 * job_hints.c - parse and normalise the users' per-job hints.
 */
#include "common/model/job_hints.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void dl_hints_init(struct dl_job_hints *h)
{
	if (!h)
		return;
	memset(h, 0, sizeof(*h));
	h->max_delays = -1;
	h->mr_reduces = -1;
	h->array_limit = -1;
}

static int parse_number(const char *s, double *out)
{
	char *end;
	double v;

	while (isspace((unsigned char) *s))
		s++;
	if (!*s)
		return EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return EINVAL;
	while (isspace((unsigned char) *end))
		end++;
	if (*end)
		return EINVAL;
	*out = v;
	return 0;
}

/* "4G" -> 4096 (MB); no suffix = MB; an optional trailing B ("4GB"). */
static int parse_mem(const char *s, double *out)
{
	double v, mult = 1;
	char *end;

	while (isspace((unsigned char) *s))
		s++;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return EINVAL;
	switch (toupper((unsigned char) *end)) {
	case 'K':
		mult = 1.0 / 1024;
		end++;
		break;
	case 'M':
		end++;
		break;
	case 'G':
		mult = 1024;
		end++;
		break;
	case 'T':
		mult = 1024.0 * 1024;
		end++;
		break;
	default:
		break;
	}
	if (toupper((unsigned char) *end) == 'B')
		end++;
	while (isspace((unsigned char) *end))
		end++;
	if (*end)
		return EINVAL;
	*out = v * mult;
	return 0;
}

int dl_hints_parse_profile(const char *text, struct dl_job_hints *h, char *err,
			   size_t errlen)
{
	struct dl_job_hints next;
	char *copy, *rest, *tok;
	bool seen_cpu = false;
	int rc = 0;

	if (!text || !h) {
		snprintf(err, err ? errlen : 0, "no task profile given");
		return EINVAL;
	}
	next = *h;
	memset(&next.task, 0, sizeof(next.task));
	memset(&next.shuffle, 0, sizeof(next.shuffle));
	next.has_shuffle = false;
	copy = strdup(text);
	if (!copy) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return ENOMEM;
	}
	rest = copy;
	while (!rc && (tok = strsep(&rest, ","))) {
		char *eq = strchr(tok, '=');
		const char *key;
		struct dl_demand *d = &next.task;
		double v;

		if (!eq) {
			snprintf(err, err ? errlen : 0,
				 "task profile: '%s' is not key=value", tok);
			rc = EINVAL;
			break;
		}
		*eq = '\0';
		key = tok;
		while (isspace((unsigned char) *key))
			key++;
		if (!strncasecmp(key, "shuffle_", 8)) {
			d = &next.shuffle;
			next.has_shuffle = true;
			key += 8;
		}
		if (!strcasecmp(key, "mem")) {
			rc = parse_mem(eq + 1, &v);
			if (!rc && v > 1e12)
				rc = EINVAL;
			if (!rc)
				d->mem = v;
		} else if (!strcasecmp(key, "cpu") || !strcasecmp(key, "io")) {
			rc = parse_number(eq + 1, &v);
			if (!rc && (v < 0 || v > 1e9 ||
				    (!strcasecmp(key, "cpu") && v <= 0)))
				rc = EINVAL;
			if (!rc && !strcasecmp(key, "cpu")) {
				d->cpu = v;
				seen_cpu |= d == &next.task;
			} else if (!rc) {
				d->io = v;
			}
		} else {
			snprintf(err, err ? errlen : 0,
				 "task profile: unknown key '%s' (expected "
				 "cpu, mem, io, shuffle_cpu, shuffle_mem, "
				 "shuffle_io)",
				 tok);
			rc = EINVAL;
			break;
		}
		if (rc)
			snprintf(err, err ? errlen : 0,
				 "task profile: bad value '%s' for %s (cpu > "
				 "0, mem like 512M or 4G, io >= 0 MB/s)",
				 eq + 1, tok);
	}
	free(copy);
	if (!rc && !seen_cpu && !next.task.mem && !next.task.io) {
		snprintf(err, err ? errlen : 0,
			 "task profile: give at least one of cpu, mem, io");
		rc = EINVAL;
	}
	if (rc)
		return rc;
	next.has_profile = true;
	*h = next;
	return 0;
}

static int append_key(char *buf, size_t len, size_t *used, const char *key,
		      double v)
{
	int n;

	if (!(v > 0))
		return 0;
	n = snprintf(buf + *used, len - *used, "%s%s=%g", *used ? "," : "", key,
		     v);
	if (n < 0 || (size_t) n >= len - *used)
		return ERANGE;
	*used += (size_t) n;
	return 0;
}

int dl_hints_format_profile(const struct dl_job_hints *h, char *buf, size_t len)
{
	size_t used = 0;
	int rc;

	if (!h || !buf || !len || !h->has_profile)
		return EINVAL;
	buf[0] = '\0';
	rc = append_key(buf, len, &used, "cpu", h->task.cpu);
	rc = rc ? rc : append_key(buf, len, &used, "mem", h->task.mem);
	rc = rc ? rc : append_key(buf, len, &used, "io", h->task.io);
	rc = rc ? rc
		: append_key(buf, len, &used, "shuffle_cpu", h->shuffle.cpu);
	rc = rc ? rc
		: append_key(buf, len, &used, "shuffle_mem", h->shuffle.mem);
	rc = rc ? rc : append_key(buf, len, &used, "shuffle_io", h->shuffle.io);
	return rc;
}

int dl_hints_parse_reduce_cost(const char *text, double *out, char *err,
			       size_t errlen)
{
	double v;

	if (!text || !out || parse_number(text, &v) || !(v > 0) || v > 1000) {
		snprintf(err, err ? errlen : 0,
			 "reduce cost '%s': expected a number above 0 and at "
			 "most 1000 (reduce task length / map task length)",
			 text ? text : "");
		return EINVAL;
	}
	*out = v;
	return 0;
}

int dl_hints_parse_max_delays(const char *text, int32_t *out, char *err,
			      size_t errlen)
{
	double v;

	if (!text || !out || parse_number(text, &v) || v < 0 || v > 1000 ||
	    v != floor(v)) {
		snprintf(err, err ? errlen : 0,
			 "max delays '%s': expected a whole number from 0 to "
			 "1000",
			 text ? text : "");
		return EINVAL;
	}
	*out = (int32_t) v;
	return 0;
}

int dl_hints_parse_mr_reduces(const char *text, int32_t *out, char *err,
			      size_t errlen)
{
	double v;

	if (!text || !out || parse_number(text, &v) || v < 0 ||
	    v > DL_MAX_TASKS || v != floor(v)) {
		snprintf(err, err ? errlen : 0,
			 "reduce task count '%s': expected a whole number from "
			 "0 to %u",
			 text ? text : "", DL_MAX_TASKS);
		return EINVAL;
	}
	*out = (int32_t) v;
	return 0;
}

int dl_hints_parse_array_limit(const char *text, int64_t *out, char *err,
			       size_t errlen)
{
	unsigned long long v = 0;
	char *end = NULL;

	/* digits only: strtoull alone takes signs and blanks */
	if (text && *text >= '0' && *text <= '9') {
		errno = 0;
		v = strtoull(text, &end, 10);
	}
	if (!out || !end || errno || *end || v > UINT32_MAX) {
		snprintf(err, err ? errlen : 0,
			 "array limit '%.40s': expected a whole number from 0 "
			 "to %u",
			 text ? text : "", UINT32_MAX);
		return EINVAL;
	}
	*out = (int64_t) v;
	return 0;
}

int dl_hints_check_soft(double soft, double hard, double now, char *err,
			size_t errlen)
{
	if (!isfinite(soft) || soft <= 0 || soft > DL_TIME_MAX) {
		snprintf(err, err ? errlen : 0, "soft deadline is not a time");
		return EINVAL;
	}
	if (soft <= now) {
		snprintf(err, err ? errlen : 0,
			 "soft deadline is in the past (%.0f s ago)",
			 now - soft);
		return EINVAL;
	}
	if (hard > 0 && soft > hard) {
		snprintf(err, err ? errlen : 0,
			 "soft deadline is %.0f s after the hard deadline "
			 "(--deadline); it must not be later",
			 soft - hard);
		return EINVAL;
	}
	return 0;
}

static const char *env_value(const char *entry, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(entry, DL_ENV_PREFIX, strlen(DL_ENV_PREFIX)))
		entry += strlen(DL_ENV_PREFIX);
	if (strncmp(entry, name, n) || entry[n] != '=')
		return NULL;
	return entry + n + 1;
}

const char *dl_hints_env_get(char *const *env, uint32_t count, const char *name)
{
	if (!name)
		return NULL;
	for (uint32_t i = 0; env && i < count; i++) {
		const char *v;

		if (env[i] && (v = env_value(env[i], name)))
			return v;
	}
	return NULL;
}

int64_t dl_hints_array_limit_from_env(char *const *env, uint32_t count)
{
	int64_t limit = -1;

	for (uint32_t i = 0; env && i < count; i++) {
		const char *v =
			env[i] ? env_value(env[i], DL_ENV_ARRAY_LIMIT) : NULL;

		if (v)
			dl_hints_parse_array_limit(v, &limit, NULL, 0);
	}
	return limit;
}

enum dl_hold_request dl_hints_parse_hold_request(const char *text)
{
	if (text && !strcmp(text, "user"))
		return DL_HOLD_REQUEST_USER;
	if (text && !strcmp(text, "admin"))
		return DL_HOLD_REQUEST_ADMIN;
	return DL_HOLD_REQUEST_NONE;
}

const char *dl_hold_request_name(enum dl_hold_request r)
{
	return r == DL_HOLD_REQUEST_USER    ? "user"
	       : r == DL_HOLD_REQUEST_ADMIN ? "admin"
					    : "none";
}

enum dl_hold_request dl_hints_hold_request_from_env(char *const *env,
						    uint32_t count)
{
	enum dl_hold_request r = DL_HOLD_REQUEST_NONE;

	for (uint32_t i = 0; env && i < count; i++) {
		const char *v =
			env[i] ? env_value(env[i], DL_ENV_HOLD_REQUEST) : NULL;

		if (v)
			r = dl_hints_parse_hold_request(v);
	}
	return r;
}

int dl_hints_from_env(char *const *env, uint32_t count, struct dl_job_hints *h,
		      char *err, size_t errlen)
{
	int bad = 0;

	if (!h)
		return 0;
	dl_hints_init(h);
	if (err && errlen)
		err[0] = '\0';
	for (uint32_t i = 0; env && i < count; i++) {
		const char *v, *e = env[i];
		char msg[160] = "";
		double d;

		if (!e)
			continue;
		if ((v = env_value(e, DL_ENV_SOFT_DEADLINE))) {
			if (parse_number(v, &d) || !(d > 0) ||
			    d > DL_TIME_MAX) {
				snprintf(
					msg, sizeof(msg),
					"bad soft deadline '%.40s' (not a time "
					"up to the year 9999)",
					v);
			} else {
				h->soft_deadline = d;
			}
		} else if ((v = env_value(e, DL_ENV_TASK_PROFILE))) {
			dl_hints_parse_profile(v, h, msg, sizeof(msg));
		} else if ((v = env_value(e, DL_ENV_REDUCE_COST))) {
			dl_hints_parse_reduce_cost(v, &h->reduce_cost, msg,
						   sizeof(msg));
		} else if ((v = env_value(e, DL_ENV_MAX_DELAYS))) {
			dl_hints_parse_max_delays(v, &h->max_delays, msg,
						  sizeof(msg));
		} else if ((v = env_value(e, DL_ENV_MR_REDUCES))) {
			dl_hints_parse_mr_reduces(v, &h->mr_reduces, msg,
						  sizeof(msg));
		} else if ((v = env_value(e, DL_ENV_ARRAY_LIMIT))) {
			dl_hints_parse_array_limit(v, &h->array_limit, msg,
						   sizeof(msg));
		}
		if (msg[0]) {
			bad++;
			if (err && errlen && !err[0])
				snprintf(err, errlen, "%s", msg);
		}
	}
	return bad;
}
