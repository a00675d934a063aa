/* migratorctl: the admin command line (design §2). Tests and deployments
 * script it, so its commands and output are stable. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "auth/auth.h"
#include "core/cli.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "crypto/seal.h"
#include "crypto/token.h"
#include "db/admin.h"
#include "db/db.h"
#include "providers/fields.h"
#include "providers/provider.h"

#ifndef DATADIR
#define DATADIR "/usr/share/migrator"
#endif

#define PROG "migratorctl"

static const char usage_text[] =
    "usage: migratorctl [--config FILE] COMMAND | --help | --version\n"
    "  db migrate [--sql-dir DIR]                       apply sql/ migrations in order; idempotent\n"
    "  config check                                     validate the config, print the effective values\n"
    "  user add --name NAME --email EMAIL               prints the new user's id\n"
    "  user list                                        id, name, email, created, active tokens\n"
    "  token create --user ID --name NAME --scopes S1,S2,...   prints the token, once\n"
    "  token list --user ID                             id, name, scopes, last used (never the token)\n"
    "  token revoke --id TOKEN_ID                       takes effect on the next request\n"
    "  flag set migrator on|off [--user ID]             global switch, or a per-user override\n"
    "  flag get migrator [--user ID]                    the effective value and what decides it\n"
    "  keygen --out FILE                                new credentials key, mode 0600\n"
    "  provider fields PROVIDER                         each field it sends: where it lands, or why not\n"
    "  status                                           queues, runs per status, oldest job age\n"
    "The config is --config FILE, else $MIGRATOR_CONFIG, else the default path.\n"
    "Exit status: 0 done, 1 failed (the message says why), 2 usage error.\n";

static int
die_usage(void)
{
	return cli_misuse(PROG, "missing or malformed arguments");
}

/* Value of --name in argv[from..argc), or NULL. */
static const char *
opt(int argc, char **argv, int from, const char *name)
{
	for (int i = from; i + 1 < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return argv[i + 1];
	return NULL;
}

static struct db *
connect_or_die(const struct config *cfg)
{
	struct err e;
	struct db *db;

	err_clear(&e);
	if ((db = db_connect(cfg, &e)) == NULL) {
		fprintf(stderr, "migratorctl: %s\n", e.detail);
		exit(1);
	}
	return db;
}

static int
fail_db(struct db *db, const char *what)
{
	fprintf(stderr, "migratorctl: %s: %s\n", what, db_error(db));
	return 1;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Apply one migration file: statements end with ';' at the end of a line. */
static int
apply_file(struct db *db, const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[8192];
	char *stmt = NULL;
	size_t len = 0;
	int rc = 0;

	if (fp == NULL) {
		fprintf(stderr, "migratorctl: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && fgets(line, sizeof line, fp) != NULL) {
		size_t n = strlen(line), end;
		const char *t = line;

		while (*t == ' ' || *t == '\t')
			t++;
		if (strncmp(t, "--", 2) == 0 || *t == '\n')
			continue;
		stmt = xrealloc(stmt, len + n + 1);
		memcpy(stmt + len, line, n + 1);
		len += n;
		end = len;
		while (end > 0 && (stmt[end - 1] == '\n' || stmt[end - 1] == ' ' || stmt[end - 1] == '\r'))
			end--;
		if (end > 0 && stmt[end - 1] == ';') {
			stmt[end - 1] = '\0';
			if (db_run_script_stmt(db, stmt) != 0) {
				fprintf(stderr, "migratorctl: %s: %s\n", path, db_error(db));
				rc = -1;
			}
			len = 0;
		}
	}
	fclose(fp);
	free(stmt);
	return rc;
}

/* The schema folder: --sql-dir, $MIGRATOR_SQL_DIR, the installed one, or (not
 * installed) the source tree's this program was built from. */
static const char *
sql_dir(int argc, char **argv, int at)
{
	const char *dir = opt(argc, argv, at, "--sql-dir");

	if (dir != NULL)
		return dir;
	if ((dir = getenv("MIGRATOR_SQL_DIR")) != NULL)
		return dir;
#ifdef SRC_SQLDIR
	if (access(DATADIR "/sql", R_OK | X_OK) != 0)
		return SRC_SQLDIR;
#endif
	return DATADIR "/sql";
}

/* The *.sql names of dir in order into *names; their count, or -1. */
static ssize_t
sql_files(const char *dir, char ***names)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	*names = NULL;
	if ((d = opendir(dir)) == NULL) {
		fprintf(stderr, "migratorctl: cannot open %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		if (l > 4 && strcmp(de->d_name + l - 4, ".sql") == 0) {
			*names = xrealloc(*names, (n + 1) * sizeof **names);
			(*names)[n++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	qsort(*names, n, sizeof **names, cmp_names);
	return (ssize_t)n;
}

static int
cmd_migrate(struct config *cfg, int argc, char **argv, int at)
{
	const char *dir = sql_dir(argc, argv, at);
	char **names;
	ssize_t n = sql_files(dir, &names);
	struct db *db;
	int rc = 0, applied = 0;

	if (n < 0)
		return 1;
	db = connect_or_die(cfg);
	if (schema_migrations_init(db) != 0)
		rc = fail_db(db, "schema_migrations");
	for (ssize_t i = 0; rc == 0 && i < n; i++) {
		char *path;
		int found = schema_migration_applied(db, names[i]);

		if (found < 0) {
			rc = fail_db(db, "schema_migrations");
			break;
		}
		if (found == 1)
			continue;
		path = xasprintf("%s/%s", dir, names[i]);
		if (apply_file(db, path) != 0 || schema_migration_record(db, names[i]) != 0)
			rc = 1;
		else {
			printf("applied %s\n", names[i]);
			applied++;
		}
		free(path);
	}
	if (rc == 0) {
		const char *engine;
		int changed = rate_limits_engine(db, &engine);

		if (changed < 0)
			rc = fail_db(db, "rate_limits");
		else if (changed > 0)
			printf("rate_limits: %s (%s)\n", engine,
			    strcmp(engine, "InnoDB") == 0 ? "a Galera node" : "one server");
		else if (applied == 0)
			printf("schema is up to date\n");
	}
	for (ssize_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	db_close(db);
	return rc;
}

static int
parse_id(const char *s, const char *what, uint64_t *out)
{
	int64_t v;

	if (s == NULL || parse_i64(s, 1, INT64_MAX, &v) != 0) {
		fprintf(stderr, "migratorctl: %s must be a positive integer\n", what);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

static int
cmd_user_add(struct config *cfg, int argc, char **argv, int at)
{
	const char *name = opt(argc, argv, at, "--name"), *email = opt(argc, argv, at, "--email");
	struct db *db;
	uint64_t id;

	if (name == NULL || email == NULL || !*name || strchr(email, '@') == NULL)
		return die_usage();
	db = connect_or_die(cfg);
	if (user_add(db, name, email, &id) != 0) {
		int rc = db_error_class(db) == DB_DUPLICATE ?
		    (fprintf(stderr, "migratorctl: a user with email %s exists\n", email), 1) :
		    fail_db(db, "user add");
		db_close(db);
		return rc;
	}
	printf("%llu\n", (unsigned long long)id);
	db_close(db);
	return 0;
}

static int
cmd_token_create(struct config *cfg, int argc, char **argv, int at)
{
	const char *name = opt(argc, argv, at, "--name"), *scopes = opt(argc, argv, at, "--scopes");
	char secret[TOKEN_SECRET_LEN + 1], bad[80], canon[512] = "";
	unsigned char hash[TOKEN_HASH_LEN];
	uint64_t user, id;
	uint32_t mask;
	struct db *db;

	if (name == NULL || scopes == NULL || parse_id(opt(argc, argv, at, "--user"), "--user", &user) != 0)
		return die_usage();
	if (scope_parse_list(scopes, &mask, bad, sizeof bad) != 0) {
		fprintf(stderr, "migratorctl: unknown scope %s\n", bad);
		return 2;
	}
	for (int i = 0; i < SC__COUNT; i++)
		if (mask & (1u << i))
			snprintf(canon + strlen(canon), sizeof canon - strlen(canon), "%s%s",
			    canon[0] ? "," : "", scope_name((enum scope)i));
	db = connect_or_die(cfg);
	if (user_exists(db, user) != 1) {
		fprintf(stderr, "migratorctl: no user %llu\n", (unsigned long long)user);
		db_close(db);
		return 1;
	}
	token_secret_new(secret);
	token_hash(secret, strlen(secret), hash);
	if (token_add(db, user, name, hash, sizeof hash, canon, &id) != 0) {
		int rc = fail_db(db, "token create");
		sodium_memzero(secret, sizeof secret);
		db_close(db);
		return rc;
	}
	printf("%llu|%s\n", (unsigned long long)id, secret);
	sodium_memzero(secret, sizeof secret);
	db_close(db);
	return 0;
}

/* A table printed as tab-separated rows under its header line. The header
 * goes out with the first row, or after a read that found none, so a read
 * that fails at once prints nothing. */
struct table {
	const char *header;
	size_t rows;
};

static void
table_row(struct table *t)
{
	if (t->rows++ == 0)
		fputs(t->header, stdout);
}

/* The end of a read into t: 0, or -1 (nothing more printed) when it failed. */
static int
table_end(struct table *t, int rc)
{
	if (rc == 0 && t->rows == 0)
		fputs(t->header, stdout);
	return rc;
}

static void
print_token(const struct admin_token *t, void *table)
{
	table_row(table);
	printf("%s\t%s\t%s\t%s\t%s\t%s\n", t->id, t->name, t->scopes, t->last_used ? t->last_used : "never",
	    t->created, t->revoked ? t->revoked : "-");
}

static int
cmd_token_list(struct config *cfg, int argc, char **argv, int at)
{
	struct table t = { "id\tname\tscopes\tlast_used\tcreated\trevoked\n", 0 };
	struct db *db;
	uint64_t user;

	if (parse_id(opt(argc, argv, at, "--user"), "--user", &user) != 0)
		return die_usage();
	db = connect_or_die(cfg);
	if (table_end(&t, tokens_list(db, user, print_token, &t)) != 0)
		return fail_db(db, "token list");
	db_close(db);
	return 0;
}

static int
cmd_token_revoke(struct config *cfg, int argc, char **argv, int at)
{
	struct db *db;
	uint64_t id;
	int n;

	if (parse_id(opt(argc, argv, at, "--id"), "--id", &id) != 0)
		return die_usage();
	db = connect_or_die(cfg);
	if ((n = token_revoke(db, id)) < 0)
		return fail_db(db, "token revoke");
	db_close(db);
	if (n == 0) {
		fprintf(stderr, "migratorctl: no active token %llu\n", (unsigned long long)id);
		return 1;
	}
	printf("revoked token %llu\n", (unsigned long long)id);
	return 0;
}

static int
cmd_flag_set(struct config *cfg, int argc, char **argv, int at)
{
	const char *user_arg = opt(argc, argv, at, "--user");
	uint64_t user = 0;
	struct db *db;
	int on;

	if (argc < at + 2 || strcmp(argv[at], "migrator") != 0)
		return die_usage();
	if (strcmp(argv[at + 1], "on") == 0)
		on = 1;
	else if (strcmp(argv[at + 1], "off") == 0)
		on = 0;
	else
		return die_usage();
	if (user_arg != NULL && parse_id(user_arg, "--user", &user) != 0)
		return 2;
	db = connect_or_die(cfg);
	if (flag_set(db, "features:migrator", user, on) != 0)
		return fail_db(db, "flag set");
	db_close(db);
	if (user)
		printf("features:migrator %s for user %llu\n", on ? "on" : "off", (unsigned long long)user);
	else
		printf("features:migrator %s globally\n", on ? "on" : "off");
	return 0;
}

/* The provider's field tables as the docs hold them (providers/fields.h). */
static int
cmd_provider_fields(int argc, char **argv, int at)
{
	const struct provider_def *def;

	if (at + 1 != argc)
		return die_usage();
	if ((def = provider_find(argv[at])) == NULL) {
		fprintf(stderr, PROG ": no provider %s\n", argv[at]);
		return 1;
	}
	if (def->fields == NULL) {
		fprintf(stderr, PROG ": the field tables of %s are not written yet\n", def->name);
		return 1;
	}
	prov_fields_markdown(def->fields, stdout);
	return 0;
}

static int
cmd_keygen(int argc, char **argv, int at)
{
	const char *out = opt(argc, argv, at, "--out");
	struct err e;

	if (out == NULL)
		return die_usage();
	err_clear(&e);
	if (seal_key_generate(out, &e) != 0) {
		fprintf(stderr, "migratorctl: %s\n", e.msg);
		return 1;
	}
	printf("wrote %s\n", out);
	return 0;
}

static void
print_queue(const struct admin_queue *q, void *table)
{
	table_row(table);
	printf("%s\t%s\t%s\t%s\n", q->queue, q->jobs, q->reserved, q->oldest_age_s);
}

static void
print_run_count(const struct admin_run_count *c, void *table)
{
	table_row(table);
	printf("%s\t%s\n", c->status, c->runs);
}

static int
cmd_status(struct config *cfg)
{
	struct table queues = { "queue\tjobs\treserved\toldest_age_s\n", 0 };
	struct table runs = { "\nrun_status\truns\n", 0 };
	struct db *db = connect_or_die(cfg);

	if (table_end(&queues, status_queues(db, print_queue, &queues)) != 0) {
		if (strstr(db_error(db), "doesn't exist") != NULL) {
			fprintf(stderr,
			    PROG ": the database has no schema yet: run migratorctl db migrate\n");
			db_close(db);
			return 1;
		}
		return fail_db(db, "status");
	}
	if (queues.rows == 0)
		printf("(no queued jobs)\n");
	if (table_end(&runs, status_runs(db, print_run_count, &runs)) != 0)
		return fail_db(db, "status");
	db_close(db);
	return 0;
}

static void
print_user(const struct admin_user *u, void *table)
{
	table_row(table);
	printf("%s\t%s\t%s\t%s\t%s\n", u->id, u->name, u->email, u->created, u->active_tokens);
}

static int
cmd_user_list(struct config *cfg)
{
	struct table t = { "id\tname\temail\tcreated\tactive_tokens\n", 0 };
	struct db *db = connect_or_die(cfg);

	if (table_end(&t, users_list(db, print_user, &t)) != 0)
		return fail_db(db, "user list");
	db_close(db);
	return 0;
}

static int
cmd_flag_get(struct config *cfg, int argc, char **argv, int at)
{
	const char *user_arg = opt(argc, argv, at, "--user");
	int global, mine;
	uint64_t user = 0;
	struct db *db;

	if (argc < at + 1 || strcmp(argv[at], "migrator") != 0)
		return cli_misuse(PROG, "flag get takes the flag name migrator");
	if (user_arg != NULL && parse_id(user_arg, "--user", &user) != 0)
		return 2;
	db = connect_or_die(cfg);
	if (flag_get(db, "features:migrator", user, &global, &mine) != 0)
		return fail_db(db, "flag get");
	db_close(db);
	if (mine >= 0)
		printf("features:migrator %s for user %llu (per-user override)\n", mine ? "on" : "off",
		    (unsigned long long)user);
	else if (global >= 0)
		printf("features:migrator %s%s (global setting)\n", global ? "on" : "off",
		    user ? " for this user" : "");
	else
		printf("features:migrator %s%s (config default [features] migrator)\n",
		    cfg->migrator_default ? "on" : "off", user ? " for this user" : "");
	return 0;
}

static int
cmd_config_check(struct config *cfg)
{
	config_dump(cfg, stdout);
	return 0;
}

/* One command: its words and how it runs (run with its arguments after the
 * words, or run_plain when it takes none). */
struct command {
	const char *word1, *word2; /* word2 NULL: one word */
	int (*run)(struct config *, int argc, char **argv, int at);
	int (*run_plain)(struct config *);
};

/* clang-format off */
static const struct command commands[] = {
	{ "db", "migrate", cmd_migrate, NULL },
	{ "config", "check", NULL, cmd_config_check },
	{ "user", "add", cmd_user_add, NULL },
	{ "user", "list", NULL, cmd_user_list },
	{ "token", "create", cmd_token_create, NULL },
	{ "token", "list", cmd_token_list, NULL },
	{ "token", "revoke", cmd_token_revoke, NULL },
	{ "flag", "set", cmd_flag_set, NULL },
	{ "flag", "get", cmd_flag_get, NULL },
	{ "status", NULL, NULL, cmd_status },
};
/* clang-format on */

int
main(int argc, char **argv)
{
	const char *config_arg = NULL;
	struct config cfg;
	struct err e;
	int at = 1, rc;

	log_init("migratorctl", LOG_LVL_WARN);
	if (sodium_init() < 0)
		return 1;
	if (at + 1 < argc && strcmp(argv[at], "--config") == 0) {
		config_arg = argv[at + 1];
		at += 2;
	}
	if (at >= argc)
		return cli_misuse(PROG, "no command given");
	if (strcmp(argv[at], "--help") == 0 || strcmp(argv[at], "-h") == 0 || strcmp(argv[at], "help") == 0)
		return cli_help(usage_text);
	if (strcmp(argv[at], "--version") == 0)
		return cli_version(PROG);
	if (strcmp(argv[at], "keygen") == 0)
		return cmd_keygen(argc, argv, at + 1);
	if (strcmp(argv[at], "provider") == 0 && at + 1 < argc && strcmp(argv[at + 1], "fields") == 0)
		return cmd_provider_fields(argc, argv, at + 2);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		const struct command *k = &commands[i];
		int words = k->word2 ? 2 : 1;

		if (strcmp(argv[at], k->word1) != 0 ||
		    (k->word2 != NULL && (at + 1 >= argc || strcmp(argv[at + 1], k->word2) != 0)))
			continue;
		/* config check also takes --config after its words */
		if (opt(argc, argv, at + words, "--config") != NULL)
			config_arg = opt(argc, argv, at + words, "--config");
		err_clear(&e);
		if (config_load(&cfg, config_default_path(config_arg), &e) != 0) {
			fprintf(stderr, PROG ": %s\n", e.msg);
			config_free(&cfg);
			return 1;
		}
		rc = k->run != NULL ? k->run(&cfg, argc, argv, at + words) : k->run_plain(&cfg);
		config_free(&cfg);
		return rc;
	}
	return cli_misuse(PROG, "unknown command %s", argv[at]);
}
