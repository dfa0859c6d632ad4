/*
 * submit_raw.c - test helper of the fault suites: submits a batch job
 * (array) through libslurm directly, as a REST or libslurm client does: no
 * sbatch, no SPANK plugin, and job control environment entries
 * (spank_job_env) of the caller's choosing, checked by nothing on the way.
 *
 *   submit_raw [--name N] [--array SPEC] [--minutes M] [--deadline-in S]
 *              [--env NAME=VALUE]... [--dependency SPEC] COMMAND
 *
 * Runs COMMAND with /bin/sh in /tmp, output to /dev/null.  Prints the job
 * id; exit 0, or 1 with Slurm's error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#define MAX_ENV 16

int main(int argc, char **argv)
{
	job_desc_msg_t d;
	submit_response_msg_t *resp = NULL;
	char *env[MAX_ENV + 1], *cmd = NULL, script[4096];
	char *job_env[] = {"PATH=/usr/bin:/bin", NULL};
	uint32_t nenv = 0;

	slurm_init(NULL);
	slurm_init_job_desc_msg(&d);
	d.name = "submit_raw";
	d.time_limit = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--name") && i + 1 < argc)
			d.name = argv[++i];
		else if (!strcmp(a, "--array") && i + 1 < argc)
			d.array_inx = argv[++i];
		else if (!strcmp(a, "--minutes") && i + 1 < argc)
			d.time_limit = (uint32_t) atoi(argv[++i]);
		else if (!strcmp(a, "--deadline-in") && i + 1 < argc)
			d.deadline = time(NULL) + atol(argv[++i]);
		else if (!strcmp(a, "--dependency") && i + 1 < argc)
			d.dependency = argv[++i];
		else if (!strcmp(a, "--env") && i + 1 < argc && nenv < MAX_ENV)
			env[nenv++] = argv[++i];
		else if (a[0] != '-' && !cmd)
			cmd = argv[i];
		else {
			fprintf(stderr, "submit_raw: bad argument %s\n", a);
			return 2;
		}
	}
	if (!cmd) {
		fprintf(stderr, "submit_raw: no command\n");
		return 2;
	}
	env[nenv] = NULL;
	snprintf(script, sizeof(script), "#!/bin/sh\n%s\n", cmd);
	d.script = script;
	d.user_id = getuid();
	d.group_id = getgid();
	d.work_dir = "/tmp";
	d.std_out = "/dev/null";
	d.std_err = "/dev/null";
	d.min_cpus = 1;
	d.environment = job_env;
	d.env_size = 1;
	d.spank_job_env = nenv ? env : NULL;
	d.spank_job_env_size = nenv;
	if (slurm_submit_batch_job(&d, &resp) != SLURM_SUCCESS) {
		fprintf(stderr, "submit_raw: %s\n", slurm_strerror(errno));
		return 1;
	}
	printf("%u\n", resp->job_id);
	slurm_free_submit_response_response_msg(resp);
	slurm_fini();
	return 0;
}
