/*
 * fuzz_forecast.c - the forecast file parser and the host list / NodeIO
 * parsers: any text gets a forecast or an error message, never a crash or
 * a leak, and an accepted forecast only ever yields loads in [0, 1].
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/forecast.h"
#include "common/model/nodeset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dl_forecast *f = NULL;
	char err[256] = "";
	char *text;
	int rc;

	rc = dl_forecast_parse((const char *) data, size, "fuzz", &f, err,
			       sizeof(err));
	if (rc && (!err[0] || f))
		__builtin_trap(); /* every error must say why, and keep nothing
				   */
	if (!rc) {
		double start, step, period;
		uint32_t n;

		dl_forecast_grid(f, &start, &step, &period, &n);
		for (uint32_t c = 0; c < dl_forecast_nclasses(f); c++) {
			const struct dl_series *s = dl_forecast_series(f, c);

			for (int k = -3; k < 10; k++) {
				double t = start + k * step * (n / 3.0 + 0.7);
				double v =
					dl_forecast_load_at(f, (int) c, 0, t);
				double m = dl_forecast_load_max(
					f, (int) c, 0, t, t + 5 * step);
				double i = dl_series_integral(s, t, t + step);

				if (!(v >= 0 && v <= 1) || !(m >= v) ||
				    !(m <= 1) || !(i >= -1e-9) ||
				    !(i <= step * (1 + 1e-9)))
					__builtin_trap();
			}
		}
		dl_forecast_class_of(f, "n1");
		dl_forecast_free(f);
	}
	/* the same bytes as a host list and as NodeIO= */
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	dl_nodeset_match(text, "n12");
	dl_nodeset_check(text, err, sizeof(err));
	if (!dl_node_io_check(text, err, sizeof(err))) {
		double v = dl_node_io_lookup(text, "n3", 7);

		if (!(v >= 0) || !isfinite(v))
			__builtin_trap();
	}
	free(text);
	return 0;
}
