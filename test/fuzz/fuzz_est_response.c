/*
 * fuzz_est_response.c - the client's side: any bytes as a reply line must
 * be parsed into a response or refused with EPROTO, and any result object
 * into a prediction (with p50 <= p90 <= p99) or EPROTO.  This is what the
 * sched plugin does with whatever comes back from the socket inside
 * slurmctld.
 */
#include <json-c/json.h>
#include <stdint.h>
#include <string.h>

#include "common/estimate/est_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_prediction(struct json_object *o)
{
	struct dl_prediction p;
	char err[128];

	if (dl_est_prediction_parse(o, &p, err, sizeof(err)))
		return;
	if (!(p.p50 > 0) || p.p90 < p.p50 || p.p99 < p.p90 ||
	    p.source >= DL_PRED_SOURCES)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dl_est_response r;
	struct json_object *arr = NULL;
	char err[256] = "";

	if (dl_est_parse_response((const char *) data, size, &r, err,
				  sizeof(err))) {
		if (!err[0] || r.root)
			__builtin_trap();
		return 0;
	}
	if (!r.is_error) {
		if (!r.result)
			__builtin_trap();
		check_prediction(r.result);
		if (json_object_object_get_ex(r.result, "predictions", &arr) &&
		    json_object_is_type(arr, json_type_array))
			for (size_t i = 0; i < json_object_array_length(arr);
			     i++)
				check_prediction(
					json_object_array_get_idx(arr, i));
	} else if (!r.code[0]) {
		__builtin_trap();
	}
	dl_est_response_free(&r);
	return 0;
}
