#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>
#include <sodium.h>
#include <errmsg.h>
#include <mysqld_error.h>

#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "db/db.h"

#define DB_MAX_PARAMS 40

struct db_res {
	struct db *db;
	MYSQL_STMT *stmt;
	unsigned ncols;
	MYSQL_BIND *bind;
	unsigned long *lens;
	my_bool *nulls;
	my_bool *errs;
	char **bufs;
	size_t *caps;
	/* Integers arrive as integers, and are written as text only for db_str.
	 * Dates and times arrive as MYSQL_TIME and are written as text here (the
	 * library's own sprintf cost more than the rest of a row). kind: TEXT_COL,
	 * INT_COL, DATE_COL, or the digits of a DATETIME's fraction. */
	int64_t *ints;
	MYSQL_TIME *times;
	signed char *kind;
};

#define TEXT_COL (-1)
#define DATE_COL (-2)
#define INT_COL  (-3)
#define NOT_TEXT ((unsigned long)-1) /* lens[] of an integer not yet written as text */

struct db {
	const struct config *cfg;
	MYSQL *my;
	MYSQL_STMT *stmts[ST__COUNT];
	bool in_tx;
	bool lost;             /* the last error says this node cannot serve: the next use moves on */
	size_t node;           /* cfg->db_nodes[node]: the server in use, or tried next */
	unsigned open_results; /* made by db_query, not yet freed: they hold prepared statements */
	unsigned last_errno;
	char last_error[512];
	uint64_t insert_id;
	int64_t tx_rows; /* rows the statements of the open transaction changed (db_tx_rows) */
};

static void
note_error(struct db *db, unsigned no, const char *msg)
{
	db->last_errno = no;
	utf8_format(db->last_error, sizeof db->last_error, "%u: %s", no, msg); /* it may quote a value */
	if (db_error_class(db) == DB_LOST)
		db->lost = true;
}

/* A name of node i for the log: its socket, or host:port. */
static const char *
node_name(const struct db *db, size_t i, char *buf, size_t n)
{
	const struct db_node *d = &db->cfg->db_nodes[i];

	if (d->socket != NULL)
		return d->socket;
	snprintf(buf, n, "%s:%d", d->host, d->port);
	return buf;
}

/* Connect to node i. */
static int
connect_node(struct db *db, size_t i)
{
	const struct config *c = db->cfg;
	const struct db_node *d = &c->db_nodes[i];
	unsigned int timeout = (unsigned int)c->db_timeout;
	const char *init =
	    "SET time_zone = '+00:00', "
	    "sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'";
	/* On a Galera node every statement (a write too: it may read, as a token check does) waits
	 * until the node has applied what the cluster committed before it, so that a request on one
	 * host sees what another wrote; and a statement of its own that loses a certification race is
	 * tried again by the server first. A server without Galera ignores both; MySQL does not know
	 * them: 1193, also no matter. */
	const char *wsrep = "SET SESSION wsrep_sync_wait = 15, wsrep_retry_autocommit = 8";
	my_bool off = 0;
	char lock_wait[64];

	/* A statement waiting for a row lock gives up on the server (1205, retried like a
	 * deadlock) before the client's read timeout drops the connection: a dropped
	 * connection's transaction would keep its locks until its wait ends there, and the
	 * retry, on a new connection, would wait for them. */
	snprintf(lock_wait, sizeof lock_wait, "SET SESSION innodb_lock_wait_timeout = %u", timeout);
	if ((db->my = mysql_init(NULL)) == NULL) {
		note_error(db, 0, "mysql_init failed");
		return -1;
	}
	mysql_options(db->my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(db->my, MYSQL_OPT_READ_TIMEOUT, &timeout);
	mysql_options(db->my, MYSQL_OPT_WRITE_TIMEOUT, &timeout);
	mysql_options(db->my, MYSQL_OPT_RECONNECT, &off);
	mysql_options(db->my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	mysql_options(db->my, MYSQL_INIT_COMMAND, init);
	mysql_options(db->my, MYSQL_INIT_COMMAND, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
	mysql_options(db->my, MYSQL_INIT_COMMAND, lock_wait);
	if (mysql_real_connect(db->my, d->socket != NULL ? NULL : d->host, c->db_user, c->db_password,
	        c->db_name, (unsigned)d->port, d->socket, CLIENT_FOUND_ROWS) == NULL ||
	    (mysql_real_query(db->my, wsrep, strlen(wsrep)) != 0 &&
	        mysql_errno(db->my) != ER_UNKNOWN_SYSTEM_VARIABLE)) {
		note_error(db, mysql_errno(db->my), mysql_error(db->my));
		mysql_close(db->my);
		db->my = NULL;
		return -1;
	}
	return 0;
}

/* Connect to the node in use, else to the next ones in turn. */
static int
open_conn(struct db *db)
{
	size_t n = db->cfg->ndb_nodes;
	char name[300];

	for (size_t k = 0; k < n; k++) {
		size_t i = (db->node + k) % n;

		if (connect_node(db, i) == 0) {
			if (i != db->node)
				log_warn("database: now on %s", node_name(db, i, name, sizeof name));
			db->node = i;
			db->lost = false;
			return 0;
		}
		if (n > 1)
			log_warn("database %s: %s", node_name(db, i, name, sizeof name), db->last_error);
	}
	return -1;
}

static void close_conn(struct db *db);

/* A connection to use: a new one, on the next node, after this one could not serve (not inside a
 * transaction: its work is lost with the node, and the caller retries it whole). */
static int
ensure_conn(struct db *db)
{
	if (db->lost && db->my != NULL) {
		char name[300];

		if (db->in_tx || db->open_results > 0)
			return -1; /* a reconnect would close the statements of open results too */
		log_warn("database %s: %s; %s", node_name(db, db->node, name, sizeof name), db->last_error,
		    db->cfg->ndb_nodes > 1 ? "moving to the next server" : "connecting again");
		close_conn(db);
		db->node = (db->node + 1) % db->cfg->ndb_nodes;
	}
	return db->my == NULL ? open_conn(db) : 0;
}

static void
close_conn(struct db *db)
{
	for (int i = 0; i < ST__COUNT; i++) {
		if (db->stmts[i] != NULL)
			mysql_stmt_close(db->stmts[i]);
		db->stmts[i] = NULL;
	}
	if (db->my != NULL)
		mysql_close(db->my);
	db->my = NULL;
	db->in_tx = false;
}

struct db *
db_new(const struct config *cfg)
{
	struct db *db = xcalloc(1, sizeof *db);

	db->cfg = cfg;
	return db;
}

struct db *
db_connect(const struct config *cfg, struct err *e)
{
	struct db *db = db_new(cfg);

	if (open_conn(db) != 0) {
		err_set(e, ERR_UNAVAILABLE, NULL);
		utf8_format(e->detail, sizeof e->detail, "database connect: %s", db->last_error);
		free(db);
		return NULL;
	}
	return db;
}

void
db_close(struct db *db)
{
	if (db == NULL)
		return;
	close_conn(db);
	free(db);
}

enum db_class
db_error_class(struct db *db)
{
	switch (db->last_errno) {
	case 0:
		return DB_OK;
	case CR_SERVER_GONE_ERROR:
	case CR_SERVER_LOST:
	case CR_CONNECTION_ERROR:
	case CR_CONN_HOST_ERROR:
	case ER_CONNECTION_KILLED:
	case ER_SERVER_SHUTDOWN:
	case 4031:                         /* ER_CLIENT_INTERACTION_TIMEOUT */
	case ER_UNKNOWN_COM_ERROR:         /* 1047: a Galera node outside the primary component */
	case ER_OPTION_PREVENTS_STATEMENT: /* 1290: a read-only node */
		return DB_LOST;
	case ER_LOCK_DEADLOCK:
	case ER_LOCK_WAIT_TIMEOUT:
		return DB_RETRY;
	case ER_DUP_ENTRY:
		return DB_DUPLICATE;
	case ER_NO_REFERENCED_ROW:
	case ER_NO_REFERENCED_ROW_2:
		return DB_FOREIGN;
	default:
		return DB_OTHER;
	}
}

const char *
db_error(struct db *db)
{
	return db->last_error;
}

int
db_fail_(struct db *db, struct err *e, const char *file, int line)
{
	enum db_class cls = db_error_class(db);

	e->code = cls == DB_LOST || cls == DB_RETRY ? ERR_UNAVAILABLE : ERR_INTERNAL;
	e->file = file;
	e->line = line;
	e->msg[0] = '\0';
	utf8_format(e->detail, sizeof e->detail, "database: %s", db->last_error);
	return -1;
}

static MYSQL_STMT *
prepared(struct db *db, enum stmt_id id)
{
	MYSQL_STMT *st;

	if (ensure_conn(db) != 0)
		return NULL;
	if (db->stmts[id] != NULL)
		return db->stmts[id];
	if ((st = mysql_stmt_init(db->my)) == NULL) {
		note_error(db, mysql_errno(db->my), mysql_error(db->my));
		return NULL;
	}
	if (mysql_stmt_prepare(st, db_sql[id], strlen(db_sql[id])) != 0) {
		note_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
		if (!db->lost) /* a server that cannot serve: the caller moves on, and says so */
			log_error("prepare %s: %s", db_stmt_names[id], db->last_error);
		mysql_stmt_close(st);
		return NULL;
	}
	db->stmts[id] = st;
	return st;
}

struct params {
	MYSQL_BIND bind[DB_MAX_PARAMS];
	long long ints[DB_MAX_PARAMS];
	unsigned long lens[DB_MAX_PARAMS];
	my_bool isnull[DB_MAX_PARAMS];
};

/* Bind the values of ap described by types, then ntail more uint64 values.
 * Long: one case per type letter, read best as one switch. */
static int
bind_params(struct params *p, const char *types, va_list ap, const uint64_t *tail, size_t ntail)
{
	size_t n = strlen(types);

	if (n + ntail > DB_MAX_PARAMS)
		return -1;
	memset(p, 0, sizeof *p);
	for (size_t i = n; i < n + ntail; i++) {
		p->ints[i] = (long long)tail[i - n];
		p->bind[i].buffer_type = MYSQL_TYPE_LONGLONG;
		p->bind[i].buffer = &p->ints[i];
		p->bind[i].is_unsigned = 1;
	}
	for (size_t i = 0; i < n; i++) {
		MYSQL_BIND *b = &p->bind[i];
		const char *s;

		switch (types[i]) {
		case 'i':
			p->ints[i] = va_arg(ap, int64_t);
			b->buffer_type = MYSQL_TYPE_LONGLONG;
			b->buffer = &p->ints[i];
			break;
		case 'u':
			p->ints[i] = (long long)va_arg(ap, uint64_t);
			b->buffer_type = MYSQL_TYPE_LONGLONG;
			b->buffer = &p->ints[i];
			b->is_unsigned = 1;
			break;
		case 's':
			s = va_arg(ap, const char *);
			b->buffer_type = MYSQL_TYPE_STRING;
			if (s == NULL) {
				p->isnull[i] = 1;
				b->is_null = &p->isnull[i];
			} else {
				b->buffer = (void *)s;
				p->lens[i] = strlen(s);
				b->buffer_length = p->lens[i];
				b->length = &p->lens[i];
			}
			break;
		case 'b':
			b->buffer_type = MYSQL_TYPE_BLOB;
			b->buffer = (void *)va_arg(ap, const void *);
			p->lens[i] = va_arg(ap, size_t);
			b->buffer_length = p->lens[i];
			b->length = &p->lens[i];
			if (b->buffer == NULL) {
				p->isnull[i] = 1;
				b->is_null = &p->isnull[i];
			}
			break;
		case 'U': /* uint64_t, 0 binds NULL */
		case 'I': /* int64_t, negative binds NULL */
			if (types[i] == 'U')
				p->ints[i] = (long long)va_arg(ap, uint64_t);
			else
				p->ints[i] = va_arg(ap, int64_t);
			b->buffer_type = MYSQL_TYPE_LONGLONG;
			b->buffer = &p->ints[i];
			b->is_unsigned = types[i] == 'U';
			if ((types[i] == 'U' && p->ints[i] == 0) || (types[i] == 'I' && p->ints[i] < 0)) {
				p->isnull[i] = 1;
				b->is_null = &p->isnull[i];
			}
			break;
		case 'n':
			b->buffer_type = MYSQL_TYPE_NULL;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

json_object *
db_vrow(const char *types, va_list ap)
{
	json_object *row = json_object_new_array_ext((int)strlen(types));
	const char *s;
	int64_t i;

	for (const char *t = types; *t != '\0'; t++) {
		switch (*t) {
		case 's':
			s = va_arg(ap, const char *);
			json_object_array_add(row, s != NULL ? json_object_new_string(s) : NULL);
			break;
		case 'i':
		case 'I':
			i = va_arg(ap, int64_t);
			json_object_array_add(row, *t == 'I' && i < 0 ? NULL : json_object_new_int64(i));
			break;
		default: /* no row has other letters yet */
			json_object_put(row);
			return NULL;
		}
	}
	return row;
}

/* Prepare, bind and execute; on a lost connection outside a transaction,
 * reconnect and try once more. */
static MYSQL_STMT *
execute(struct db *db, enum stmt_id id, const char *types, va_list ap, const uint64_t *tail, size_t ntail)
{
	struct params p;
	MYSQL_STMT *st;
	va_list again;

	for (int attempt = 0;; attempt++) {
		enum db_class cls;

		va_copy(again, ap);
		if (bind_params(&p, types, again, tail, ntail) != 0) {
			va_end(again);
			note_error(db, 0, "bad bind types");
			log_error("%s: bad bind types \"%s\"", db_stmt_names[id], types);
			return NULL;
		}
		va_end(again);
		db->last_errno = 0;
		if ((st = prepared(db, id)) != NULL) {
			if (mysql_stmt_param_count(st) != strlen(types) + ntail) {
				note_error(db, 0, "parameter count mismatch");
				log_error("%s: %lu parameters, %zu bound", db_stmt_names[id],
				    mysql_stmt_param_count(st), strlen(types) + ntail);
				return NULL;
			}
			if (mysql_stmt_bind_param(st, p.bind) == 0 && mysql_stmt_execute(st) == 0)
				return st;
			note_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
		}
		/* Outside a transaction a statement is a transaction of its own: once more on a new
		 * connection (ensure_conn; not while results are open, which it would close) when the
		 * server could not serve, and up to twice DB_ATTEMPTS times when it lost to another
		 * writer (one row counted from every node: a rate limit under a burst). */
		cls = db_error_class(db);
		if (db->in_tx ||
		    !((cls == DB_LOST && attempt == 0 && db->open_results == 0) ||
		        (cls == DB_RETRY && attempt < 2 * DB_ATTEMPTS - 1)))
			break;
		if (cls == DB_RETRY)
			db_retry_pause(attempt);
	}
	return NULL;
}

void
db_retry_pause(int attempt)
{
	sleep_ms((int64_t)randombytes_uniform((uint32_t)DB_RETRY_PAUSE_MS << (attempt < 6 ? attempt : 6)));
}

static int64_t
affected(struct db *db, MYSQL_STMT *st)
{
	int64_t n;

	if (st == NULL)
		return -1;
	n = (int64_t)mysql_stmt_affected_rows(st);
	db->insert_id = mysql_stmt_insert_id(st);
	if (n < 0)
		n = 0;
	if (db->in_tx)
		db->tx_rows += n;
	return n;
}

int64_t
db_exec(struct db *db, enum stmt_id id, const char *types, ...)
{
	MYSQL_STMT *st;
	va_list ap;

	va_start(ap, types);
	st = execute(db, id, types, ap, NULL, 0);
	va_end(ap);
	return affected(db, st);
}

int64_t
db_exec_batches(struct db *db, enum stmt_id id, int64_t batch)
{
	int64_t n, all = 0;

	for (int i = 0; i < 100; i++) {
		if ((n = db_exec(db, id, "i", batch)) < 0)
			return -1;
		all += n;
		if (n < batch)
			break;
	}
	return all;
}

int64_t
db_vexec_tail(struct db *db, enum stmt_id id, const char *types, va_list ap, const uint64_t *tail,
    size_t ntail)
{
	return affected(db, execute(db, id, types, ap, tail, ntail));
}

uint64_t
db_insert_id(struct db *db)
{
	return db->insert_id;
}

/* How a result column is read (struct db_res). */
static signed char
column_kind(const MYSQL_FIELD *f)
{
	switch (f->type) {
	case MYSQL_TYPE_TINY:
	case MYSQL_TYPE_SHORT:
	case MYSQL_TYPE_INT24:
	case MYSQL_TYPE_LONG:
	case MYSQL_TYPE_LONGLONG:
		return INT_COL;
	case MYSQL_TYPE_DATETIME:
	case MYSQL_TYPE_TIMESTAMP:
		return (signed char)(f->decimals < 6 ? f->decimals : 6);
	case MYSQL_TYPE_DATE:
		return DATE_COL;
	default:
		return TEXT_COL;
	}
}

static struct db_res *
make_res(struct db *db, MYSQL_STMT *st)
{
	MYSQL_RES *meta = mysql_stmt_result_metadata(st);
	struct db_res *r;
	MYSQL_FIELD *f;

	if (meta == NULL) {
		note_error(db, mysql_stmt_errno(st), "statement returns no result set");
		return NULL;
	}
	if (mysql_stmt_store_result(st) != 0) {
		note_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
		mysql_free_result(meta);
		return NULL;
	}
	r = xcalloc(1, sizeof *r);
	r->db = db;
	db->open_results++; /* until db_free */
	r->stmt = st;
	r->ncols = mysql_num_fields(meta);
	r->bind = xcalloc(r->ncols, sizeof *r->bind);
	r->lens = xcalloc(r->ncols, sizeof *r->lens);
	r->nulls = xcalloc(r->ncols, sizeof *r->nulls);
	r->errs = xcalloc(r->ncols, sizeof *r->errs);
	r->bufs = xcalloc(r->ncols, sizeof *r->bufs);
	r->caps = xcalloc(r->ncols, sizeof *r->caps);
	r->ints = xcalloc(r->ncols, sizeof *r->ints);
	r->times = xcalloc(r->ncols, sizeof *r->times);
	r->kind = xcalloc(r->ncols, sizeof *r->kind);
	f = mysql_fetch_fields(meta);
	for (unsigned i = 0; i < r->ncols; i++) {
		/* The column's declared size, from 64 bytes (room for a number's
		 * or a date's text) to 4 KB: a longer value grows its buffer in
		 * db_next. (Asking the library for each column's longest value
		 * made it decode every row once more.) */
		size_t cap = (f[i].length < 64 ? 64 : f[i].length < 4096 ? f[i].length : 4096) + 1;
		r->caps[i] = cap;
		r->bufs[i] = xmalloc(cap);
		r->kind[i] = column_kind(&f[i]);
		if (r->kind[i] == TEXT_COL) {
			r->bind[i].buffer_type = MYSQL_TYPE_STRING;
			r->bind[i].buffer = r->bufs[i];
			r->bind[i].buffer_length = cap - 1;
		} else if (r->kind[i] == INT_COL) {
			r->bind[i].buffer_type = MYSQL_TYPE_LONGLONG;
			r->bind[i].buffer = &r->ints[i];
			r->bind[i].is_unsigned = (f[i].flags & UNSIGNED_FLAG) != 0;
		} else {
			r->bind[i].buffer_type = MYSQL_TYPE_DATETIME;
			r->bind[i].buffer = &r->times[i];
			r->bind[i].buffer_length = sizeof r->times[i];
		}
		r->bind[i].length = &r->lens[i];
		r->bind[i].is_null = &r->nulls[i];
		r->bind[i].error = &r->errs[i];
	}
	mysql_free_result(meta);
	if (mysql_stmt_bind_result(st, r->bind) != 0) {
		note_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
		db_free(r);
		return NULL;
	}
	return r;
}

struct db_res *
db_query(struct db *db, enum stmt_id id, const char *types, ...)
{
	MYSQL_STMT *st;
	va_list ap;

	va_start(ap, types);
	st = execute(db, id, types, ap, NULL, 0);
	va_end(ap);
	if (st == NULL)
		return NULL;
	return make_res(db, st);
}

/* n as exactly width decimal digits at p. */
static void
put_digits(char *p, unsigned long n, int width)
{
	while (width-- > 0) {
		p[width] = (char)('0' + n % 10);
		n /= 10;
	}
}

/* A date or datetime as the client library writes it ("%04u-%02u-%02u", then
 * " %02u:%02u:%02u" and frac digits of ".%06u" for a datetime) into out (64
 * bytes at least, NUL-terminated). Returns its length. */
static unsigned long
time_text(const MYSQL_TIME *t, int frac, char *out)
{
	int n = 10;

	put_digits(out, t->year, 4);
	out[4] = '-';
	put_digits(out + 5, t->month, 2);
	out[7] = '-';
	put_digits(out + 8, t->day, 2);
	if (frac != DATE_COL) {
		out[10] = ' ';
		put_digits(out + 11, t->hour, 2);
		out[13] = ':';
		put_digits(out + 14, t->minute, 2);
		out[16] = ':';
		put_digits(out + 17, t->second, 2);
		n = 19;
		if (frac > 0) { /* all six digits, cut to frac by the NUL */
			out[n++] = '.';
			put_digits(out + n, t->second_part, 6);
			n += frac;
		}
	}
	out[n] = '\0';
	return (unsigned long)n;
}

int
db_next(struct db_res *r)
{
	int rc = mysql_stmt_fetch(r->stmt);

	if (rc == MYSQL_NO_DATA)
		return 0;
	if (rc == 1) {
		note_error(r->db, mysql_stmt_errno(r->stmt), mysql_stmt_error(r->stmt));
		return -1;
	}
	for (unsigned i = 0; i < r->ncols; i++) {
		if (r->nulls[i]) {
			r->bufs[i][0] = '\0';
			continue;
		}
		if (r->kind[i] == INT_COL) {
			r->lens[i] = NOT_TEXT;
			continue;
		}
		if (r->kind[i] != TEXT_COL) {
			r->lens[i] = time_text(&r->times[i], r->kind[i], r->bufs[i]);
			continue;
		}
		if (r->lens[i] >= r->caps[i]) {
			/* Truncated: grow and fetch this column again. */
			r->caps[i] = r->lens[i] + 1;
			r->bufs[i] = xrealloc(r->bufs[i], r->caps[i]);
			r->bind[i].buffer = r->bufs[i];
			r->bind[i].buffer_length = r->caps[i] - 1;
			if (mysql_stmt_fetch_column(r->stmt, &r->bind[i], i, 0) != 0) {
				note_error(r->db, mysql_stmt_errno(r->stmt), mysql_stmt_error(r->stmt));
				return -1;
			}
			mysql_stmt_bind_result(r->stmt, r->bind);
		}
		r->bufs[i][r->lens[i]] = '\0';
	}
	return 1;
}

const char *
db_strn(struct db_res *r, int col, size_t *len)
{
	*len = 0;
	if (col < 0 || (unsigned)col >= r->ncols || r->nulls[col])
		return NULL;
	if (r->lens[col] == NOT_TEXT) {
		bool neg = !r->bind[col].is_unsigned && r->ints[col] < 0;

		r->lens[col] =
		    int_text(r->bufs[col], neg ? 0 - (uint64_t)r->ints[col] : (uint64_t)r->ints[col], neg);
		r->bufs[col][r->lens[col]] = '\0';
	}
	*len = r->lens[col];
	return r->bufs[col];
}

const char *
db_str(struct db_res *r, int col)
{
	size_t len;

	return db_strn(r, col, &len);
}

size_t
db_len(struct db_res *r, int col)
{
	size_t len;

	db_strn(r, col, &len);
	return len;
}

int64_t
db_i64(struct db_res *r, int col)
{
	const char *s;
	int64_t v;

	if (col >= 0 && (unsigned)col < r->ncols && r->kind[col] == INT_COL && !r->nulls[col]) {
		v = r->ints[col];
		/* as parse_i64 reads the text: out of range is 0 */
		return (r->bind[col].is_unsigned && v < 0) || v == INT64_MIN ? 0 : v;
	}
	if ((s = db_str(r, col)) == NULL || parse_i64(s, INT64_MIN + 1, INT64_MAX, &v) != 0)
		return 0;
	return v;
}

void
db_free(struct db_res *r)
{
	if (r == NULL)
		return;
	r->db->open_results--;
	/* Frees the rows client-side; the statement is ready to execute again.
	 * (mysql_stmt_reset would cost a round trip to the server.) */
	mysql_stmt_free_result(r->stmt);
	for (unsigned i = 0; i < r->ncols; i++)
		free(r->bufs[i]);
	free(r->bufs);
	free(r->caps);
	free(r->bind);
	free(r->lens);
	free(r->nulls);
	free(r->errs);
	free(r->ints);
	free(r->times);
	free(r->kind);
	free(r);
}

int
db_scalar(struct db *db, int64_t *out, enum stmt_id id, const char *types, ...)
{
	struct db_res *r;
	MYSQL_STMT *st;
	va_list ap;
	int rc;

	va_start(ap, types);
	st = execute(db, id, types, ap, NULL, 0);
	va_end(ap);
	if (st == NULL || (r = make_res(db, st)) == NULL)
		return -1;
	rc = db_next(r);
	if (rc == 1)
		*out = db_i64(r, 0);
	db_free(r);
	return rc;
}

static int
simple(struct db *db, const char *sql)
{
	if (ensure_conn(db) != 0)
		return -1;
	if (mysql_real_query(db->my, sql, strlen(sql)) != 0) {
		note_error(db, mysql_errno(db->my), mysql_error(db->my));
		return -1;
	}
	return 0;
}

int
db_begin(struct db *db)
{
	/* a connection found lost is replaced once (ensure_conn) */
	if (simple(db, "START TRANSACTION") != 0 &&
	    (db_error_class(db) != DB_LOST || simple(db, "START TRANSACTION") != 0))
		return -1;
	db->in_tx = true;
	db->tx_rows = 0;
	return 0;
}

int64_t
db_tx_rows(const struct db *db)
{
	return db->tx_rows;
}

int
db_commit(struct db *db)
{
	int rc = simple(db, "COMMIT");

	db->in_tx = false;
	return rc;
}

void
db_rollback(struct db *db)
{
	if (db->my != NULL && db->in_tx)
		mysql_rollback(db->my);
	db->in_tx = false;
}

int
db_run_script_stmt(struct db *db, const char *sql)
{
	MYSQL_RES *res;

	if (simple(db, sql) != 0)
		return -1;
	if ((res = mysql_store_result(db->my)) != NULL)
		mysql_free_result(res);
	return 0;
}
