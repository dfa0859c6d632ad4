/*
 * fuzz_sched_state.c - the sched plugin's saved-state reader (restored at
 * slurmctld start): any bytes give a state or an error that leaves the
 * previous state intact; an accepted state serialises and parses back to
 * the same text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/plan/sched_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "", *text, *again, *third;
	struct dl_sstate st, back;
	struct dl_array_rec *keep;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	dl_sstate_init(&st);
	keep = dl_sstate_add(&st, 4242);
	if (!keep) {
		free(text);
		return 0;
	}
	if (dl_sstate_from_string(&st, text, err, sizeof(err))) {
		free(text);
		/* refused: a message, and the old content untouched */
		if (!err[0] || st.n != 1 || !dl_sstate_find(&st, 4242))
			__builtin_trap();
		dl_sstate_free(&st);
		return 0;
	}
	free(text);
	again = dl_sstate_to_string(&st);
	if (again) {
		dl_sstate_init(&back);
		if (dl_sstate_from_string(&back, again, err, sizeof(err)))
			__builtin_trap();
		third = dl_sstate_to_string(&back);
		if (third && strcmp(again, third))
			__builtin_trap();
		free(third);
		dl_sstate_free(&back);
		free(again);
	}
	dl_sstate_free(&st);
	return 0;
}
