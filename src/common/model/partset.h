/*
 * model/partset.h - the partitions a node is in, as a bitset that grows
 * with the partition indices: a cluster may have any number of partitions
 * (Slurm sets no limit; an earlier 64-bit mask dropped the 65th).
 *
 * An empty set is a node without partition information.  The capacity
 * classes count such a node for every partition (a cluster described
 * without partitions); the placement gives it only to jobs without a
 * partition.
 */
#ifndef DL_PARTSET_H
#define DL_PARTSET_H

#include <stdbool.h>
#include <stdint.h>

struct dl_partset {
	uint64_t *w; /* bit p of word p / 64: in partition p */
	uint32_t nw; /* words allocated */
};

void dl_partset_free(struct dl_partset *s);
/* Add partition p.  0 or ENOMEM (the set is unchanged). */
int dl_partset_add(struct dl_partset *s, uint32_t p);
bool dl_partset_has(const struct dl_partset *s, uint32_t p);
bool dl_partset_empty(const struct dl_partset *s);
uint32_t dl_partset_count(const struct dl_partset *s);
/* The same partitions (trailing empty words do not count). */
bool dl_partset_equal(const struct dl_partset *a, const struct dl_partset *b);
/* Order of the sets read as binary numbers (partition 0 the lowest bit):
 * <0, 0, >0. */
int dl_partset_cmp(const struct dl_partset *a, const struct dl_partset *b);
/* dst becomes a copy of src (dst's old words are freed).  0 or ENOMEM. */
int dl_partset_copy(struct dl_partset *dst, const struct dl_partset *src);
/* The set of the partitions 0..63 whose bits are set in mask (the
 * simulator's cluster files, tests).  0 or ENOMEM. */
int dl_partset_from_mask(struct dl_partset *s, uint64_t mask);

#endif
