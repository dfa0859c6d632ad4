/*
 * server.h - the single-threaded epoll loop of deadline-estimatord:
 * listeners (Unix socket, optional loopback TCP), connections with line
 * framing and limits, signals (SIGTERM/SIGINT stop, SIGHUP reloads the
 * forecast file), idle timeouts and periodic retention.
 */
#ifndef EST_SERVER_H
#define EST_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "estimator/handlers.h"

/* Create the Unix listening socket safely: the parent directory is
 * created (0755) if missing and refused when others may write to it
 * without the sticky bit; an existing non-socket file is never removed; a
 * socket another daemon answers on is refused; the socket is created 0600
 * and then given mode/group.  Returns the fd or -1 with err set. */
/* Remove the socket at path only if it is still the one this process
 * bound (not a socket someone put there since). */
void server_unlink_unix(const char *path);
int server_listen_unix(const char *path, unsigned mode, const char *group,
		       char *err, size_t errlen);
/* Listen on 127.0.0.1:port.  fd or -1 with err set. */
int server_listen_tcp(uint32_t port, char *err, size_t errlen);

/* Block SIGTERM, SIGINT and SIGHUP (handled through a signalfd by
 * server_run) and ignore SIGPIPE.  Call before creating threads. */
int server_block_signals(void);

/* Run until SIGTERM/SIGINT.  Returns 0 on a clean stop. */
int server_run(struct est_ctx *ctx, int unix_fd, int tcp_fd);

#endif
