/*
 * fuzz_plan_json.c - the published-plan reader (sdeadline's input): any
 * bytes give a plan or an error; an accepted plan serialises and parses
 * back to the same number of jobs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/plan/plan_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "", *text, *again;
	struct dl_plan *plan, *back;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	plan = dl_plan_from_string(text, err, sizeof(err));
	free(text);
	if (!plan) {
		if (!err[0])
			__builtin_trap();
		return 0;
	}
	again = dl_plan_to_string(plan);
	if (again) {
		back = dl_plan_from_string(again, err, sizeof(err));
		if (!back || back->njobs != plan->njobs)
			__builtin_trap();
		dl_plan_free(back);
		free(again);
	}
	dl_plan_free(plan);
	return 0;
}
