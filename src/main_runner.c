/* migrator-runner: claims queued jobs and works through them in bounded steps
 * (design §1, §5; docs/runner.md). Started by cron every minute through
 * cron/migrator-runner-cron (flock), or a systemd timer. Any number may run at
 * once, on any number of hosts. Exits 0 when its budget is spent. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "core/cli.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "crypto/seal.h"
#include "db/db.h"
#include "runner/runner.h"

#define PROG "migrator-runner"

static const char usage_text[] =
    "usage: migrator-runner [--config FILE] [--max-seconds N] [--max-jobs N] [--once]\n"
    "                       [--step-resources N] [--worker-id ID] [--verbose] | --help | --version\n"
    "  --config FILE     config file (else $MIGRATOR_CONFIG, else the default path)\n"
    "  --max-seconds N   stop claiming and exit after N seconds (default 50)\n"
    "  --max-jobs N      stop after N job steps (default: no limit)\n"
    "  --once            one pass: exit as soon as no job is available now\n"
    "  --step-resources N  end each step after N resources discovered, planned or\n"
    "                    imported (planning: whole batches of 500) and queue its\n"
    "                    continuation (default: no limit; steps end after 10 s)\n"
    "  --worker-id ID    name in jobs.reserved_by (default host:pid)\n"
    "  --verbose         log each claimed job to stderr\n";

static volatile sig_atomic_t stop_flag;

static void
on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* The value after argv[*i], advancing *i; NULL when missing. */
static const char *
value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

struct cli {
	struct runner_opts opts;
	const char *config, *worker;
	bool verbose;
};

/* Parse the command line into c. -1 to go on, else the exit status (help,
 * version: 0; misuse: 2). */
static int
parse_args(int argc, char **argv, struct cli *c)
{
	int64_t v;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		if (strcmp(a, "--once") == 0)
			c->opts.once = true;
		else if (strcmp(a, "--verbose") == 0)
			c->verbose = true;
		else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			return cli_help(usage_text);
		else if (strcmp(a, "--version") == 0)
			return cli_version(PROG);
		else if (strcmp(a, "--config") == 0) {
			if ((c->config = value(argc, argv, &i)) == NULL)
				return cli_misuse(PROG, "--config needs a file");
		} else if (strcmp(a, "--worker-id") == 0) {
			if ((c->worker = value(argc, argv, &i)) == NULL || !*c->worker ||
			    strlen(c->worker) > QUEUE_WORKER_MAX)
				return cli_misuse(PROG, "--worker-id needs 1 to %d characters",
				    QUEUE_WORKER_MAX);
		} else if (strcmp(a, "--max-seconds") == 0) {
			if ((val = value(argc, argv, &i)) == NULL || parse_i64(val, 1, 86400, &v) != 0)
				return cli_misuse(PROG, "--max-seconds needs a number from 1 to 86400");
			c->opts.max_seconds = (int)v;
		} else if (strcmp(a, "--max-jobs") == 0) {
			if ((val = value(argc, argv, &i)) == NULL || parse_i64(val, 1, 100000000, &v) != 0)
				return cli_misuse(PROG, "--max-jobs needs a number from 1 to 100000000");
			c->opts.max_jobs = (long)v;
		} else if (strcmp(a, "--step-resources") == 0) {
			if ((val = value(argc, argv, &i)) == NULL || parse_i64(val, 1, 100000000, &v) != 0)
				return cli_misuse(PROG,
				    "--step-resources needs a number from 1 to 100000000");
			c->opts.step_resources = (long)v;
		} else
			return cli_misuse(PROG, "unknown option %s", a);
	}
	return -1;
}

/* The runner's name in jobs.reserved_by: --worker-id, else host:pid. */
static void
worker_name(char *out, size_t size, const char *given)
{
	char host[64] = "localhost";

	if (given != NULL) {
		snprintf(out, size, "%s", given);
		return;
	}
	if (gethostname(host, sizeof host - 1) != 0)
		snprintf(host, sizeof host, "localhost");
	host[sizeof host - 1] = '\0';
	snprintf(out, size, "%s:%ld", host, (long)getpid());
}

/* SIGTERM and SIGINT end the run loop between steps; SIGPIPE is ignored. */
static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int
main(int argc, char **argv)
{
	struct cli c = { .opts = { .max_seconds = 50, .max_jobs = 0, .once = false } };
	struct seal_key *key = NULL;
	struct runner r;
	struct config cfg;
	struct err e;
	long steps;
	int rc;

	if ((rc = parse_args(argc, argv, &c)) >= 0)
		return rc;
	log_init("migrator-runner", c.verbose ? LOG_LVL_DEBUG : LOG_LVL_INFO);
	if (sodium_init() < 0) {
		log_error("libsodium failed to initialise");
		return 1;
	}
	err_clear(&e);
	if (config_load(&cfg, config_default_path(c.config), &e) != 0) {
		fprintf(stderr, "migrator-runner: %s\n", e.msg);
		config_free(&cfg);
		return 1;
	}
	memset(&r, 0, sizeof r);
	r.cfg = &cfg;
	r.lease_s = cfg.lease_seconds;
	r.max_attempts = cfg.max_attempts;
	r.stop = &stop_flag;
	worker_name(r.worker, sizeof r.worker, c.worker);
	if (cfg.key_file != NULL && *cfg.key_file) {
		err_clear(&e);
		if ((key = seal_key_load(cfg.key_file, &e)) == NULL)
			log_error("credentials key not loaded (%s); discovery jobs wait", e.msg);
	} else
		log_warn("no [security] key_file: discovery jobs wait until one is set");
	r.key = key;
	catch_signals();

	err_clear(&e);
	if ((r.db = db_connect(&cfg, &e)) == NULL) {
		log_error("%s", e.detail);
		seal_key_free(key);
		config_free(&cfg);
		return 1;
	}
	steps = runner_run(&r, &c.opts);
	if (steps < 0)
		log_error("database unusable: %s", db_error(r.db));
	else if (steps > 0)
		log_info("%ld job step%s done as %s", steps, steps == 1 ? "" : "s", r.worker);
	db_close(r.db);
	seal_key_free(key);
	config_free(&cfg);
	return steps < 0 ? 1 : 0;
}
