/* migrator.fcgi: the FastCGI responder for /api/v1 and /mcp. */
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api/ops.h"
#include "core/cli.h"
#include "core/config.h"
#include "core/log.h"
#include "crypto/seal.h"
#include "db/db.h"
#include "http/fcgi.h"

#define PROG "migrator.fcgi"

static const char usage_text[] =
    "usage: migrator.fcgi [--config FILE] [--listen PATH|:PORT] | --help | --version\n"
    "  Answers /api/v1 and /mcp as a FastCGI responder. Spawned by the web server\n"
    "  (mod_fcgid, lighttpd) it talks on the socket it is given; with --listen it\n"
    "  opens its own (mod_proxy_fcgi, spawn-fcgi). Exit: 0 stopped, 1 failed, 2 usage.\n"
    "  --config FILE     config file (else $MIGRATOR_CONFIG, else the default path)\n"
    "  --listen ADDR     a unix socket path, or :PORT on all addresses\n";

/* Parse the command line. -1 to go on, else the exit status (help,
 * version: 0; misuse: 2). */
static int
parse_args(int argc, char **argv, const char **config_arg, const char **listen)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "listen", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "c:l:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			*config_arg = optarg;
			break;
		case 'l':
			*listen = optarg;
			break;
		case 'h':
			return cli_help(usage_text);
		case 'V':
			return cli_version(PROG);
		default:
			return cli_misuse(PROG, "unknown option or missing value: %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_misuse(PROG, "unexpected argument %s", argv[optind]);
	return -1;
}

int
main(int argc, char **argv)
{
	const char *config_arg = NULL, *listen = NULL;
	struct config cfg;
	struct app app = { 0 };
	struct err e;
	int rc;

	if ((rc = parse_args(argc, argv, &config_arg, &listen)) >= 0)
		return rc;
	log_init("migrator.fcgi", LOG_LVL_INFO);
	err_clear(&e);
	if (sodium_init() < 0) {
		log_error("libsodium failed to initialise");
		return 1;
	}
	if (config_load(&cfg, config_default_path(config_arg), &e) != 0) {
		log_error("%s", e.msg);
		return 1;
	}
	app.cfg = &cfg;
	if ((app.key = seal_key_load(cfg.key_file, &e)) == NULL)
		log_warn("%s; starting runs will fail until it is fixed", e.msg);
	err_clear(&e);
	/* Connected on first use and re-opened whenever it drops: while the
	 * database is down, requests get 503 and the process stays up. */
	app.db = db_new(&cfg);
	/* Every request builds and frees its answer (a run detail is ~110 KB of
	 * JSON in many small blocks): keep freed memory in the heap rather than
	 * handing it back to the kernel and faulting it in again next request.
	 * The heap stays at its high-water mark, which bench/leak measures. */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 16 << 20);
	rc = fcgi_serve(&app, listen);
	db_close(app.db);
	seal_key_free(app.key);
	config_free(&cfg);
	return rc;
}
