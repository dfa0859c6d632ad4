/*
 * sched_state.h - what the sched plugin remembers about each deadline array
 * between plan cycles and across slurmctld restarts: the array's description,
 * the finished tasks it has observed (so the task-length estimate survives
 * the purge of completed job records after MinJobAge), the map/reduce
 * pairing, and the decisions last applied (to log changes and to give back
 * the user's own settings when a job stops being managed).
 *
 * Plain C11, no Slurm headers.  Saved as JSON (atomically) in
 * StateSaveLocation and restored when slurmctld starts.
 */
#ifndef DL_SCHED_STATE_H
#define DL_SCHED_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/model/model.h"
#include "common/plan/decide.h"
#include "common/plan/plan.h"

/* Largest task id Slurm accepts (MaxArraySize is at most 4000001). */
#define DL_IDSET_MAX 4000000u

/* A set of array task ids (a bitmap that grows on demand). */
struct dl_idset {
	uint8_t *bits;
	uint32_t nbytes;
	uint32_t count;
};

/* Add id: 1 if it was new, 0 if already present, -EINVAL for an id above
 * DL_IDSET_MAX, -ENOMEM. */
int dl_idset_add(struct dl_idset *s, uint32_t id);
/* Remove id: true if it was there. */
bool dl_idset_remove(struct dl_idset *s, uint32_t id);
bool dl_idset_has(const struct dl_idset *s, uint32_t id);
void dl_idset_free(struct dl_idset *s);
/* "0-5,7,9-12" (empty string for an empty set); caller frees; NULL when out
 * of memory. */
char *dl_idset_format(const struct dl_idset *s);
/* Parse that format into an empty set; EINVAL with a message on malformed
 * text (the set is left empty). */
int dl_idset_parse(struct dl_idset *s, const char *text, char *err,
		   size_t errlen);

struct dl_array_rec {
	uint64_t id;        /* ArrayJobId */
	uint64_t map_id;    /* a reduce array: the map array it waits for */
	uint64_t reduce_id; /* a map array: the reduce array waiting for it */
	uint64_t dep_other; /* afterok on a job that is not an array */
	/* description, refreshed while the array is in slurmctld */
	char user[32];
	char account[32];
	char name[64];
	char partition[64];
	double submit;
	uint32_t tasks; /* tasks in the array */
	uint32_t cpus_per_task;
	uint64_t mem_per_task; /* MB */
	double time_limit;     /* s; the limit Slurm's deadline check uses */
	double hard_deadline;  /* Slurm --deadline; 0 = none */
	double soft_deadline;  /* SPANK --soft-deadline; 0 = none */
	double reduce_cost;    /* hint; 0 = none */
	int32_t max_delays;    /* hint; -1 = none */
	/* --task-profile hint (ras/reverse); not saved: read again from the
	 * job record at every snapshot */
	bool has_profile;
	struct dl_demand profile; /* the array's own tasks */
	bool has_shuffle;
	struct dl_demand shuffle; /* a reduce array: while maps still run */
	/* observed finished tasks */
	struct dl_idset finished; /* task ids counted (completed or failed) */
	/* of those, the ids counted failed (a rerun takes them back); files
	 * written before it existed have none */
	struct dl_idset failed_ids;
	uint32_t completed;
	/* of those, completed with no length to learn (dl_sstate_observe_
	 * unmeasured); the others are done_pool's */
	uint32_t unmeasured;
	uint32_t failed;
	/* tasks that left slurmctld without a record of their own: unstarted
	 * tasks cancelled by id (scancel 12_[4-9], scancel --user, -t
	 * PENDING), which Slurm drops from the pending record.  Not in
	 * `finished` (no id); counted failed by dl_sstate_fill_phase */
	uint32_t vanished;
	uint32_t done_pool[DL_POOLS];
	double sum_len[DL_POOLS];
	double sumsq_len[DL_POOLS];
	double first_start; /* 0 = no task started yet */
	double last_end;    /* 0 = no task finished yet */
	/* decisions last applied by the plugin */
	bool managed;
	uint32_t alloc;         /* ArrayTaskThrottle we set */
	uint8_t prio_mode;      /* enum dl_prio_mode */
	bool user_saved;        /* user_throttle holds the user's own value */
	uint32_t user_throttle; /* 0 = unlimited */
	char verdict[16];       /* last verdict logged */
	/* bookkeeping */
	double last_seen; /* last snapshot that had the array */
	bool present;     /* in the last snapshot */
};

struct dl_sstate {
	struct dl_array_rec *recs;
	uint32_t n, cap;
	uint32_t *index; /* open addressing: rec index + 1, 0 = empty */
	uint32_t index_size;
	uint64_t cycle;
	/* records the last load skipped as unreadable (the rest loaded) */
	uint32_t skipped;
};

void dl_sstate_init(struct dl_sstate *st);
void dl_sstate_free(struct dl_sstate *st);
/* The record of an array, or NULL.  Pointers stay valid until the next
 * dl_sstate_add or dl_sstate_gc. */
struct dl_array_rec *dl_sstate_find(const struct dl_sstate *st, uint64_t id);
/* Find or create (zeroed, max_delays -1); NULL for id 0 or out of memory. */
struct dl_array_rec *dl_sstate_add(struct dl_sstate *st, uint64_t id);

/* Count a finished task once: ok = completed successfully (its length
 * end - start feeds the estimate, on `pool`), otherwise failed (cancelled,
 * timed out, ...).  Returns 0 when counted, EEXIST when the task id was
 * already counted, EINVAL for bad input (NULL, id too large, non-finite or
 * negative times, end before start), ENOMEM. */
int dl_sstate_observe(struct dl_array_rec *rec, uint32_t task_id, bool ok,
		      double start, double end, int pool);
/* Count a task that completed successfully but whose length is not known:
 * it is done, and feeds no estimate (the sched plugin: a task whose end
 * slurmctld heard of only after a restart).  Returns as dl_sstate_observe;
 * EINVAL also for an end that is not finite. */
int dl_sstate_observe_unmeasured(struct dl_array_rec *rec, uint32_t task_id,
				 double end);

/* Match the record to what slurmctld has of the array now: `running`
 * tasks (not counted finished) and `pending` ones waiting to start.  More
 * than the record knew raises its task count; fewer are tasks that left
 * without a record (cancelled while pending) and become vanished, once:
 * nothing runs them any more, and a plan that waited for them would hold
 * CPUs for tasks that do not exist until slurmctld purges the array. */
void dl_sstate_reconcile(struct dl_array_rec *rec, uint32_t running,
			 uint32_t pending);

/* slurmctld runs a counted task again (scontrol requeue of a finished
 * task).  One counted failed is taken back: it is work again, running or
 * pending, and counted when it ends, so a task that failed and then
 * completed is completed.  One counted completed stays so (its length is
 * learned, and the deadline's work is done); its rerun is no work of the
 * plan's.  Returns 0 when taken back, EEXIST when it stays counted, ENOENT
 * when it was not counted, EINVAL for NULL. */
int dl_sstate_rerun(struct dl_array_rec *rec, uint32_t task_id);
/* Whether the record counted the task completed: a rerun of it is then no
 * work of the plan's, and what it holds belongs to nobody the plan serves
 * (the caller counts it as another job's use).  False for NULL. */
bool dl_sstate_counted_completed(const struct dl_array_rec *rec,
				 uint32_t task_id);

/* A phase of the core model from a record: tasks, what one task asks for,
 * time limit, hard deadline and the observed completions.  Running tasks
 * are added by the caller.  When the array is gone from slurmctld
 * (!present) tasks never seen finishing count as failed, so the phase ends.
 * Returns 0 or EINVAL. */
int dl_sstate_fill_phase(const struct dl_array_rec *rec, struct dl_phase *ph);

/* What the sched plugin tells Slurm about one array this cycle: the core's
 * decision (plan/decide.h) and what applying it has to undo from the last
 * cycle, read from the array's record. */
struct dl_array_decision {
	struct dl_decision d;
	bool ours_held;         /* held by the plan last cycle */
	bool release_hold;      /* a hold of ours goes */
	bool restore_prio;      /* managed before, not now: Slurm's priority */
	uint32_t user_throttle; /* not managed: the user's own throttle */
};

/* The decisions of a plan for the arrays present in st: every managed
 * array, and every array managed before that no longer is (given back).
 * out holds 2 * plan->njobs entries; returns how many were written. */
uint32_t dl_sstate_decisions(const struct dl_plan *plan,
			     const struct dl_sstate *st,
			     struct dl_array_decision *out);

/* Forget arrays that slurmctld no longer has and that were last seen more
 * than `retention` seconds before now, unless an array still present refers
 * to them (a reduce array keeps its map array).  Returns how many went. */
uint32_t dl_sstate_gc(struct dl_sstate *st, double now, double retention);

/* JSON (version 1).  dl_sstate_to_string returns text the caller frees, or
 * NULL when out of memory. */
char *dl_sstate_to_string(const struct dl_sstate *st);
/* Replace st's content with the parsed state; on error st is unchanged and
 * err says why.  A record that does not validate is skipped, not the
 * whole state: st->skipped counts them and err names the first. */
int dl_sstate_from_string(struct dl_sstate *st, const char *text, char *err,
			  size_t errlen);
/* Atomic save (temporary file, fsync, rename) with the given mode. */
int dl_sstate_save(const struct dl_sstate *st, const char *path, unsigned mode);
/* Load a saved state; ENOENT when there is none (st untouched). */
int dl_sstate_load(struct dl_sstate *st, const char *path, char *err,
		   size_t errlen);

#endif
