/*
 * fuzz_rt_state.c - the realtime admitted set's saved state: any text is
 * restored or refused with a message, never a crash or a leak; what is
 * restored saves back to the same text and can judge a new job.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/realtime/realtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dl_rt_state *st = dl_rt_state_new(), *again;
	char *text = malloc(size + 1), err[256] = "", *out, *out2;
	int rc;

	if (!st || !text) {
		dl_rt_state_free(st);
		free(text);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';
	rc = dl_rt_state_from_json(st, text, err, sizeof(err));
	free(text);
	if (rc && !err[0])
		__builtin_trap(); /* every refusal says why */
	if (rc) {
		dl_rt_state_free(st);
		return 0;
	}
	/* restored: it saves back to itself */
	out = dl_rt_state_to_json(st);
	again = dl_rt_state_new();
	if (out && again) {
		if (dl_rt_state_from_json(again, out, err, sizeof(err)))
			__builtin_trap();
		out2 = dl_rt_state_to_json(again);
		if (out2 && strcmp(out, out2))
			__builtin_trap();
		free(out2);
	}
	/* and judges a job behind each job it holds */
	for (uint32_t i = 0, n = dl_rt_count(st); i < n; i++) {
		struct dl_rt_job_info info;
		struct dl_rt_request q;
		struct dl_rt_verdict v;

		if (dl_rt_job_at(st, i, &info))
			break;
		memset(&q, 0, sizeof(q));
		q.id = UINT64_MAX - i;
		q.pool = info.pool;
		q.deadline = info.deadline + 100;
		q.tasks[0] = 3;
		q.tasks[1] = 1;
		q.wc[0] = q.wc[1] = 5;
		if (dl_rt_admit(st, &q, info.arrival, true, &v) == 0 &&
		    !v.msg[0])
			__builtin_trap();
	}
	free(out);
	dl_rt_state_free(again);
	dl_rt_state_free(st);
	return 0;
}
