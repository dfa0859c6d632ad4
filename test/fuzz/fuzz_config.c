/*
 * fuzz_config.c - deadline.conf parser: any text gets a config or an
 * error message, never a crash or a leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dl_config cfg;
	char err[256] = "";
	int rc;

	if (dl_config_defaults(&cfg))
		return 0;
	rc = dl_config_parse(&cfg, (const char *) data, size, "fuzz", err,
			     sizeof(err));
	if (rc && !err[0])
		__builtin_trap(); /* every error must say why */
	if (!rc && !(cfg.plan_interval >= 1))
		__builtin_trap(); /* a validated value out of range */
	dl_config_free(&cfg);
	return 0;
}
