/*
 * estimator_bench.c - load and latency benchmark of deadline-estimatord
 * (driven by bench/estimator_bench.sh).
 *
 *   estimator_bench --socket PATH load RECORDS USERS NAMES
 *       observe RECORDS tasks spread over USERS x NAMES map keys, in
 *       batches of 1000 (one request and one transaction each)
 *   estimator_bench --socket PATH predict REQUESTS [raw|client]
 *       REQUESTS predict requests from one client, one at a time: a third
 *       with 10 own completions (job), a third for known names
 *       (history:name), a third for unknown names (history:user).
 *       raw: pre-built request lines, read the reply line (the daemon's
 *       cost); client: the core's estimator_client, as the sched plugin
 *       calls it (adds JSON building and parsing on the client side).
 *
 * Prints one line of key=value results.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/estimate/estimator_client.h"
#include "common/estimate/stats.h"
#include "common/io/clock.h"

static int load(const char *sock, long records, int users, int names)
{
	struct dl_est_client *c = dl_est_client_new(sock, 30);
	struct dl_task_rec *t = calloc(1000, sizeof(*t));
	char(*u)[16] = calloc((size_t) users, 16);
	char(*n)[16] = calloc((size_t) names, 16);
	double t0 = dl_monotonic_s(), base = (double) time(NULL) - 86400;
	long done = 0;

	if (!c || !t || !u || !n)
		return 1;
	for (int i = 0; i < users; i++)
		snprintf(u[i], 16, "user%03d", i);
	for (int i = 0; i < names; i++)
		snprintf(n[i], 16, "job%02d", i);
	srand(42);
	while (done < records) {
		size_t k = records - done < 1000 ? (size_t) (records - done)
						 : 1000;
		size_t stored = 0, sent = 0;
		int rc;

		for (size_t i = 0; i < k; i++) {
			long id = done + (long) i;
			int key = (int) (id % (users * names));
			/* log-normal-ish lengths around a per-key scale */
			double scale = 20 + (key % 17) * 5;
			double len = scale *
				     exp(0.3 * ((rand() % 2000) / 1000.0 - 1));

			t[i] = (struct dl_task_rec){
				.job_id = (uint64_t) (id / 50),
				.task = id % 50,
				.user = u[key / names],
				.name = n[key % names],
				.phase = 0,
				.start = base + (double) id * 0.05,
				.end = base + (double) id * 0.05 + len,
				.input_bytes = (double) (64 << 20),
				.cpu = 1,
				.mem = 1000,
				.io = NAN,
			};
		}
		rc = dl_est_observe(c, t, k, &stored, &sent, NULL);
		if (rc) {
			fprintf(stderr, "observe failed after %ld: %s (%s)\n",
				done, strerror(rc),
				dl_est_client_last_error(c));
			return 1;
		}
		done += (long) k;
	}
	printf("loaded=%ld seconds=%.2f records_per_s=%.0f\n", done,
	       dl_monotonic_s() - t0, (double) done / (dl_monotonic_s() - t0));
	dl_est_client_free(c);
	free(t);
	free(u);
	free(n);
	return 0;
}

static int connect_unix(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	strncpy(sa.sun_path, path, sizeof(sa.sun_path) - 1);
	if (fd < 0 || connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		perror(path);
		return -1;
	}
	return fd;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double) ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double) ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void report(const char *mode, long n, double secs, double *lat)
{
	dl_sort_doubles(lat, (size_t) n);
	printf("mode=%s requests=%ld seconds=%.3f requests_per_s=%.0f "
	       "client_cpu_us_per_req=%.1f "
	       "p50_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f\n",
	       mode, n, secs, (double) n / secs,
	       1e6 * cpu_seconds() / (double) n,
	       1e6 * dl_quantile_sorted(lat, (size_t) n, 0.5),
	       1e6 * dl_quantile_sorted(lat, (size_t) n, 0.99),
	       1e6 * dl_quantile_sorted(lat, (size_t) n, 0.999),
	       1e6 * lat[n - 1]);
}

static int predict_raw(const char *sock, long n, int users, int names)
{
	int fd = connect_unix(sock);
	double *lat = malloc((size_t) n * sizeof(*lat)), t0;
	char req[512], buf[65536];
	size_t have = 0;

	if (fd < 0 || !lat)
		return 1;
	t0 = dl_monotonic_s();
	for (long i = 0; i < n; i++) {
		int key = (int) (i % (users * names));
		int len;
		double s = dl_monotonic_s();

		switch (i % 3) {
		case 0:
			len = snprintf(
				req, sizeof(req),
				"{\"v\":1,\"id\":%ld,\"op\":\"predict\","
				"\"job\":"
				"{\"user\":\"user%03d\",\"name\":\"job%02d\","
				"\"phase\":\"map\",\"tasks\":100,\"completed\":"
				"[21,22,20.5,23,25,19,22,21.5,24,20]}}\n",
				i, key / names, key % names);
			break;
		case 1:
			len = snprintf(
				req, sizeof(req),
				"{\"v\":1,\"id\":%ld,\"op\":\"predict\","
				"\"job\":"
				"{\"user\":\"user%03d\",\"name\":\"job%02d\","
				"\"phase\":\"map\",\"tasks\":100}}\n",
				i, key / names, key % names);
			break;
		default:
			len = snprintf(
				req, sizeof(req),
				"{\"v\":1,\"id\":%ld,\"op\":\"predict\","
				"\"job\":"
				"{\"user\":\"user%03d\",\"name\":\"new%02d\","
				"\"phase\":\"map\",\"tasks\":100}}\n",
				i, key / names, key % names);
			break;
		}
		if (send(fd, req, (size_t) len, 0) != len)
			return 1;
		for (;;) {
			char *nl = memchr(buf, '\n', have);
			ssize_t r;

			if (nl) {
				size_t used = (size_t) (nl - buf) + 1;

				if (strstr(buf, "\"error\""))
					return fprintf(stderr,
						       "error reply: %.*s\n",
						       (int) used, buf),
					       1;
				memmove(buf, buf + used, have - used);
				have -= used;
				break;
			}
			r = recv(fd, buf + have, sizeof(buf) - have, 0);
			if (r <= 0)
				return 1;
			have += (size_t) r;
		}
		lat[i] = dl_monotonic_s() - s;
	}
	report("raw", n, dl_monotonic_s() - t0, lat);
	close(fd);
	free(lat);
	return 0;
}

static int predict_client(const char *sock, long n, int users, int names)
{
	struct dl_est_client *c = dl_est_client_new(sock, 1.0);
	double *lat = malloc((size_t) n * sizeof(*lat)), t0;
	double done[] = {21, 22, 20.5, 23, 25, 19, 22, 21.5, 24, 20};
	char user[16], name[16];

	if (!c || !lat)
		return 1;
	t0 = dl_monotonic_s();
	for (long i = 0; i < n; i++) {
		int key = (int) (i % (users * names)), status;
		struct dl_pred_query q = {.user = user,
					  .name = name,
					  .tasks = 100,
					  .input_bytes = NAN};
		struct dl_prediction p;
		double s = dl_monotonic_s();

		snprintf(user, sizeof(user), "user%03d", key / names);
		snprintf(name, sizeof(name), "%s%02d",
			 i % 3 == 2 ? "new" : "job", key % names);
		if (i % 3 == 0) {
			q.completed = done;
			q.ncompleted = 10;
		}
		if (dl_est_predict(c, &q, 1, &p, &status) || status) {
			fprintf(stderr, "predict failed: %s\n",
				dl_est_client_last_error(c));
			return 1;
		}
		lat[i] = dl_monotonic_s() - s;
	}
	report("client", n, dl_monotonic_s() - t0, lat);
	dl_est_client_free(c);
	free(lat);
	return 0;
}

int main(int argc, char **argv)
{
	const char *sock;

	if (argc < 5 || strcmp(argv[1], "--socket")) {
		fprintf(stderr,
			"usage: estimator_bench --socket PATH load RECORDS "
			"USERS NAMES | predict REQUESTS USERS NAMES "
			"[raw|client]\n");
		return 2;
	}
	sock = argv[2];
	if (!strcmp(argv[3], "load") && argc == 7)
		return load(sock, atol(argv[4]), atoi(argv[5]), atoi(argv[6]));
	if (!strcmp(argv[3], "predict") && argc >= 7) {
		long n = atol(argv[4]);
		int users = atoi(argv[5]), names = atoi(argv[6]);

		if (n < 1 || users < 1 || names < 1)
			return 2;
		if (argc > 7 && !strcmp(argv[7], "client"))
			return predict_client(sock, n, users, names);
		return predict_raw(sock, n, users, names);
	}
	fprintf(stderr, "estimator_bench: bad arguments\n");
	return 2;
}
