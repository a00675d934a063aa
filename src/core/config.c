#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/util.h"
#include "core/xalloc.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

enum kind { K_STR, K_INT, K_BOOL, K_LONG };

struct known {
	const char *section;
	const char *key;
	enum kind kind;
	size_t off;
	long min, max;
};

#define OFF(f) offsetof(struct config, f)
/* clang-format off */
static const struct known known_keys[] = {
	{ "database", "socket", K_STR, OFF(db_socket), 0, 0 },
	{ "database", "host", K_STR, OFF(db_host), 0, 0 },
	{ "database", "port", K_INT, OFF(db_port), 1, 65535 },
	{ "database", "user", K_STR, OFF(db_user), 0, 0 },
	{ "database", "password", K_STR, OFF(db_password), 0, 0 },
	{ "database", "name", K_STR, OFF(db_name), 0, 0 },
	{ "database", "timeout", K_INT, OFF(db_timeout), 1, 3600 },
	{ "database", "hosts", K_STR, OFF(db_hosts), 0, 0 },
	{ "security", "key_file", K_STR, OFF(key_file), 0, 0 },
	{ "security", "credentials_retention", K_INT, OFF(credentials_retention), 0, 31536000 },
	{ "security", "allow_http_urls", K_BOOL, OFF(allow_http_urls), 0, 0 },
	{ "security", "allow_private_urls", K_BOOL, OFF(allow_private_urls), 0, 0 },
	{ "limits", "requests_per_minute", K_INT, OFF(requests_per_minute), 1, 100000000 },
	{ "limits", "starts_per_minute", K_INT, OFF(starts_per_minute), 1, 100000000 },
	{ "limits", "max_body", K_LONG, OFF(max_body), 1024, 16777216 },
	{ "limits", "max_resources", K_INT, OFF(max_resources), 1, 100000000 },
	{ "limits", "max_pages", K_INT, OFF(max_pages), 1, 1000000 },
	{ "limits", "provider_wait_min", K_INT, OFF(provider_wait_min), 0, 3600 },
	{ "limits", "provider_wait_max", K_INT, OFF(provider_wait_max), 0, 86400 },
	{ "runner", "max_attempts", K_INT, OFF(max_attempts), 1, 100 },
	{ "runner", "lease_seconds", K_INT, OFF(lease_seconds), 5, 86400 },
	{ "features", "migrator", K_BOOL, OFF(migrator_default), 0, 0 },
	{ "http", "public_url", K_STR, OFF(public_url), 0, 0 },
	{ "http", "allowed_origins", K_STR, OFF(allowed_origins), 0, 0 },
};
/* clang-format on */

const char *
config_default_path(const char *arg)
{
	const char *env;

	if (arg != NULL && *arg)
		return arg;
	env = getenv("MIGRATOR_CONFIG");
	if (env != NULL && *env)
		return env;
	return SYSCONFDIR "/migrator/migrator.conf";
}

static char *
trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static void
set_defaults(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->db_host = xstrdup("localhost");
	c->db_port = 3306;
	c->db_user = xstrdup("migrator");
	c->db_password = xstrdup("");
	c->db_name = xstrdup("migrator");
	c->db_socket = xstrdup("");
	c->db_timeout = 10;
	c->db_hosts = xstrdup("");
	c->key_file = xstrdup(SYSCONFDIR "/migrator/credentials.key");
	c->credentials_retention = 3600;
	c->requests_per_minute = 240;
	c->starts_per_minute = 5;
	c->max_body = 65536;
	c->max_resources = 200000;
	c->max_pages = 10000;
	c->provider_wait_min = 1;
	c->provider_wait_max = 900;
	c->max_attempts = 3;
	c->lease_seconds = 120;
	c->migrator_default = false;
	c->public_url = xstrdup("");
	c->allowed_origins = xstrdup("");
}

static int
apply(struct config *c, const char *sec, const char *key, const char *val, int lineno, struct err *e)
{
	for (size_t i = 0; i < sizeof known_keys / sizeof known_keys[0]; i++) {
		const struct known *k = &known_keys[i];
		char *base = (char *)c;
		int64_t v;
		bool b;

		if (strcmp(k->section, sec) != 0 || strcmp(k->key, key) != 0)
			continue;
		switch (k->kind) {
		case K_STR:
			free(*(char **)(base + k->off));
			*(char **)(base + k->off) = xstrdup(val);
			return 0;
		case K_INT:
		case K_LONG:
			if (parse_i64(val, k->min, k->max, &v) != 0)
				return err_set(e, ERR_INTERNAL,
				    "%s:%d: %s.%s must be an integer from %ld to %ld", c->path, lineno, sec,
				    key, k->min, k->max);
			if (k->kind == K_INT)
				*(int *)(base + k->off) = (int)v;
			else
				*(long *)(base + k->off) = (long)v;
			return 0;
		case K_BOOL:
			if (strcmp(val, "on") == 0 || strcmp(val, "yes") == 0)
				b = true;
			else if (strcmp(val, "off") == 0 || strcmp(val, "no") == 0)
				b = false;
			else if (parse_bool(val, &b) != 0)
				return err_set(e, ERR_INTERNAL, "%s:%d: %s.%s must be true or false", c->path,
				    lineno, sec, key);
			*(bool *)(base + k->off) = b;
			return 0;
		}
	}
	if (strncmp(sec, "provider.", 9) == 0)
		return 0; /* provider sections are free-form; adapters read them */
	return err_set(e, ERR_INTERNAL, "%s:%d: unknown setting %s.%s", c->path, lineno, sec, key);
}

/* The value part of a line, in place: "quoted" (\" and \\ inside) keeps ';'
 * and '#'; else an inline comment begins at a ';' or '#' after white space.
 * Returns the value, or NULL for an unterminated quote or text after it. */
static char *
value_of(char *v)
{
	if (*v == '"') {
		char *o = v, *p = v + 1;

		for (; *p != '\0' && *p != '"'; p++) {
			if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
				p++;
			*o++ = *p;
		}
		if (*p != '"')
			return NULL;
		*o = '\0';
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		return *p == '\0' || *p == ';' || *p == '#' ? v : NULL;
	}
	for (char *p = v; *p != '\0'; p++)
		if ((*p == ';' || *p == '#') && (p == v || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			break;
		}
	return trim(v);
}

static void
add_node(struct config *c, const char *socket, const char *host, int port)
{
	struct db_node *n;

	c->db_nodes = xrealloc(c->db_nodes, (c->ndb_nodes + 1) * sizeof *c->db_nodes);
	n = &c->db_nodes[c->ndb_nodes++];
	n->socket = socket != NULL ? xstrdup(socket) : NULL;
	n->host = xstrdup(host);
	n->port = port;
}

/* One entry of [database] hosts: a socket path (from "/"), or host[:port] ("[v6]:port"). */
static int
add_host(struct config *c, char *t)
{
	char *host = t, *colon;
	int64_t port = 3306;

	if (*t == '/') {
		add_node(c, t, "", 0);
		return 0;
	}
	if (*t == '[') {
		char *end = strchr(t, ']');
		if (end == NULL || (end[1] != '\0' && end[1] != ':'))
			return -1;
		colon = end[1] == ':' ? end + 1 : NULL;
		*end = '\0';
		host = t + 1;
	} else if ((colon = strchr(t, ':')) != NULL && strchr(colon + 1, ':') != NULL)
		return -1; /* an IPv6 address needs its brackets */
	if (colon != NULL) {
		*colon = '\0';
		if (parse_i64(colon + 1, 1, 65535, &port) != 0)
			return -1;
	}
	if (*host == '\0')
		return -1;
	add_node(c, NULL, host, (int)port);
	return 0;
}

/* The database servers in order of use: [database] hosts (separated by commas or white space),
 * else the one server of socket, or host and port. */
static int
parse_nodes(struct config *c, struct err *e)
{
	char *list, *save = NULL;
	int rc = 0;

	if (c->db_hosts[0] == '\0') {
		add_node(c, c->db_socket[0] ? c->db_socket : NULL, c->db_host, c->db_port);
		return 0;
	}
	list = xstrdup(c->db_hosts);
	for (char *t = strtok_r(list, ", \t", &save); t != NULL && rc == 0; t = strtok_r(NULL, ", \t", &save))
		if (add_host(c, t) != 0)
			rc = err_set(e, ERR_INTERNAL,
			    "%s: database.hosts: \"%.200s\" is neither a socket path nor host[:port]",
			    c->path, t);
	free(list);
	if (rc == 0 && c->ndb_nodes == 0)
		rc = err_set(e, ERR_INTERNAL, "%s: database.hosts names no server", c->path);
	return rc;
}

int
config_load(struct config *c, const char *path, struct err *e)
{
	char line[4096], section[96] = "";
	FILE *fp;
	int lineno = 0, rc = 0;

	set_defaults(c);
	c->path = xstrdup(path);
	if ((fp = fopen(path, "r")) == NULL)
		return err_set(e, ERR_INTERNAL, "cannot open config file %s", path);
	while (fgets(line, sizeof line, fp) != NULL) {
		char *s, *eq, *key, *val;

		lineno++;
		if (strchr(line, '\n') == NULL && !feof(fp)) {
			rc = err_set(e, ERR_INTERNAL, "%s:%d: line too long", path, lineno);
			break;
		}
		s = trim(line);
		if (*s == '\0' || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');
			if (end == NULL || end[1] != '\0' || end - s - 1 >= (long)sizeof section) {
				rc = err_set(e, ERR_INTERNAL, "%s:%d: bad section header", path, lineno);
				break;
			}
			*end = '\0';
			snprintf(section, sizeof section, "%s", trim(s + 1));
			continue;
		}
		if ((eq = strchr(s, '=')) == NULL || section[0] == '\0') {
			rc = err_set(e, ERR_INTERNAL, "%s:%d: expected key = value inside a [section]", path,
			    lineno);
			break;
		}
		*eq = '\0';
		key = trim(s);
		if ((val = value_of(trim(eq + 1))) == NULL) {
			rc = err_set(e, ERR_INTERNAL,
			    "%s:%d: a quoted value must end with \" (then only a comment)", path, lineno);
			break;
		}
		if ((rc = apply(c, section, key, val, lineno, e)) != 0)
			break;
		c->kv = xrealloc(c->kv, (c->nkv + 1) * sizeof *c->kv);
		c->kv[c->nkv].section = xstrdup(section);
		c->kv[c->nkv].key = xstrdup(key);
		c->kv[c->nkv].value = xstrdup(val);
		c->nkv++;
	}
	fclose(fp);
	return rc != 0 ? rc : parse_nodes(c, e);
}

const char *
config_get(const struct config *c, const char *section, const char *key)
{
	/* The last assignment wins, as with the typed settings. */
	for (size_t i = c->nkv; i > 0; i--)
		if (strcmp(c->kv[i - 1].section, section) == 0 && strcmp(c->kv[i - 1].key, key) == 0)
			return c->kv[i - 1].value;
	return NULL;
}

void
config_free(struct config *c)
{
	char **strs[] = { &c->path, &c->db_socket, &c->db_host, &c->db_user, &c->db_password, &c->db_name,
		&c->key_file, &c->public_url, &c->allowed_origins, &c->db_hosts };

	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
	for (size_t i = 0; i < c->nkv; i++) {
		free(c->kv[i].section);
		free(c->kv[i].key);
		free(c->kv[i].value);
	}
	free(c->kv);
	c->kv = NULL;
	c->nkv = 0;
	for (size_t i = 0; i < c->ndb_nodes; i++) {
		free(c->db_nodes[i].socket);
		free(c->db_nodes[i].host);
	}
	free(c->db_nodes);
	c->db_nodes = NULL;
	c->ndb_nodes = 0;
}

void
config_dump(const struct config *c, FILE *out)
{
	for (size_t i = 0; i < sizeof known_keys / sizeof known_keys[0]; i++) {
		const struct known *k = &known_keys[i];
		const char *base = (const char *)c;

		fprintf(out, "%s.%s = ", k->section, k->key);
		switch (k->kind) {
		case K_STR: {
			const char *s = *(char *const *)(base + k->off);
			/* the password is a secret: whether it is set, never what it is */
			if (strcmp(k->key, "password") == 0)
				fprintf(out, "%s\n", s && *s ? "(set)" : "");
			else
				fprintf(out, "%s\n", s ? s : "");
			break;
		}
		case K_INT:
			fprintf(out, "%d\n", *(const int *)(base + k->off));
			break;
		case K_LONG:
			fprintf(out, "%ld\n", *(const long *)(base + k->off));
			break;
		case K_BOOL:
			fprintf(out, "%s\n", *(const bool *)(base + k->off) ? "true" : "false");
			break;
		}
	}
	for (size_t i = 0; i < c->nkv; i++)
		if (strncmp(c->kv[i].section, "provider.", 9) == 0)
			fprintf(out, "%s.%s = %s\n", c->kv[i].section, c->kv[i].key, c->kv[i].value);
}
