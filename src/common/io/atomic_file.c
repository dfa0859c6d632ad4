/*
 * atomic_file.c - atomic replace and bounded read of small files.
 */
#include "common/io/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		p += w;
		len -= (size_t) w;
	}
	return 0;
}

static void fsync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int dl_atomic_write(const char *path, const void *data, size_t len,
		    unsigned mode)
{
	size_t n;
	char *tmp;
	int fd, rc;

	if (!path || (!data && len))
		return EINVAL;
	n = strlen(path) + 16;
	tmp = malloc(n);
	if (!tmp)
		return ENOMEM;
	snprintf(tmp, n, "%s.new.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = errno;
		free(tmp);
		return rc;
	}
	rc = write_all(fd, data, len);
	if (!rc && fchmod(fd, (mode_t) mode))
		rc = errno;
	if (!rc && fsync(fd))
		rc = errno;
	if (close(fd) && !rc)
		rc = errno;
	if (!rc && rename(tmp, path))
		rc = errno;
	if (rc)
		unlink(tmp);
	else
		fsync_dir(path);
	free(tmp);
	return rc;
}

int dl_open_regular(const char *path, struct stat *st_out)
{
	struct stat st;
	int fd, flags, rc;

	if (!path)
		return -EINVAL;
	/* O_NONBLOCK: open() of a FIFO without a writer, or of a device,
	 * would otherwise wait; only a regular file is then kept */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		rc = errno;
		close(fd);
		return -rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -DL_E_NOT_REGULAR;
	}
	/* reads of a regular file never wait anyway; plain blocking reads */
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		(void) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (st_out)
		*st_out = st;
	return fd;
}

int dl_file_set_aside(const char *path)
{
	size_t n;
	char *bad;
	int rc = 0;

	if (!path)
		return EINVAL;
	n = strlen(path) + 5;
	if (!(bad = malloc(n)))
		return ENOMEM;
	snprintf(bad, n, "%s.bad", path);
	if (rename(path, bad))
		rc = errno;
	free(bad);
	return rc;
}

const char *dl_file_strerror(int rc)
{
	return rc == DL_E_NOT_REGULAR ? "not a regular file" : strerror(rc);
}

int dl_read_file(const char *path, size_t max, char **data, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	int fd, rc = 0;

	if (!path || !data)
		return EINVAL;
	*data = NULL;
	fd = dl_open_regular(path, &st);
	if (fd < 0)
		return -fd;
	if ((size_t) st.st_size > max) {
		close(fd);
		return EFBIG;
	}
	buf = malloc((size_t) st.st_size + 1);
	if (!buf) {
		close(fd);
		return ENOMEM;
	}
	while (got < (size_t) st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t) st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = errno;
			break;
		}
		if (r == 0)
			break; /* file shrank under us */
		got += (size_t) r;
	}
	close(fd);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[got] = '\0';
	*data = buf;
	if (len)
		*len = got;
	return 0;
}
