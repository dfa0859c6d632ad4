/*
 * atomic_file.h - whole-file writes that readers never see half done
 * (temporary file in the same directory, fsync, rename, fsync of the
 * directory) and bounded whole-file reads.  Used for the published plan and
 * the plugins' saved state.
 */
#ifndef DL_ATOMIC_FILE_H
#define DL_ATOMIC_FILE_H

#include <errno.h>
#include <stddef.h>

/* Returns 0 or an errno value; on failure the old file is untouched. */
int dl_atomic_write(const char *path, const void *data, size_t len,
		    unsigned mode);

/* The error of a path that names a FIFO, a device, a directory or a
 * socket where a regular file is expected (dl_file_strerror says so). */
#define DL_E_NOT_REGULAR EMEDIUMTYPE

/* Open a regular file for reading without ever waiting: O_NONBLOCK, then
 * fstat; anything but a regular file is closed again.  The one way the
 * core and the plugins open a file they read (a FIFO named in a
 * configuration would otherwise stop slurmctld's plan thread in open()).
 * Returns the descriptor (blocking mode restored), or -errno
 * (-DL_E_NOT_REGULAR for the wrong file type); st_out may be NULL. */
struct stat;
int dl_open_regular(const char *path, struct stat *st_out);

/* Keep a damaged file as PATH.bad (replacing an older one), so that the
 * next save does not overwrite what an admin may want to inspect.  0 or an
 * errno value. */
int dl_file_set_aside(const char *path);

/* strerror() that names DL_E_NOT_REGULAR plainly. */
const char *dl_file_strerror(int rc);

/* Read at most max bytes of a regular file (dl_open_regular) into a
 * NUL-terminated buffer (caller frees).  EFBIG when the file is larger
 * than max, DL_E_NOT_REGULAR when it is not a regular file. */
int dl_read_file(const char *path, size_t max, char **data, size_t *len);

#endif
