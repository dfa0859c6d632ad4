/*
 * locality.h - where the input of each task of an array lives: the user's
 * --input-nodes hint (doc/data-affinity.md).
 *
 *   SPEC    = ENTRY [ ";" ENTRY ]...     (a file: one ENTRY per line)
 *   ENTRY   = [ INDEXES "=" ] HOSTLIST   (no INDEXES, or "*": every task
 *                                          not listed in another entry)
 *   INDEXES = ITEM [ "," ITEM ]...,  ITEM = N | N-M | N-M:STEP  (as --array)
 *   HOSTLIST = Slurm host list ("n[1-4,7],login")
 *
 * "#" starts a comment that runs to the end of the line; blank entries are
 * ignored.  A task index may appear in one entry only.  The normalised form
 * lists each distinct host list once, with all its indexes, in the order of
 * their first task ("0-3,8=n[1-2];4-7=n3;*=n[5-6]"), host lists canonical
 * (dl_nodeset_compress); it parses back to the same locality.
 *
 * The SPANK plugin normalises the user's text with dl_locality_normalise()
 * and stores it in the job control environment (DL_ENV_INPUT_NODES);
 * select/deadline parses it back with dl_locality_parse().  One parser.
 */
#ifndef DL_LOCALITY_H
#define DL_LOCALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest task index (Slurm's MaxArraySize is at most 4000001). */
#define DL_LOCALITY_MAX_TASK 4000000u
/* Normalised text, bytes: it travels in the job control environment, which
 * Slurm copies into every started task's job record and into the prolog
 * and epilog environments (one variable may hold at most 128 KiB on
 * Linux). */
#define DL_LOCALITY_MAX_TEXT 16384u
/* Host names over all entries, duplicates counted. */
#define DL_LOCALITY_MAX_HOSTS 65536u
/* What a user may write (inline or in a file) before normalisation. */
#define DL_LOCALITY_MAX_INPUT (1u << 20)

/* Tasks lo, lo+step, ..., hi (hi is on the progression) prefer set. */
struct dl_locality_range {
	uint32_t lo, hi, step;
	uint32_t set;
};

struct dl_locality {
	char **sets; /* canonical host lists, distinct */
	uint32_t nsets;
	struct dl_locality_range *ranges; /* sorted by lo; no task twice */
	uint32_t *max_hi;                 /* max hi of ranges[0..i] */
	uint32_t nranges;
	int32_t dflt;   /* set of the tasks not listed; -1 = none */
	uint32_t hosts; /* host names over the sets (each set once) */
};

/* Parse a spec (the user's or the normalised form) into loc.  Returns 0,
 * EINVAL or ERANGE (limits) with a message naming the entry (and its line
 * when the text has several lines), or ENOMEM.  loc is empty on error. */
int dl_locality_parse(const char *text, struct dl_locality *loc, char *err,
		      size_t errlen);
void dl_locality_free(struct dl_locality *loc);

/* How to parse (dl_locality_parse: every task, canonical host lists,
 * unique indexes). */
struct dl_locality_opts {
	/* Ranges are cut to tasks 0..max_task: slurmctld knows the array's
	 * largest index, and the cost of the checks follows the tasks kept. */
	uint32_t max_task;
	/* Expand and canonicalise the host lists (the user's text); false:
	 * check and count them only, kept as written (the normal form, which
	 * slurmctld reads: parsing it is then cheap however many hosts it
	 * names). */
	bool canonical;
	/* Refuse a task index listed twice (what sbatch checks).  The check
	 * walks every listed index; slurmctld reads the normal form, which
	 * has none, and skips it (a hand-made value then gives a task listed
	 * twice the entry with the larger first index). */
	bool unique;
};

int dl_locality_parse_opt(const char *text, const struct dl_locality_opts *o,
			  struct dl_locality *loc, char *err, size_t errlen);

/* The normalised form of loc into buf.  0, EINVAL, or ERANGE when it does
 * not fit in len bytes. */
int dl_locality_format(const struct dl_locality *loc, char *buf, size_t len);

/* Parse, check and normalise the user's text into buf (at most
 * DL_LOCALITY_MAX_TEXT bytes plus the NUL; len must allow that or less).
 * Returns 0 or EINVAL/ERANGE/ENOMEM with a message for the user. */
int dl_locality_normalise(const char *text, char *buf, size_t len, char *err,
			  size_t errlen);

/* The set of preferred hosts of a task (index into loc->sets), or -1 when
 * the task has none. */
int32_t dl_locality_set_of(const struct dl_locality *loc, uint32_t task);

#endif
