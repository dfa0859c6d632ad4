/*
 * fuzz_est_request.c - deadline-estimatord's request handling: any bytes,
 * split into lines, go through parsing, access checks and the operations
 * (predict, observe into an in-memory history, forecast, stats) exactly as
 * the daemon runs them.  Every line must get one well-formed response line
 * ("v":1, an id, a result or an error with code and message); never a
 * crash, a leak or unbounded growth.  State persists across inputs (the
 * history fills up) to reach the paths a long-running daemon takes.
 */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/forecast.h"
#include "estimator/est_config.h"
#include "estimator/handlers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct est_config cfg;
static struct est_ctx ctx;

static double fixed_now(void)
{
	return 1700000000;
}

static void init(void)
{
	static const char fc[] = "step 60\nperiod 120\nclass default\n0.2 0.4\n"
				 "class gpu\n0.5 1\n";
	char err[256];

	est_config_defaults(&cfg);
	if (est_config_parse(&cfg,
			     "SlurmUser=0\nHistoryPerKey=50\nMaxJobs=100\n"
			     "RateWindow=50\nCalibrationWindow=100\n"
			     "CalibrationMin=10\n",
			     "fuzz", err, sizeof(err)) ||
	    est_config_finish(&cfg, err, sizeof(err)))
		abort();
	ctx.cfg = &cfg;
	ctx.now = fixed_now;
	ctx.hist = dl_hist_new(&cfg.hist, err, sizeof(err));
	if (!ctx.hist || dl_forecast_parse(fc, sizeof(fc) - 1, "fuzz",
					   &ctx.forecast, err, sizeof(err)))
		abort();
}

static void check_response(const char *out, size_t len)
{
	struct json_object *o, *v = NULL, *e = NULL, *c = NULL, *m = NULL;

	if (!out || !len || out[len - 1] != '\n' || memchr(out, '\n', len - 1))
		__builtin_trap(); /* exactly one line */
	o = json_tokener_parse(out);
	if (!o || !json_object_object_get_ex(o, "v", &v) ||
	    json_object_get_int(v) != 1 ||
	    !json_object_object_get_ex(o, "id", &v))
		__builtin_trap();
	if (json_object_object_get_ex(o, "error", &e)) {
		if (!json_object_object_get_ex(e, "code", &c) ||
		    !json_object_object_get_ex(e, "message", &m) ||
		    json_object_get_string_len(m) == 0)
			__builtin_trap(); /* every error says why */
	} else if (!json_object_object_get_ex(o, "result", &v)) {
		__builtin_trap();
	}
	json_object_put(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* root, SlurmUser and a stranger, by the first byte */
	struct est_peer peers[3] = {{.uid = 0, .known = true},
				    {.uid = 4242, .known = true},
				    {.uid = (uid_t) -1, .known = false}};
	const char *p = (const char *) data, *end = p + size;
	struct est_peer *peer;

	if (!ctx.hist)
		init();
	peer = &peers[size ? data[0] % 3 : 0];
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t len = (size_t) ((nl ? nl : end) - p), outlen = 0;
		char *out = est_handle_line(&ctx, peer, p, len, &outlen);

		check_response(out, outlen);
		free(out);
		p = nl ? nl + 1 : end;
	}
	return 0;
}
