/* migrator.fcgi: the FastCGI responder for /api/v1 and /mcp. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api/ops.h"
#include "core/config.h"
#include "core/log.h"
#include "crypto/seal.h"
#include "db/db.h"
#include "http/fcgi.h"

static void
usage(void)
{
	fprintf(stderr, "usage: migrator.fcgi [--config FILE] [--listen PATH|:PORT]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "listen", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config_arg = NULL, *listen = NULL;
	struct config cfg;
	struct app app = { 0 };
	struct err e;
	int ch, rc;

	while ((ch = getopt_long(argc, argv, "c:l:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': config_arg = optarg; break;
		case 'l': listen = optarg; break;
		default: usage();
		}
	}
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
	rc = fcgi_serve(&app, listen);
	db_close(app.db);
	seal_key_free(app.key);
	config_free(&cfg);
	return rc;
}
