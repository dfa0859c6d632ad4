/*
 * estimator_raw.c - test helper for the estimator's bats suites: sends bytes
 * verbatim to a Unix (or loopback TCP) socket and prints what comes back,
 * so tests can send malformed, oversized or partial requests.
 *
 *   estimator_raw (--socket PATH | --tcp PORT) [--expect N] [--timeout S]
 *           [--hold S] [--no-shutdown] < requests
 *
 * Sends stdin, then (unless --no-shutdown) half-closes; prints response
 * lines until N lines arrived (--expect), the daemon closed, or the timeout
 * (default 10 s) passed.  --hold S: connect, send stdin, keep the
 * connection open S seconds before reading.  Exit: 0 ok, 3 timeout before
 * N lines, 4 cannot connect, 5 I/O error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	int port = 0, expect = -1, shut = 1, fd, lines = 0;
	double timeout = 10, hold = 0, deadline;
	char buf[65536];
	ssize_t n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--socket") && i + 1 < argc)
			path = argv[++i];
		else if (!strcmp(argv[i], "--tcp") && i + 1 < argc)
			port = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--expect") && i + 1 < argc)
			expect = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			timeout = atof(argv[++i]);
		else if (!strcmp(argv[i], "--hold") && i + 1 < argc)
			hold = atof(argv[++i]);
		else if (!strcmp(argv[i], "--no-shutdown"))
			shut = 0;
		else {
			fprintf(stderr, "estimator_raw: bad argument %s\n",
				argv[i]);
			return 2;
		}
	}
	if (path) {
		struct sockaddr_un sa = {.sun_family = AF_UNIX};

		if (strlen(path) >= sizeof(sa.sun_path))
			return 2;
		strcpy(sa.sun_path, path);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0 ||
		    connect(fd, (struct sockaddr *) &sa, sizeof(sa))) {
			fprintf(stderr, "estimator_raw: connect %s: %s\n", path,
				strerror(errno));
			return 4;
		}
	} else if (port > 0) {
		struct sockaddr_in sa = {.sin_family = AF_INET,
					 .sin_port = htons((uint16_t) port),
					 .sin_addr.s_addr =
						 htonl(INADDR_LOOPBACK)};

		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 ||
		    connect(fd, (struct sockaddr *) &sa, sizeof(sa))) {
			fprintf(stderr,
				"estimator_raw: connect 127.0.0.1:%d: %s\n",
				port, strerror(errno));
			return 4;
		}
	} else {
		fprintf(stderr,
			"estimator_raw: --socket or --tcp is required\n");
		return 2;
	}
	while ((n = read(0, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = send(fd, buf + off, (size_t) (n - off),
					 MSG_NOSIGNAL);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				/* the daemon may close first (busy):
				 * still print what it said */
				goto receive;
			}
			off += w;
		}
	}
	if (hold > 0) {
		struct timespec ts = {(time_t) hold,
				      (long) ((hold - (time_t) hold) * 1e9)};

		nanosleep(&ts, NULL);
	}
receive:
	if (shut)
		shutdown(fd, SHUT_WR);
	deadline = now() + timeout;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		double left = deadline - now();
		int r;

		if (expect >= 0 && lines >= expect)
			break;
		if (left <= 0)
			return 3;
		r = poll(&p, 1, (int) (left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 3;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECONNRESET)
				break;
			return 5;
		}
		if (n == 0)
			break;
		fwrite(buf, 1, (size_t) n, stdout);
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
	}
	fflush(stdout);
	close(fd);
	return expect >= 0 && lines < expect ? 3 : 0;
}
