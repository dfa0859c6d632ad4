/*
 * forecast.c - piecewise-constant series and the external-load forecast.
 */
#include "common/model/forecast.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/io/atomic_file.h"
#include "common/model/nodeset.h"
#include "common/io/grow.h"

/* ---- series ---- */

int dl_series_init(struct dl_series *s, double start, double step,
		   double period, const double *v, uint32_t n)
{
	if (!s)
		return EINVAL;
	memset(s, 0, sizeof(*s));
	if (!v || !n || n > DL_FORECAST_MAX_SAMPLES ||
	    !(fabs(start) <= DL_FORECAST_MAX_TIME) || !isfinite(step) ||
	    !(step > 0) || !isfinite(period) || period < 0)
		return EINVAL;
	if (period > 0 && fabs(period - step * n) > 1e-6 * period)
		return EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return EINVAL;
	s->v = malloc(n * sizeof(*s->v));
	s->prefix = malloc((n + 1) * sizeof(*s->prefix));
	if (!s->v || !s->prefix) {
		dl_series_free(s);
		return ENOMEM;
	}
	memcpy(s->v, v, n * sizeof(*v));
	s->prefix[0] = 0;
	for (uint32_t i = 0; i < n; i++)
		s->prefix[i + 1] = s->prefix[i] + v[i];
	s->start = start;
	s->step = step;
	s->period = period > 0 ? step * n : 0;
	s->n = n;
	return 0;
}

void dl_series_free(struct dl_series *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->prefix);
	s->v = s->prefix = NULL;
	s->n = 0;
}

/* Sample index holding at offset x (in samples) within [0, n). */
static uint32_t index_in(const struct dl_series *s, double x)
{
	double i = floor(x);

	if (i < 0)
		return 0;
	if (i >= s->n)
		return s->n - 1;
	return (uint32_t) i;
}

/* Reduce t to an offset in samples; for a periodic series into [0, n). */
static double offset_of(const struct dl_series *s, double t, double *cycles)
{
	double x = (t - s->start) / s->step;

	*cycles = 0;
	if (s->period > 0) {
		double c = floor(x / s->n);

		x -= c * s->n;
		if (x < 0)
			x = 0;
		if (x >= s->n) { /* rounding at the period's end */
			x -= s->n;
			c += 1;
			if (x < 0)
				x = 0;
		}
		*cycles = c;
	}
	return x;
}

double dl_series_at(const struct dl_series *s, double t)
{
	double cycles;

	if (!s || !s->n || !isfinite(t))
		return 0;
	return s->v[index_in(s, offset_of(s, t, &cycles))];
}

/* Integral from start to t, in value x samples (negative before start). */
static double cumulative(const struct dl_series *s, double t)
{
	double cycles, x = offset_of(s, t, &cycles);
	double acc = cycles * s->prefix[s->n];

	if (x < 0)
		return acc + x * s->v[0];
	if (x >= s->n)
		return acc + s->prefix[s->n] + (x - s->n) * s->v[s->n - 1];
	{
		uint32_t i = index_in(s, x);

		return acc + s->prefix[i] + (x - i) * s->v[i];
	}
}

double dl_series_integral(const struct dl_series *s, double a, double b)
{
	if (!s || !s->n || !isfinite(a) || !isfinite(b) || !(b > a))
		return 0;
	return (cumulative(s, b) - cumulative(s, a)) * s->step;
}

double dl_series_max(const struct dl_series *s, double a, double b)
{
	double ca, cb, xa, xb, m;

	if (!s || !s->n || !isfinite(a))
		return 0;
	m = dl_series_at(s, a);
	if (!isfinite(b) || !(b > a))
		return m;
	if (s->period > 0 && b - a >= s->period) {
		for (uint32_t i = 0; i < s->n; i++)
			m = fmax(m, s->v[i]);
		return m;
	}
	xa = offset_of(s, a, &ca);
	xb = offset_of(s, b, &cb);
	if (s->period > 0 && cb > ca) {
		/* wraps once: [xa, n) then [0, xb] */
		for (uint32_t i = index_in(s, xa); i < s->n; i++)
			m = fmax(m, s->v[i]);
		for (uint32_t i = 0; i <= index_in(s, xb); i++)
			m = fmax(m, s->v[i]);
		return m;
	}
	for (uint32_t i = index_in(s, xa); i <= index_in(s, xb); i++)
		m = fmax(m, s->v[i]);
	return m;
}

/* ---- forecast ---- */

struct fc_class {
	char *name;
	char *nodes;
	unsigned resources;
	bool whole_nodes; /* Share=nodes */
	struct dl_series load;
};

struct dl_forecast {
	double start, step, period;
	uint32_t n;
	struct fc_class cls[DL_FORECAST_MAX_CLASSES];
	uint32_t ncls;
};

struct dl_forecast *dl_forecast_new(double start, double step, double period,
				    uint32_t nsamples)
{
	struct dl_forecast *f;

	if (!(fabs(start) <= DL_FORECAST_MAX_TIME) || !isfinite(step) ||
	    !(step > 0) || !isfinite(period) || period < 0 || !nsamples ||
	    nsamples > DL_FORECAST_MAX_SAMPLES)
		return NULL;
	if (period > 0 && fabs(period - step * nsamples) > 1e-6 * period)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->start = start;
	f->step = step;
	f->period = period;
	f->n = nsamples;
	return f;
}

void dl_forecast_free(struct dl_forecast *f)
{
	if (!f)
		return;
	for (uint32_t c = 0; c < f->ncls; c++) {
		free(f->cls[c].name);
		free(f->cls[c].nodes);
		dl_series_free(&f->cls[c].load);
	}
	free(f);
}

int dl_forecast_add_class(struct dl_forecast *f, const char *name,
			  const char *nodes, unsigned resources,
			  const double *load)
{
	struct fc_class *c;
	int rc;

	if (!f || !name || !name[0] || !nodes || !load ||
	    f->ncls >= DL_FORECAST_MAX_CLASSES ||
	    resources >= (1u << DL_RESOURCES) ||
	    dl_nodeset_check(nodes, NULL, 0))
		return EINVAL;
	for (uint32_t i = 0; i < f->ncls; i++)
		if (!strcmp(f->cls[i].name, name))
			return EINVAL;
	for (uint32_t i = 0; i < f->n; i++)
		if (!(load[i] >= 0 && load[i] <= 1))
			return EINVAL;
	c = &f->cls[f->ncls];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	c->nodes = strdup(nodes);
	c->resources = resources ? resources : (1u << DL_RESOURCES) - 1;
	if (!c->name || !c->nodes) {
		rc = ENOMEM;
		goto fail;
	}
	if ((rc = dl_series_init(&c->load, f->start, f->step, f->period, load,
				 f->n)))
		goto fail;
	f->ncls++;
	return 0;
fail:
	free(c->name);
	free(c->nodes);
	memset(c, 0, sizeof(*c));
	return rc;
}

uint32_t dl_forecast_nclasses(const struct dl_forecast *f)
{
	return f ? f->ncls : 0;
}

const char *dl_forecast_class_name(const struct dl_forecast *f, uint32_t c)
{
	return f && c < f->ncls ? f->cls[c].name : NULL;
}

int dl_forecast_class_of(const struct dl_forecast *f, const char *node)
{
	if (!f || !node)
		return -1;
	for (uint32_t c = 0; c < f->ncls; c++)
		if (dl_nodeset_match(f->cls[c].nodes, node))
			return (int) c;
	return -1;
}

const struct dl_series *dl_forecast_series(const struct dl_forecast *f,
					   uint32_t c)
{
	return f && c < f->ncls ? &f->cls[c].load : NULL;
}

bool dl_forecast_applies(const struct dl_forecast *f, uint32_t c, int r)
{
	return f && c < f->ncls && r >= 0 && r < DL_RESOURCES &&
	       (f->cls[c].resources & (1u << r));
}

void dl_forecast_grid(const struct dl_forecast *f, double *start, double *step,
		      double *period, uint32_t *n)
{
	if (start)
		*start = f ? f->start : 0;
	if (step)
		*step = f ? f->step : 0;
	if (period)
		*period = f ? f->period : 0;
	if (n)
		*n = f ? f->n : 0;
}

int dl_forecast_set_whole_nodes(struct dl_forecast *f, uint32_t c, bool whole)
{
	if (!f || c >= f->ncls)
		return EINVAL;
	f->cls[c].whole_nodes = whole;
	return 0;
}

bool dl_forecast_whole_nodes(const struct dl_forecast *f, uint32_t c)
{
	return f && c < f->ncls && f->cls[c].whole_nodes;
}

int dl_forecast_class_index(const struct dl_forecast *f, const char *name)
{
	if (!f || !name)
		return -1;
	for (uint32_t c = 0; c < f->ncls; c++)
		if (!strcmp(f->cls[c].name, name))
			return (int) c;
	return -1;
}

double dl_forecast_at(const struct dl_forecast *f, size_t c, double t)
{
	if (!f || c >= f->ncls || !isfinite(t))
		return NAN;
	return dl_series_at(&f->cls[c].load, t);
}

double dl_forecast_mean(const struct dl_forecast *f, size_t c, double a,
			double b)
{
	if (!f || c >= f->ncls || !isfinite(a) || !isfinite(b) || b < a)
		return NAN;
	if (b == a)
		return dl_series_at(&f->cls[c].load, a);
	return dl_series_integral(&f->cls[c].load, a, b) / (b - a);
}

double dl_forecast_load_at(const struct dl_forecast *f, int c, int r, double t)
{
	if (c < 0 || !dl_forecast_applies(f, (uint32_t) c, r))
		return 0;
	return dl_series_at(&f->cls[c].load, t);
}

double dl_forecast_load_max(const struct dl_forecast *f, int c, int r, double a,
			    double b)
{
	if (c < 0 || !dl_forecast_applies(f, (uint32_t) c, r))
		return 0;
	return dl_series_max(&f->cls[c].load, a, b);
}

/* ---- text format ---- */

struct fc_parse {
	const char *origin;
	unsigned line;
	char *err;
	size_t errlen;
	double start, step, period;
	bool has_version, has_step;
	char *names[DL_FORECAST_MAX_CLASSES];
	char *nodes[DL_FORECAST_MAX_CLASSES];
	unsigned res[DL_FORECAST_MAX_CLASSES];
	bool whole[DL_FORECAST_MAX_CLASSES];
	uint32_t ncls;
	double *samples; /* row-major: sample i, class c */
	uint32_t nsamples, cap;
	/* which syntax the file uses: 0 not known yet, 1 "Key=Value" with
	 * sample rows, 2 "keyword value" with a block of values per class */
	int syntax;
	double *bv[DL_FORECAST_MAX_CLASSES]; /* syntax 2: values per class */
	uint32_t bn[DL_FORECAST_MAX_CLASSES], bcap[DL_FORECAST_MAX_CLASSES];
};

static void perr(struct fc_parse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "ORIGIN:LINE: message" in the caller's buffer, cut at its end. */
static void perr(struct fc_parse *p, const char *fmt, ...)
{
	char m[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->err ? p->errlen : 0, "%s:%u: %s", p->origin,
		 p->line, m);
}

#define PERR(p, ...) perr((p), __VA_ARGS__)

static int parse_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*out))
		return EINVAL;
	return 0;
}

static int parse_resources(const char *s, unsigned *mask)
{
	char buf[64], *tok, *save;

	if (strlen(s) >= sizeof(buf))
		return EINVAL;
	strcpy(buf, s);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcasecmp(tok, "cpu"))
			*mask |= 1u << DL_RES_CPU;
		else if (!strcasecmp(tok, "mem"))
			*mask |= 1u << DL_RES_MEM;
		else if (!strcasecmp(tok, "io"))
			*mask |= 1u << DL_RES_IO;
		else
			return EINVAL;
	}
	return *mask ? 0 : EINVAL;
}

static int parse_share(const char *s, bool *whole)
{
	if (!strcasecmp(s, "fraction"))
		*whole = false;
	else if (!strcasecmp(s, "nodes"))
		*whole = true;
	else
		return EINVAL;
	return 0;
}

/* "Class=name Nodes=expr [Resources=cpu,mem,io] [Share=fraction|nodes]" */
/* A class both file forms declare: its name must be new. */
static int add_class(struct fc_parse *p, const char *name, const char *nodes,
		     bool whole, unsigned mask)
{
	for (uint32_t i = 0; i < p->ncls; i++)
		if (!strcmp(p->names[i], name)) {
			PERR(p, "class '%s' defined twice", name);
			return EINVAL;
		}
	p->names[p->ncls] = strdup(name);
	p->nodes[p->ncls] = strdup(nodes);
	if (!p->names[p->ncls] || !p->nodes[p->ncls]) {
		free(p->names[p->ncls]);
		free(p->nodes[p->ncls]);
		return ENOMEM;
	}
	p->whole[p->ncls] = whole;
	p->res[p->ncls++] = mask;
	return 0;
}

static int parse_class(struct fc_parse *p, char *line)
{
	char *tok, *save, *name = NULL, *nodes = NULL;
	unsigned mask = 0;
	bool whole = false;
	char msg[160];

	if (p->nsamples) {
		PERR(p, "Class= after the first sample line");
		return EINVAL;
	}
	if (p->ncls >= DL_FORECAST_MAX_CLASSES) {
		PERR(p, "more than %d classes", DL_FORECAST_MAX_CLASSES);
		return EINVAL;
	}
	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			PERR(p, "'%s': expected Key=Value", tok);
			return EINVAL;
		}
		*eq++ = '\0';
		if (!strcasecmp(tok, "Class"))
			name = eq;
		else if (!strcasecmp(tok, "Nodes"))
			nodes = eq;
		else if (!strcasecmp(tok, "Resources")) {
			if (parse_resources(eq, &mask)) {
				PERR(p,
				     "Resources=%s: expected a list of cpu, "
				     "mem, io",
				     eq);
				return EINVAL;
			}
		} else if (!strcasecmp(tok, "Share")) {
			if (parse_share(eq, &whole)) {
				PERR(p, "Share=%s: expected fraction or nodes",
				     eq);
				return EINVAL;
			}
		} else {
			PERR(p, "unknown key '%s' on a Class line", tok);
			return EINVAL;
		}
	}
	if (!name || !name[0] || !nodes) {
		PERR(p,
		     "a Class line needs Class=<name> and Nodes=<host list>");
		return EINVAL;
	}
	if (dl_nodeset_check(nodes, msg, sizeof(msg))) {
		PERR(p, "Nodes=%s: %s", nodes, msg);
		return EINVAL;
	}
	return add_class(p, name, nodes, whole, mask);
}

static int parse_sample(struct fc_parse *p, char *line)
{
	char *tok, *save;
	uint32_t k = 0;

	if (!p->ncls) {
		PERR(p, "sample line before any Class= line");
		return EINVAL;
	}
	if (p->nsamples >= DL_FORECAST_MAX_SAMPLES) {
		PERR(p, "more than %u samples", DL_FORECAST_MAX_SAMPLES);
		return EINVAL;
	}
	if (p->nsamples == p->cap) {
		uint32_t ncap = p->cap ? p->cap * 2 : 1024;
		double *ns = realloc(p->samples,
				     (size_t) ncap * p->ncls * sizeof(double));

		if (!ns)
			return ENOMEM;
		p->samples = ns;
		p->cap = ncap;
	}
	for (tok = strtok_r(line, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		double v;

		if (k >= p->ncls) {
			PERR(p, "more values than the %u classes", p->ncls);
			return EINVAL;
		}
		if (parse_number(tok, &v) || v < 0 || v > 1) {
			PERR(p, "'%s': a load must be a fraction in [0,1]",
			     tok);
			return EINVAL;
		}
		p->samples[(size_t) p->nsamples * p->ncls + k++] = v;
	}
	if (k != p->ncls) {
		PERR(p, "%u values for %u classes", k, p->ncls);
		return EINVAL;
	}
	p->nsamples++;
	return 0;
}

static int parse_setting(struct fc_parse *p, char *line)
{
	char *eq = strchr(line, '=');
	char *key = line, *val;
	double v;

	*eq = '\0';
	val = eq + 1;
	while (*val == ' ' || *val == '\t')
		val++;
	for (char *e = eq - 1; e >= key && (*e == ' ' || *e == '\t'); e--)
		*e = '\0';
	if (p->nsamples) {
		PERR(p, "%s= after the first sample line", key);
		return EINVAL;
	}
	if (parse_number(val, &v)) {
		PERR(p, "%s=%s: expected a number", key, val);
		return EINVAL;
	}
	if (!strcasecmp(key, "Version")) {
		if (v != 1) {
			PERR(p, "Version=%s: only version 1 is known", val);
			return EINVAL;
		}
		p->has_version = true;
	} else if (!strcasecmp(key, "Start")) {
		if (v < 0 || v > DL_FORECAST_MAX_TIME) {
			PERR(p, "Start must be in [0, %.0f] seconds",
			     DL_FORECAST_MAX_TIME);
			return EINVAL;
		}
		p->start = v;
	} else if (!strcasecmp(key, "Step")) {
		if (!(v > 0) || v > 86400 * 366.0) {
			PERR(p,
			     "Step must be > 0 seconds (and at most a year)");
			return EINVAL;
		}
		p->step = v;
		p->has_step = true;
	} else if (!strcasecmp(key, "Period")) {
		if (v < 0) {
			PERR(p, "Period must be >= 0");
			return EINVAL;
		}
		p->period = v;
	} else {
		PERR(p, "unknown setting '%.64s'", key);
		return EINVAL;
	}
	return 0;
}

static void parse_cleanup(struct fc_parse *p)
{
	for (uint32_t i = 0; i < p->ncls; i++) {
		free(p->names[i]);
		free(p->nodes[i]);
		free(p->bv[i]);
	}
	free(p->samples);
}

/* ---- block syntax: "step 60", "epoch 0", "period 86400",
 * "class NAME [nodes=EXPR] [resources=LIST]" then that class's values ---- */

static bool is_keyword(const char *s, const char *kw)
{
	size_t n = strlen(kw);

	return !strncasecmp(s, kw, n) && (s[n] == ' ' || s[n] == '\t');
}

static int block_setting(struct fc_parse *p, char *line)
{
	char *val = line;
	double v;

	while (*val && *val != ' ' && *val != '\t')
		val++;
	*val++ = '\0';
	while (*val == ' ' || *val == '\t')
		val++;
	if (p->ncls) {
		PERR(p, "'%s' after the first class", line);
		return EINVAL;
	}
	if (parse_number(val, &v)) {
		PERR(p, "%s %s: expected a number", line, val);
		return EINVAL;
	}
	if (!strcasecmp(line, "step")) {
		if (!(v > 0) || v > 86400 * 366.0) {
			PERR(p,
			     "step must be > 0 seconds (and at most a year)");
			return EINVAL;
		}
		p->step = v;
		p->has_step = true;
	} else if (!strcasecmp(line, "epoch")) {
		if (v < 0 || v > DL_FORECAST_MAX_TIME) {
			PERR(p, "epoch must be in [0, %.0f] seconds",
			     DL_FORECAST_MAX_TIME);
			return EINVAL;
		}
		p->start = v;
	} else {
		if (v < 0) {
			PERR(p, "period must be >= 0");
			return EINVAL;
		}
		p->period = v;
	}
	return 0;
}

static int block_class(struct fc_parse *p, char *line)
{
	char *tok, *save, *name, *nodes = "*";
	unsigned mask = 0;
	bool whole = false;
	char msg[160];

	strtok_r(line, " \t", &save); /* "class" */
	name = strtok_r(NULL, " \t", &save);
	if (!name || strchr(name, '=')) {
		PERR(p, "class: expected a name");
		return EINVAL;
	}
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (!strncasecmp(tok, "nodes=", 6)) {
			nodes = tok + 6;
			if (dl_nodeset_check(nodes, msg, sizeof(msg))) {
				PERR(p, "nodes=%s: %s", nodes, msg);
				return EINVAL;
			}
		} else if (!strncasecmp(tok, "resources=", 10)) {
			if (parse_resources(tok + 10, &mask)) {
				PERR(p, "%s: expected a list of cpu, mem, io",
				     tok);
				return EINVAL;
			}
		} else if (!strncasecmp(tok, "share=", 6)) {
			if (parse_share(tok + 6, &whole)) {
				PERR(p, "%s: expected fraction or nodes", tok);
				return EINVAL;
			}
		} else {
			PERR(p, "class %s: unknown '%s'", name, tok);
			return EINVAL;
		}
	}
	if (p->ncls >= DL_FORECAST_MAX_CLASSES) {
		PERR(p, "more than %d classes", DL_FORECAST_MAX_CLASSES);
		return EINVAL;
	}
	return add_class(p, name, nodes, whole, mask);
}

static int block_values(struct fc_parse *p, char *line)
{
	uint32_t c = p->ncls - 1;
	char *tok, *save;

	if (!p->ncls) {
		PERR(p, "values before any class line");
		return EINVAL;
	}
	for (tok = strtok_r(line, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		double v;

		if (parse_number(tok, &v) || v < 0 || v > 1) {
			PERR(p, "'%s': a load must be a fraction in [0,1]",
			     tok);
			return EINVAL;
		}
		if (p->bn[c] >= DL_FORECAST_MAX_SAMPLES) {
			PERR(p, "more than %u values in class %s",
			     DL_FORECAST_MAX_SAMPLES, p->names[c]);
			return EINVAL;
		}
		if (dl_grow(&p->bv[c], p->bn[c], &p->bcap[c], sizeof(*p->bv[c]),
			    1024))
			return ENOMEM;
		p->bv[c][p->bn[c]++] = v;
	}
	return 0;
}

/* Blocks to sample rows: a shorter class holds its last value (what the
 * series does after its end anyway); with a period they must agree. */
static int block_rows(struct fc_parse *p)
{
	uint32_t n = 0;

	for (uint32_t c = 0; c < p->ncls; c++) {
		if (!p->bn[c]) {
			PERR(p, "class %s has no values", p->names[c]);
			return EINVAL;
		}
		if (p->bn[c] > n)
			n = p->bn[c];
	}
	for (uint32_t c = 0; c < p->ncls; c++)
		if (p->period > 0 && p->bn[c] != n) {
			PERR(p,
			     "periodic classes need the same number of values "
			     "(%s has %u, others %u)",
			     p->names[c], p->bn[c], n);
			return EINVAL;
		}
	p->samples = malloc((size_t) n * p->ncls * sizeof(double));
	if (!p->samples)
		return ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t c = 0; c < p->ncls; c++)
			p->samples[(size_t) i * p->ncls + c] =
				p->bv[c][i < p->bn[c] ? i : p->bn[c] - 1];
	p->nsamples = n;
	p->has_version = true;
	return 0;
}

static int parse_finish(struct fc_parse *p, struct dl_forecast **out)
{
	struct dl_forecast *f;
	double *col;
	int rc = 0;

	if (p->syntax == 2 && p->ncls && (rc = block_rows(p)))
		return rc;
	if (!p->has_version || !p->has_step || !p->ncls || !p->nsamples) {
		PERR(p, "a forecast needs Version=1, Step=, at least one "
			"Class= and samples");
		return EINVAL;
	}
	if (p->period > 0 &&
	    fabs(p->period - p->step * p->nsamples) > 1e-6 * p->period) {
		PERR(p, "Period=%g must equal Step x samples (%g x %u)",
		     p->period, p->step, p->nsamples);
		return EINVAL;
	}
	f = dl_forecast_new(p->start, p->step, p->period, p->nsamples);
	col = malloc(p->nsamples * sizeof(*col));
	if (!f || !col) {
		dl_forecast_free(f);
		free(col);
		return ENOMEM;
	}
	for (uint32_t c = 0; c < p->ncls && !rc; c++) {
		for (uint32_t i = 0; i < p->nsamples; i++)
			col[i] = p->samples[(size_t) i * p->ncls + c];
		rc = dl_forecast_add_class(f, p->names[c], p->nodes[c],
					   p->res[c], col);
		if (!rc)
			dl_forecast_set_whole_nodes(f, c, p->whole[c]);
	}
	free(col);
	if (rc) {
		PERR(p, "%s", rc == ENOMEM ? "out of memory" : "invalid class");
		dl_forecast_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

int dl_forecast_parse(const char *text, size_t len, const char *origin,
		      struct dl_forecast **out, char *err, size_t errlen)
{
	struct fc_parse p = {0};
	size_t pos = 0;
	int rc = 0;

	p.origin = origin ? origin : "forecast";
	p.err = err;
	p.errlen = errlen;
	if (!out || (!text && len)) {
		snprintf(err, err ? errlen : 0, "no forecast text");
		return EINVAL;
	}
	*out = NULL;
	while (pos < len && !rc) {
		size_t end = pos, n;
		char line[4096], *s, *hash;

		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		p.line++;
		if (n >= sizeof(line)) {
			PERR(&p, "line longer than %zu bytes",
			     sizeof(line) - 1);
			rc = EINVAL;
			break;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos = end + 1;
		if (memchr(line, '\0', n)) {
			PERR(&p, "NUL byte in line");
			rc = EINVAL;
			break;
		}
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		s = line;
		while (isspace((unsigned char) *s))
			s++;
		for (char *e = s + strlen(s);
		     e > s && isspace((unsigned char) e[-1]);)
			*--e = '\0';
		if (!*s)
			continue;
		if (is_keyword(s, "step") || is_keyword(s, "epoch") ||
		    is_keyword(s, "period") || is_keyword(s, "class")) {
			if (p.syntax == 1) {
				PERR(&p,
				     "'%s': keyword syntax mixed with "
				     "Key=Value syntax",
				     s);
				rc = EINVAL;
				break;
			}
			p.syntax = 2;
			rc = is_keyword(s, "class") ? block_class(&p, s)
						    : block_setting(&p, s);
		} else if (p.syntax == 2) {
			rc = block_values(&p, s);
		} else {
			p.syntax = 1;
			if (!strncasecmp(s, "Class=", 6))
				rc = parse_class(&p, s);
			else if (strchr(s, '='))
				rc = parse_setting(&p, s);
			else
				rc = parse_sample(&p, s);
		}
	}
	if (!rc)
		rc = parse_finish(&p, out);
	if (rc == ENOMEM)
		snprintf(err, err ? errlen : 0, "%s: out of memory", p.origin);
	parse_cleanup(&p);
	return rc;
}

int dl_forecast_load(const char *path, struct dl_forecast **out, char *err,
		     size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!path || !out) {
		snprintf(err, err ? errlen : 0, "no forecast file given");
		return EINVAL;
	}
	*out = NULL;
	rc = dl_read_file(path, DL_FORECAST_MAX_FILE, &text, &len);
	if (rc) {
		snprintf(err, err ? errlen : 0, "%s: %s", path,
			 dl_file_strerror(rc));
		return rc;
	}
	rc = dl_forecast_parse(text, len, path, out, err, errlen);
	free(text);
	return rc;
}
