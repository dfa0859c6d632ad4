/*
 * nodeset.h - matching node names against Slurm-style host list
 * expressions ("n[1-4,7],gpu[01-02],login"), without Slurm's library: the
 * forecast's node classes and NodeIO= in deadline.conf name nodes this way.
 */
#ifndef DL_NODESET_H
#define DL_NODESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/model/model.h"

/* True when name is one of the hosts of expr.  "*" matches every node.
 * Bracket groups hold numbers and ranges; a range written with a leading
 * zero ("[01-10]") matches only that width, as in Slurm.  Malformed
 * expressions match nothing (check them with dl_nodeset_check). */
bool dl_nodeset_match(const char *expr, const char *name);

/* 0 when expr is a well-formed expression, EINVAL with a message. */
int dl_nodeset_check(const char *expr, char *err, size_t errlen);

/* Longest host name the expansion produces (longer ones are an error). */
#define DL_NODESET_NAME_MAX 255

/* The number of host names expr lists (duplicates counted), without
 * expanding it.  EINVAL for a malformed expression or "*", ERANGE with a
 * message when it lists more than max. */
int dl_nodeset_count(const char *expr, uint32_t max, uint32_t *count, char *err,
		     size_t errlen);

/* Call fn for every host name of expr, in the order written (duplicates
 * included), as long as fn returns 0; its nonzero value is returned.  The
 * name is only valid during the call.  EINVAL for a malformed expression,
 * "*" or a name longer than DL_NODESET_NAME_MAX, ERANGE past max names. */
int dl_nodeset_foreach(const char *expr, uint32_t max,
		       int (*fn)(const char *name, void *ctx), void *ctx,
		       char *err, size_t errlen);

/* The canonical host list of n names: duplicates dropped, sorted (prefix,
 * then number), runs compressed on the trailing number as Slurm prints them
 * ("n[1-3,7],login").  Zero-padded numbers keep their width; an unpadded
 * number of the same width joins a padded run ("n[098-100]").  The result
 * lists exactly the given names.  Returns 0 with *out allocated (caller
 * frees), EINVAL (NULL, n == 0, a name not produced by an expansion) or
 * ENOMEM.  names is reordered. */
int dl_nodeset_compress(char **names, uint32_t n, char **out);

/* NodeIO= of deadline.conf: "expr=value[,expr=value...]" where expr may
 * itself hold bracket groups with commas ("n[1-4,7]=200,n5=100").  Checks
 * the syntax and the values (finite, >= 0); 0 or EINVAL with a message. */
int dl_node_io_check(const char *spec, char *err, size_t errlen);

/* The I/O capacity NodeIO gives the node called name (the first entry that
 * matches), else dflt.  A malformed spec yields dflt for every node. */
double dl_node_io_lookup(const char *spec, const char *name, double dflt);

#endif
