/*
 * estimator_client.c - bounded-time client of deadline-estimatord.
 */
#include "common/estimate/estimator_client.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/estimate/est_proto.h"
#include "common/io/clock.h"
#include "common/io/timefmt.h"

#define BACKOFF_MIN 1.0
/* request lines are kept well below the daemon's default MaxLineBytes */
#define MAX_REQUEST (512u << 10)
#define BACKOFF_MAX 60.0
/* the longest reply line read (a forecast of many classes is the
 * largest); a longer one is a bad reply, not a broken estimator */
#define MAX_REPLY (16u << 20)
/* a receive buffer grown past this is given back after each reply */
#define KEEP_BUFFER (64u << 10)

struct dl_est_client {
	struct sockaddr_un addr;
	double timeout;
	int fd;
	int64_t next_id;
	/* received bytes not yet consumed */
	char *buf;
	size_t len, cap;
	/* health */
	enum dl_est_state state;
	time_t since;    /* wall clock time of the state change */
	double retry_at; /* monotonic: no attempt before this */
	double backoff;  /* next back-off period */
	char last_error[320];
};

struct dl_est_client *dl_est_client_new(const char *socket_path, double timeout)
{
	struct dl_est_client *c;

	if (!socket_path || !socket_path[0] ||
	    strlen(socket_path) >= sizeof(c->addr.sun_path) ||
	    !(timeout >= 0.001 && timeout <= 60))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->addr.sun_family = AF_UNIX;
	strcpy(c->addr.sun_path, socket_path);
	c->timeout = timeout;
	c->fd = -1;
	c->next_id = 1;
	c->backoff = BACKOFF_MIN;
	c->state = DL_EST_STATE_NEW;
	return c;
}

/* An oversized reply must not leave slurmctld holding megabytes. */
static void trim_buffer(struct dl_est_client *c)
{
	if (c->len == 0 && c->cap > KEEP_BUFFER) {
		free(c->buf);
		c->buf = NULL;
		c->cap = 0;
	}
}

static void disconnect(struct dl_est_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
	trim_buffer(c);
}

void dl_est_client_free(struct dl_est_client *c)
{
	if (!c)
		return;
	disconnect(c);
	free(c->buf);
	free(c);
}

int dl_est_client_set_timeout(struct dl_est_client *c, double timeout)
{
	if (!c || !(timeout >= 0.001 && timeout <= 60))
		return EINVAL;
	c->timeout = timeout;
	return 0;
}

enum dl_est_state dl_est_client_state(const struct dl_est_client *c)
{
	return c ? c->state : DL_EST_STATE_DOWN;
}

bool dl_est_client_up(const struct dl_est_client *c)
{
	return c && c->state == DL_EST_STATE_OK;
}

const char *dl_est_client_last_error(const struct dl_est_client *c)
{
	return c ? c->last_error : "no client";
}

const char *dl_est_client_describe(const struct dl_est_client *c,
				   bool priors_kept, char *buf, size_t len)
{
	const char *plan = priors_kept ? "last priors kept" : "using job mu";
	char when[24];

	if (!buf || !len)
		return "";
	if (!c) {
		snprintf(buf, len, "off");
		return buf;
	}
	/* "12:01:03" today, the date too when it is older */
	dl_format_time((double) c->since, (double) time(NULL), when,
		       sizeof(when));
	switch (c->state) {
	case DL_EST_STATE_OK:
		snprintf(buf, len, "ok");
		break;
	case DL_EST_STATE_NEW:
		snprintf(buf, len, "not contacted yet");
		break;
	case DL_EST_STATE_DOWN:
		snprintf(buf, len, "down since %s: %s", when, plan);
		break;
	case DL_EST_STATE_SLOW:
		snprintf(buf, len, "slow (>%.0fms) since %s: %s",
			 c->timeout * 1000, when, plan);
		break;
	case DL_EST_STATE_BUSY:
		snprintf(buf, len, "busy since %s: %s", when, plan);
		break;
	default:
		snprintf(buf, len, "bad reply since %s: %s", when, plan);
		break;
	}
	return buf;
}

static void set_state(struct dl_est_client *c, enum dl_est_state st)
{
	if (c->state != st)
		c->since = time(NULL);
	c->state = st;
}

/* A failure: close, remember why, back off. */
static int failed(struct dl_est_client *c, enum dl_est_state st, int rc,
		  const char *what)
{
	disconnect(c);
	set_state(c, st);
	snprintf(c->last_error, sizeof(c->last_error), "%s: %s", what,
		 strerror(rc));
	c->retry_at = dl_monotonic_s() + c->backoff;
	c->backoff =
		c->backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX : c->backoff * 2;
	return rc;
}

static void succeeded(struct dl_est_client *c)
{
	set_state(c, DL_EST_STATE_OK);
	c->backoff = BACKOFF_MIN;
	c->retry_at = 0;
	c->last_error[0] = '\0';
}

static int do_connect(struct dl_est_client *c)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return errno;
	/* AF_UNIX connect completes at once or fails (EAGAIN: backlog full) */
	if (connect(fd, (struct sockaddr *) &c->addr, sizeof(c->addr)) < 0) {
		int e = errno;

		close(fd);
		return e == EINPROGRESS ? EAGAIN : e;
	}
	c->fd = fd;
	c->len = 0;
	return 0;
}

static int wait_fd(int fd, short events, double deadline)
{
	for (;;) {
		double left = deadline - dl_monotonic_s();
		struct pollfd p = {.fd = fd, .events = events};
		int r;

		if (left <= 0)
			return ETIMEDOUT;
		r = poll(&p, 1, (int) ceil(left * 1000));
		if (r > 0)
			return 0;
		if (r == 0)
			return ETIMEDOUT;
		if (errno != EINTR)
			return errno;
	}
}

static int send_all(struct dl_est_client *c, const char *data, size_t len,
		    double deadline)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = send(c->fd, data + off, len - off, MSG_NOSIGNAL);
		int rc;

		if (w > 0) {
			off += (size_t) w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return errno;
		if ((rc = wait_fd(c->fd, POLLOUT, deadline)))
			return rc;
	}
	return 0;
}

/* Read one line (without its newline) into *line (pointing into c->buf,
 * valid until the next read). */
static int recv_line(struct dl_est_client *c, double deadline, char **line,
		     size_t *linelen)
{
	for (;;) {
		char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
		ssize_t r;
		int rc;

		if (nl) {
			*line = c->buf;
			*linelen = (size_t) (nl - c->buf);
			return 0;
		}
		if (c->len == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 65536;
			char *b;

			if (cap > MAX_REPLY)
				return EMSGSIZE;
			b = realloc(c->buf, cap);
			if (!b)
				return ENOMEM;
			c->buf = b;
			c->cap = cap;
		}
		r = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
		if (r > 0) {
			c->len += (size_t) r;
			continue;
		}
		if (r == 0)
			return ECONNRESET;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return errno;
		if ((rc = wait_fd(c->fd, POLLIN, deadline)))
			return rc;
	}
}

static void consume_line(struct dl_est_client *c, size_t linelen)
{
	size_t used = linelen + 1;

	memmove(c->buf, c->buf + used, c->len - used);
	c->len -= used;
	trim_buffer(c);
}

/* Send one request line, wait for the response with its id.  On success
 * resp holds the parsed response (caller frees).  A connection dropped by
 * the daemon (idle timeout, restart) is re-opened once. */
static int round_trip(struct dl_est_client *c, int64_t id, const char *req,
		      size_t reqlen, struct dl_est_response *resp)
{
	double deadline = dl_monotonic_s() + c->timeout;
	char err[160];
	int rc, attempt;

	if (c->state != DL_EST_STATE_OK && c->state != DL_EST_STATE_NEW &&
	    dl_monotonic_s() < c->retry_at)
		return EAGAIN;
	for (attempt = 0; attempt < 2; attempt++) {
		bool fresh = c->fd < 0;
		char *line = NULL;
		size_t linelen = 0;

		if (fresh && (rc = do_connect(c)))
			return failed(c, DL_EST_STATE_DOWN, rc, "connect");
		rc = send_all(c, req, reqlen, deadline);
		if (!rc) {
			for (;;) {
				rc = recv_line(c, deadline, &line, &linelen);
				if (rc)
					break;
				rc = dl_est_parse_response(line, linelen, resp,
							   err, sizeof(err));
				consume_line(c, linelen);
				if (rc) {
					disconnect(c);
					set_state(c, DL_EST_STATE_BAD);
					snprintf(c->last_error,
						 sizeof(c->last_error), "%s",
						 err);
					c->retry_at =
						dl_monotonic_s() + c->backoff;
					c->backoff =
						c->backoff * 2 > BACKOFF_MAX
							? BACKOFF_MAX
							: c->backoff * 2;
					return EPROTO;
				}
				/* one request at a time and a fresh
				 * connection after every timeout, so any
				 * reply with our id, or an error the daemon
				 * could not attach an id to (a line it could
				 * not read), answers this request */
				if (resp->id == id ||
				    (resp->is_error && resp->id < 0))
					return 0;
				dl_est_response_free(resp);
			}
		}
		if (rc == ETIMEDOUT)
			return failed(c, DL_EST_STATE_SLOW, rc, "request");
		if (rc == EMSGSIZE) {
			failed(c, DL_EST_STATE_BAD, rc, "reply");
			snprintf(c->last_error, sizeof(c->last_error),
				 "reply longer than %u MiB", MAX_REPLY >> 20);
			return EPROTO;
		}
		if (rc == ENOMEM)
			return rc;
		/* broken connection: retry once on a fresh one */
		disconnect(c);
		if (fresh)
			break;
	}
	return failed(c, DL_EST_STATE_DOWN, rc, "request");
}

/* Map a protocol error to an errno value (the connection stays usable). */
static int error_rc(struct dl_est_client *c, struct dl_est_response *r)
{
	int rc = EINVAL;

	if (!strcmp(r->code, DL_EST_E_FORBIDDEN))
		rc = EACCES;
	else if (!strcmp(r->code, DL_EST_E_UNAVAILABLE) ||
		 !strcmp(r->code, DL_EST_E_INTERNAL) ||
		 !strcmp(r->code, DL_EST_E_BUSY))
		rc = EAGAIN;
	snprintf(c->last_error, sizeof(c->last_error), "%s: %s", r->code,
		 r->message);
	return rc;
}

static int call(struct dl_est_client *c, int64_t id, char *req, size_t len,
		struct dl_est_response *resp)
{
	int rc;

	if (!req)
		return ENOMEM;
	rc = round_trip(c, id, req, len, resp);
	free(req);
	if (rc)
		return rc;
	if (resp->is_error && !strcmp(resp->code, DL_EST_E_BUSY)) {
		/* no connection slot for us: not an answer, and the state
		 * must not say "ok" */
		dl_est_response_free(resp);
		failed(c, DL_EST_STATE_BUSY, EAGAIN, "connect");
		snprintf(c->last_error, sizeof(c->last_error),
			 "busy: the estimator has no connection for us");
		return EAGAIN;
	}
	succeeded(c);
	if (resp->is_error) {
		rc = error_rc(c, resp);
		dl_est_response_free(resp);
	}
	return rc;
}

int dl_est_ping(struct dl_est_client *c)
{
	struct dl_est_response r;
	size_t len = 0;
	int64_t id;
	int rc;

	if (!c)
		return EINVAL;
	char *req;

	id = c->next_id++;
	req = dl_est_build_simple(id, DL_EST_PING, &len);
	rc = call(c, id, req, len, &r);
	if (!rc)
		dl_est_response_free(&r);
	return rc;
}

static int predict_chunk(struct dl_est_client *c, const struct dl_pred_query *q,
			 size_t n, struct dl_prediction *out, int *status)
{
	struct dl_est_response r;
	struct json_object *arr = NULL;
	char err[128];
	size_t len = 0;
	int64_t id = c->next_id++;
	int rc;

	char *req = dl_est_build_predict(id, q, n, DL_EST_CLIENT_MAX_COMPLETED,
					 &len);

	if (req && len > MAX_REQUEST && n > 1) {
		/* long completion lists: split the batch */
		size_t h = n / 2;

		free(req);
		rc = predict_chunk(c, q, h, out, status);
		return rc ? rc
			  : predict_chunk(c, q + h, n - h, out + h, status + h);
	}
	rc = call(c, id, req, len, &r);
	if (rc == EINVAL && n > 1) {
		/* the whole batch refused (an estimator that validates
		 * requests whole): halve it until the bad query is alone */
		size_t h = n / 2;

		rc = predict_chunk(c, q, h, out, status);
		return rc ? rc
			  : predict_chunk(c, q + h, n - h, out + h, status + h);
	}
	if (rc == EINVAL) {
		status[0] = EINVAL;
		return 0;
	}
	if (rc)
		return rc;
	if (!json_object_object_get_ex(r.result, "predictions", &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    json_object_array_length(arr) != n) {
		rc = EPROTO;
		snprintf(c->last_error, sizeof(c->last_error),
			 "predict reply without %zu predictions", n);
	}
	for (size_t i = 0; !rc && i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		struct json_object *e = NULL;

		if (o && json_object_object_get_ex(o, "error", &e)) {
			status[i] = EINVAL;
			continue;
		}
		/* a prediction out of range is refused alone */
		status[i] =
			dl_est_prediction_parse(o, &out[i], err, sizeof(err));
		if (status[i])
			snprintf(c->last_error, sizeof(c->last_error), "%s",
				 err);
	}
	dl_est_response_free(&r);
	if (rc == EPROTO) {
		disconnect(c);
		set_state(c, DL_EST_STATE_BAD);
	}
	return rc;
}

int dl_est_predict(struct dl_est_client *c, const struct dl_pred_query *q,
		   size_t n, struct dl_prediction *out, int *status)
{
	if (!c || (n && (!q || !out || !status)))
		return EINVAL;
	for (size_t i = 0; i < n; i += DL_EST_MAX_JOBS) {
		size_t k = n - i < DL_EST_MAX_JOBS ? n - i : DL_EST_MAX_JOBS;
		int rc = predict_chunk(c, q + i, k, out + i, status + i);

		if (rc)
			return rc;
	}
	return 0;
}

/* One request of at most DL_EST_CLIENT_OBSERVE_CHUNK tasks.  A request
 * refused whole (bad_request from an estimator that validates it whole) is
 * halved until the bad task is alone, which is then counted as rejected:
 * one bad record never costs the others. */
static int observe_chunk(struct dl_est_client *c, const struct dl_task_rec *t,
			 size_t k, size_t *stored, size_t *rejected)
{
	struct dl_est_response r;
	struct json_object *v = NULL;
	size_t len = 0, h = k / 2;
	int64_t id = c->next_id++;
	int rc;

	char *req = dl_est_build_observe(id, t, k, &len);

	rc = call(c, id, req, len, &r);
	if (rc == EINVAL && k > 1) {
		rc = observe_chunk(c, t, h, stored, rejected);
		return rc ? rc
			  : observe_chunk(c, t + h, k - h, stored, rejected);
	}
	if (rc == EINVAL) {
		(*rejected)++;
		return 0;
	}
	if (rc)
		return rc;
	if (json_object_object_get_ex(r.result, "stored", &v) && v &&
	    json_object_is_type(v, json_type_int))
		*stored += (size_t) json_object_get_int64(v);
	if (json_object_object_get_ex(r.result, "rejected", &v) && v &&
	    json_object_is_type(v, json_type_array)) {
		struct json_object *e = json_object_array_get_idx(v, 0);

		*rejected += json_object_array_length(v);
		if (e)
			snprintf(c->last_error, sizeof(c->last_error),
				 "task rejected: %s",
				 json_object_to_json_string(e));
	}
	dl_est_response_free(&r);
	return 0;
}

int dl_est_observe(struct dl_est_client *c, const struct dl_task_rec *t,
		   size_t n, size_t *stored, size_t *sent, size_t *rejected)
{
	size_t done = 0, total = 0, bad = 0;
	int rc = 0;

	if (!c || (n && !t))
		return EINVAL;
	while (done < n) {
		size_t k = n - done < DL_EST_CLIENT_OBSERVE_CHUNK
				   ? n - done
				   : DL_EST_CLIENT_OBSERVE_CHUNK;
		size_t st = 0, rj = 0;

		rc = observe_chunk(c, t + done, k, &st, &rj);
		if (rc)
			break;
		total += st;
		bad += rj;
		done += k;
	}
	if (stored)
		*stored = total;
	if (sent)
		*sent = done;
	if (rejected)
		*rejected = bad;
	return rc;
}

int dl_est_forecast(struct dl_est_client *c, double from, double to,
		    double step, const char *cls, double **values,
		    size_t *nvalues)
{
	struct dl_est_response r;
	struct json_object *classes = NULL, *arr = NULL;
	char *req;
	size_t len = 0, n;
	int64_t id;
	int rc;

	if (!c || !values || !nvalues)
		return EINVAL;
	*values = NULL;
	*nvalues = 0;
	id = c->next_id++;
	req = dl_est_build_forecast(id, from, to, step, cls, &len);
	rc = call(c, id, req, len, &r);
	if (rc)
		return rc;
	rc = EPROTO;
	if (json_object_object_get_ex(r.result, "classes", &classes) &&
	    json_object_is_type(classes, json_type_object)) {
		if (cls) {
			json_object_object_get_ex(classes, cls, &arr);
		} else {
			json_object_object_foreach(classes, k, v)
			{
				(void) k;
				arr = v;
				break;
			}
		}
	}
	if (arr && json_object_is_type(arr, json_type_array)) {
		n = json_object_array_length(arr);
		*values = malloc((n ? n : 1) * sizeof(double));
		rc = *values ? 0 : ENOMEM;
		for (size_t i = 0; !rc && i < n; i++) {
			struct json_object *v =
				json_object_array_get_idx(arr, i);

			if (!v || (!json_object_is_type(v, json_type_double) &&
				   !json_object_is_type(v, json_type_int)))
				rc = EPROTO;
			else
				(*values)[i] = json_object_get_double(v);
		}
		if (!rc)
			*nvalues = n;
	}
	if (rc) {
		free(*values);
		*values = NULL;
		snprintf(c->last_error, sizeof(c->last_error),
			 "malformed forecast reply");
	}
	dl_est_response_free(&r);
	return rc;
}
