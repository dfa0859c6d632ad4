/*
 * server.c - epoll loop, listeners and connections.
 */
#include "estimator/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/io/log.h"
#include "common/estimate/est_proto.h"
#include "common/io/clock.h"
#include "estimator/store.h"

#define READ_CHUNK  65536
#define OUT_HIGH    (4u << 20) /* stop reading a client that does not read */
#define PRUNE_BATCH 5000

enum ev_kind { EV_UNIX, EV_TCP, EV_SIGNAL, EV_CONN };

struct ev_tag {
	enum ev_kind kind;
};

struct conn {
	struct ev_tag tag; /* first: epoll data points here */
	int fd;
	struct est_peer peer;
	char *in;
	size_t inlen, incap;
	bool discarding; /* dropping the rest of an oversized line */
	char *out;
	size_t outlen, outoff, outcap;
	bool eof;     /* the client closed its side */
	bool reading; /* EPOLLIN enabled */
	bool writing; /* EPOLLOUT enabled */
	double last_active;
	struct conn *prev, *next;
};

struct server {
	struct est_ctx *ctx;
	const struct est_config *cfg;
	int epfd;
	int unix_fd, tcp_fd, sig_fd;
	struct ev_tag unix_tag, tcp_tag, sig_tag;
	struct conn *conns;
	uint32_t nconns;
	bool stop;
	double next_prune;
	bool prune_more;
};

/* ---- listeners ---- */

static int check_dir(const char *path, char *err, size_t errlen)
{
	char *copy = strdup(path), *dir;
	struct stat st;
	int rc = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	dir = dirname(copy);
	if (stat(dir, &st) < 0 && errno == ENOENT) {
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			snprintf(err, errlen, "cannot create %s: %s", dir,
				 strerror(errno));
			rc = -1;
		} else if (stat(dir, &st) < 0) {
			rc = -1;
		}
	} else if (stat(dir, &st) < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		rc = -1;
	}
	if (!rc && !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is not a directory", dir);
		rc = -1;
	}
	/* whoever owns it: in a directory others may write to without the
	 * sticky bit, anyone can replace the socket with their own and
	 * answer the daemon's clients (root's included) */
	if (!rc && (st.st_mode & (S_IWGRP | S_IWOTH)) &&
	    !(st.st_mode & S_ISVTX)) {
		snprintf(err, errlen,
			 "refusing socket directory %s: others may write to "
			 "it (no sticky bit)",
			 dir);
		rc = -1;
	}
	free(copy);
	return rc;
}

/* the socket this daemon created (server_unlink_unix removes only it) */
static dev_t bound_dev;
static ino_t bound_ino;

void server_unlink_unix(const char *path)
{
	struct stat st;

	/* never another's: the path may have been replaced since */
	if (path && lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    st.st_dev == bound_dev && st.st_ino == bound_ino && bound_ino)
		unlink(path);
}

int server_listen_unix(const char *path, unsigned mode, const char *group,
		       char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct stat st;
	mode_t old;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "socket path too long: %s", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	if (check_dir(path, err, errlen))
		return -1;
	if (lstat(path, &st) == 0) {
		int probe;

		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen,
				 "%s exists and is not a socket; not removing "
				 "it",
				 path);
			return -1;
		}
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 &&
		    connect(probe, (struct sockaddr *) &sa, sizeof(sa)) == 0) {
			close(probe);
			snprintf(err, errlen,
				 "another daemon is listening on %s", path);
			return -1;
		}
		if (probe >= 0)
			close(probe);
		if (st.st_uid != geteuid()) {
			snprintf(err, errlen,
				 "%s is a socket of uid %ld, not ours; not "
				 "removing it",
				 path, (long) st.st_uid);
			return -1;
		}
		if (unlink(path) < 0) {
			snprintf(err, errlen, "cannot remove stale %s: %s",
				 path, strerror(errno));
			return -1;
		}
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	old = umask(0177); /* the socket is born 0600 */
	if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		umask(old);
		snprintf(err, errlen, "bind %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	umask(old);
	if (group && group[0]) {
		struct group *gr = getgrnam(group);

		if (!gr || chown(path, (uid_t) -1, gr->gr_gid) < 0) {
			snprintf(err, errlen, "SocketGroup %s: %s", group,
				 gr ? strerror(errno) : "no such group");
			unlink(path);
			close(fd);
			return -1;
		}
	}
	if (lstat(path, &st) == 0) {
		bound_dev = st.st_dev;
		bound_ino = st.st_ino;
	}
	if (chmod(path, (mode_t) mode) < 0 || listen(fd, 128) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(path);
		close(fd);
		return -1;
	}
	return fd;
}

int server_listen_tcp(uint32_t port, char *err, size_t errlen)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t) port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0 ||
	    listen(fd, 128) < 0) {
		snprintf(err, errlen, "127.0.0.1:%u: %s", port,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int server_block_signals(void)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	return sigprocmask(SIG_BLOCK, &set, NULL);
}

/* ---- connections ---- */

static int conn_events(struct server *s, struct conn *c)
{
	struct epoll_event ev = {.data.ptr = &c->tag};
	bool want_read = !c->eof && (c->outlen - c->outoff) < OUT_HIGH;
	bool want_write = c->outlen > c->outoff;

	if (want_read == c->reading && want_write == c->writing)
		return 0;
	ev.events = (want_read ? EPOLLIN : 0) | (want_write ? EPOLLOUT : 0);
	c->reading = want_read;
	c->writing = want_write;
	return epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void conn_close(struct server *s, struct conn *c)
{
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		s->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	free(c->in);
	free(c->out);
	free(c);
	s->nconns--;
	s->ctx->connections = s->nconns;
}

static int out_append(struct conn *c, const char *data, size_t len)
{
	if (c->outoff && c->outoff == c->outlen)
		c->outoff = c->outlen = 0;
	if (c->outlen + len > c->outcap) {
		size_t cap = c->outcap ? c->outcap : 4096;
		char *b;

		/* compact before growing */
		if (c->outoff) {
			memmove(c->out, c->out + c->outoff,
				c->outlen - c->outoff);
			c->outlen -= c->outoff;
			c->outoff = 0;
		}
		while (cap < c->outlen + len)
			cap *= 2;
		if (cap != c->outcap) {
			b = realloc(c->out, cap);
			if (!b)
				return ENOMEM;
			c->out = b;
			c->outcap = cap;
		}
	}
	memcpy(c->out + c->outlen, data, len);
	c->outlen += len;
	return 0;
}

/* Write what the socket takes now.  -1: the connection is dead. */
static int conn_flush(struct conn *c)
{
	while (c->outoff < c->outlen) {
		ssize_t w =
			send(c->fd, c->out + c->outoff, c->outlen - c->outoff,
			     MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w > 0) {
			c->outoff += (size_t) w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		return -1;
	}
	c->outoff = c->outlen = 0;
	return 0;
}

static int queue_error(struct conn *c, const char *code, const char *msg)
{
	size_t len;
	char *line = dl_est_format_error("null", code, msg, &len);
	int rc;

	if (!line)
		return ENOMEM;
	rc = out_append(c, line, len);
	free(line);
	return rc;
}

static int handle_one(struct server *s, struct conn *c, char *line, size_t len)
{
	size_t outlen = 0;
	char *resp;
	int rc;

	if (len && line[len - 1] == '\r')
		len--;
	/* blank lines are not requests (friendly to interactive use) */
	{
		size_t i = 0;

		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			return 0;
	}
	c->last_active = dl_monotonic_s();
	resp = est_handle_line(s->ctx, &c->peer, line, len, &outlen);
	if (!resp)
		return queue_error(c, DL_EST_E_INTERNAL, "out of memory");
	rc = out_append(c, resp, outlen);
	free(resp);
	return rc;
}

static int too_large(struct server *s, struct conn *c)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "request line longer than %u bytes",
		 s->cfg->max_line);
	s->ctx->errors++;
	dl_log(DL_LOG_VERBOSE, "oversized request from uid %ld",
	       c->peer.known ? (long) c->peer.uid : -1L);
	return queue_error(c, DL_EST_E_TOO_LARGE, msg);
}

/* Handle every complete line in the input buffer. */
static int process_input(struct server *s, struct conn *c)
{
	size_t start = 0;
	int rc = 0;

	while (start < c->inlen && !rc) {
		char *nl = memchr(c->in + start, '\n', c->inlen - start);
		size_t len;

		if (!nl)
			break;
		len = (size_t) (nl - (c->in + start));
		if (c->discarding)
			c->discarding = false; /* end of the oversized line */
		else if (len > s->cfg->max_line)
			rc = too_large(s, c);
		else
			rc = handle_one(s, c, c->in + start, len);
		start += len + 1;
	}
	if (start) {
		memmove(c->in, c->in + start, c->inlen - start);
		c->inlen -= start;
	}
	if (rc)
		return rc;
	if (c->inlen > s->cfg->max_line) {
		/* no newline within the limit: answer once, then drop the
		 * rest of that line; the connection stays usable */
		if (!c->discarding)
			rc = too_large(s, c);
		c->discarding = true;
		c->inlen = 0;
	}
	if (c->eof && c->inlen && !c->discarding) {
		/* a last request without its newline */
		rc = handle_one(s, c, c->in, c->inlen);
		c->inlen = 0;
	}
	return rc;
}

static void conn_read(struct server *s, struct conn *c)
{
	ssize_t r;

	if (c->incap - c->inlen < READ_CHUNK) {
		size_t cap = c->inlen + READ_CHUNK;
		char *b = realloc(c->in, cap);

		if (!b) {
			conn_close(s, c);
			return;
		}
		c->in = b;
		c->incap = cap;
	}
	r = recv(c->fd, c->in + c->inlen, READ_CHUNK, MSG_DONTWAIT);
	if (r < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return;
		conn_close(s, c);
		return;
	}
	if (r == 0)
		c->eof = true;
	c->inlen += (size_t) r;
	if (process_input(s, c) || conn_flush(c)) {
		conn_close(s, c);
		return;
	}
	/* shrink a buffer grown for a big request */
	if (c->incap > 4 * READ_CHUNK && c->inlen < READ_CHUNK) {
		char *b = realloc(c->in, READ_CHUNK);

		if (b) {
			c->in = b;
			c->incap = READ_CHUNK;
		}
	}
	if (c->eof && c->outoff == c->outlen) {
		conn_close(s, c);
		return;
	}
	if (conn_events(s, c))
		conn_close(s, c);
}

static void accept_one(struct server *s, int lfd, bool tcp)
{
	struct epoll_event ev = {.events = EPOLLIN};
	struct est_peer peer = {.uid = (uid_t) -1};
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	struct conn *c;
	uint32_t mine = 0;
	int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (!tcp && getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) == 0) {
		peer.uid = cred.uid;
		peer.pid = cred.pid;
		peer.known = true;
	}
	for (struct conn *o = s->conns; o; o = o->next)
		if (o->peer.known == peer.known &&
		    (!peer.known || o->peer.uid == peer.uid))
			mine++;
	if (!est_may_connect(s->cfg, peer.uid, peer.known, s->nconns, mine)) {
		size_t len;
		char *line = dl_est_format_error(
			"null", DL_EST_E_BUSY,
			"too many connections; try again later", &len);

		if (line) {
			if (send(fd, line, len, MSG_NOSIGNAL | MSG_DONTWAIT) <
			    0) {
				/* best effort: the client sees a close */
			}
			free(line);
		}
		close(fd);
		s->ctx->errors++;
		dl_log(DL_LOG_VERBOSE,
		       "connection of uid %ld refused: %u open, %u of it",
		       peer.known ? (long) peer.uid : -1L, s->nconns, mine);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->tag.kind = EV_CONN;
	c->fd = fd;
	c->peer = peer;
	c->last_active = dl_monotonic_s();
	c->reading = true;
	ev.data.ptr = &c->tag;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		free(c);
		return;
	}
	c->next = s->conns;
	if (s->conns)
		s->conns->prev = c;
	s->conns = c;
	s->nconns++;
	s->ctx->connections = s->nconns;
	dl_log(DL_LOG_DEBUG, "connection from %s uid %ld pid %ld",
	       tcp ? "tcp" : "unix", c->peer.known ? (long) c->peer.uid : -1L,
	       (long) c->peer.pid);
}

static void expire_idle(struct server *s)
{
	double now = dl_monotonic_s();
	struct conn *c = s->conns, *next;

	for (; c; c = next) {
		next = c->next;
		if (now - c->last_active <= s->cfg->idle_timeout)
			continue;
		/* tell the client why, if it listens, then close */
		if (!queue_error(c, "timeout", "idle connection closed"))
			conn_flush(c);
		dl_log(DL_LOG_DEBUG, "closing idle connection (uid %ld)",
		       c->peer.known ? (long) c->peer.uid : -1L);
		conn_close(s, c);
	}
}

static void reload_forecast(struct server *s)
{
	struct dl_forecast *fc = NULL;
	char err[256];

	if (!s->cfg->forecast_file[0])
		return;
	if (dl_forecast_load(s->cfg->forecast_file, &fc, err, sizeof(err))) {
		dl_log(DL_LOG_ERROR, "SIGHUP: forecast not reloaded: %s", err);
		return;
	}
	dl_forecast_free(s->ctx->forecast);
	s->ctx->forecast = fc;
	dl_log(DL_LOG_INFO, "forecast reloaded from %s (%u classes)",
	       s->cfg->forecast_file, dl_forecast_nclasses(fc));
}

static void on_signal(struct server *s)
{
	struct signalfd_siginfo si;

	while (read(s->sig_fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP)
			reload_forecast(s);
		else
			s->stop = true;
	}
}

static void prune(struct server *s)
{
	double now = dl_monotonic_s();
	int deleted = 0;
	char err[256];

	if (!(s->cfg->hist.max_age > 0) || !s->ctx->store)
		return;
	if (!s->prune_more && now < s->next_prune)
		return;
	if (store_prune_age(s->ctx->store, s->ctx->now() - s->cfg->hist.max_age,
			    PRUNE_BATCH, &deleted, err, sizeof(err)))
		dl_log(DL_LOG_ERROR, "retention: %s", err);
	else if (deleted)
		dl_log(DL_LOG_VERBOSE, "retention: %d old records deleted",
		       deleted);
	s->prune_more = deleted == PRUNE_BATCH;
	s->next_prune = now + 60;
}

static int add_fd(struct server *s, int fd, struct ev_tag *tag)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = tag};

	return epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);
}

int server_run(struct est_ctx *ctx, int unix_fd, int tcp_fd)
{
	struct server s = {.ctx = ctx,
			   .cfg = ctx->cfg,
			   .unix_fd = unix_fd,
			   .tcp_fd = tcp_fd,
			   .sig_fd = -1};
	struct epoll_event evs[64];
	sigset_t set;

	s.unix_tag.kind = EV_UNIX;
	s.tcp_tag.kind = EV_TCP;
	s.sig_tag.kind = EV_SIGNAL;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	s.sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	s.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s.sig_fd < 0 || s.epfd < 0 || add_fd(&s, s.sig_fd, &s.sig_tag) ||
	    (unix_fd >= 0 && add_fd(&s, unix_fd, &s.unix_tag)) ||
	    (tcp_fd >= 0 && add_fd(&s, tcp_fd, &s.tcp_tag))) {
		dl_log(DL_LOG_ERROR, "event loop setup: %s", strerror(errno));
		if (s.sig_fd >= 0)
			close(s.sig_fd);
		if (s.epfd >= 0)
			close(s.epfd);
		return -1;
	}
	s.next_prune = dl_monotonic_s(); /* prune once at start */
	while (!s.stop) {
		int n = epoll_wait(s.epfd, evs, 64, s.prune_more ? 0 : 1000);

		if (n < 0 && errno != EINTR) {
			dl_log(DL_LOG_ERROR, "epoll_wait: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n; i++) {
			struct ev_tag *tag = evs[i].data.ptr;
			struct conn *c;

			switch (tag->kind) {
			case EV_UNIX:
				accept_one(&s, unix_fd, false);
				break;
			case EV_TCP:
				accept_one(&s, tcp_fd, true);
				break;
			case EV_SIGNAL:
				on_signal(&s);
				break;
			case EV_CONN:
				c = (struct conn *) tag;
				if (evs[i].events & (EPOLLERR | EPOLLHUP) &&
				    !(evs[i].events & EPOLLIN)) {
					conn_close(&s, c);
					break;
				}
				if (evs[i].events & EPOLLOUT) {
					if (conn_flush(c)) {
						conn_close(&s, c);
						break;
					}
					if (c->eof && c->outoff == c->outlen) {
						conn_close(&s, c);
						break;
					}
					if (conn_events(&s, c)) {
						conn_close(&s, c);
						break;
					}
					/* a connection that was throttled
					 * may have lines waiting */
					if (!(evs[i].events & EPOLLIN))
						break;
				}
				if (evs[i].events & EPOLLIN)
					conn_read(&s, c);
				break;
			}
		}
		expire_idle(&s);
		prune(&s);
	}
	while (s.conns) {
		conn_flush(s.conns);
		conn_close(&s, s.conns);
	}
	close(s.sig_fd);
	close(s.epfd);
	return 0;
}
