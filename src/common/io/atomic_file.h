/*
 * atomic_file.h - whole-file writes that readers never see half done
 * (temporary file in the same directory, fsync, rename, fsync of the
 * directory) and bounded whole-file reads.  Used for the published plan and
 * the plugins' saved state.
 */
#ifndef DL_ATOMIC_FILE_H
#define DL_ATOMIC_FILE_H

#include <stddef.h>

/* Returns 0 or an errno value; on failure the old file is untouched. */
int dl_atomic_write(const char *path, const void *data, size_t len,
		    unsigned mode);

/* Read at most max bytes of a file into a NUL-terminated buffer (caller
 * frees).  EFBIG when the file is larger than max. */
int dl_read_file(const char *path, size_t max, char **data, size_t *len);

#endif
