/* The INI config file shared by the three programs (design §1).
 * Path: --config, else $MIGRATOR_CONFIG, else SYSCONFDIR/migrator/migrator.conf. */
#ifndef MIGRATOR_CONFIG_H
#define MIGRATOR_CONFIG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/err.h"

struct config_kv {
	char *section;
	char *key;
	char *value;
};

struct db_node {
	char *socket; /* NULL: host and port */
	char *host;
	int port;
};

struct config {
	char *path;
	/* [database] */
	char *db_socket;
	char *db_host;
	int db_port;
	char *db_user;
	char *db_password;
	char *db_name;
	int db_timeout; /* connect/read/write timeout, seconds */
	char *db_hosts; /* "" or the list as written: it replaces socket, host and port */
	/* The database servers in order of use (from hosts, else the one of socket or host and
	 * port): a node that cannot serve sends the process to the next. */
	struct db_node *db_nodes;
	size_t ndb_nodes;
	/* [security] */
	char *key_file;
	int credentials_retention;
	bool allow_http_urls;
	bool allow_private_urls;
	/* [limits] */
	int requests_per_minute;
	int starts_per_minute;
	long max_body;
	int max_resources;     /* resources one run may hold; discovery stops past it */
	int max_pages;         /* provider pages one list may take; discovery fails past it */
	int provider_wait_min; /* seconds: the least wait after a provider's refusal (429/420) */
	int provider_wait_max; /* seconds of refusals in a row after which discovery fails */
	/* [runner] */
	int max_attempts;
	int lease_seconds;
	/* [features] */
	bool migrator_default; /* default of features:migrator when no DB row says */
	/* [http] */
	char *public_url;      /* prefix for pagination links; "" = relative links */
	char *allowed_origins; /* space separated; loopback origins are always allowed */
	/* every key=value, for [provider.<id>] sections */
	struct config_kv *kv;
	size_t nkv;
};

/* The path to use given the --config argument (may be NULL). Static storage. */
const char *config_default_path(const char *arg);
/* Load and validate path into cfg (defaults first). Returns 0 or -1 with e set
 * (e->msg names the file, line and problem). */
int config_load(struct config *cfg, const char *path, struct err *e);
/* Raw value of section.key, or NULL. */
const char *config_get(const struct config *cfg, const char *section, const char *key);
void config_free(struct config *cfg);
/* Every effective setting as "section.key = value", one a line (the
 * password only as "(set)"), then the [provider.*] settings. */
void config_dump(const struct config *cfg, FILE *out);

#endif
