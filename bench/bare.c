/* Baseline for bench/api.sh: the barest useful FastCGI handler, one
 * primary-key SELECT through a statement prepared once, one small JSON
 * answer, no authentication. migrator's authenticated GET /api/v1/me is
 * reported as a ratio of this, measured in the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcgiapp.h>
#include <mysql.h>

int
main(void)
{
	const char *sock = getenv("BENCH_DB_SOCKET");
	const char *sql = "SELECT id, name, email FROM users WHERE id = ?";
	MYSQL *my = mysql_init(NULL);
	MYSQL_STMT *st;
	MYSQL_BIND p[1], r[3];
	long long id = 1, rid = 0;
	char name[256], email[256];
	unsigned long nlen = 0, elen = 0;
	FCGX_Request req;

	if (!mysql_real_connect(my, NULL, "root", "", "migrator", 0, sock, 0))
		return 1;
	st = mysql_stmt_init(my);
	if (mysql_stmt_prepare(st, sql, strlen(sql)) != 0)
		return 1;
	memset(p, 0, sizeof p);
	p[0].buffer_type = MYSQL_TYPE_LONGLONG;
	p[0].buffer = &id;
	memset(r, 0, sizeof r);
	r[0].buffer_type = MYSQL_TYPE_LONGLONG;
	r[0].buffer = &rid;
	r[1].buffer_type = MYSQL_TYPE_STRING;
	r[1].buffer = name;
	r[1].buffer_length = sizeof name - 1;
	r[1].length = &nlen;
	r[2].buffer_type = MYSQL_TYPE_STRING;
	r[2].buffer = email;
	r[2].buffer_length = sizeof email - 1;
	r[2].length = &elen;
	FCGX_Init();
	FCGX_InitRequest(&req, 0, 0);
	while (FCGX_Accept_r(&req) >= 0) {
		char body[640];
		int n;

		mysql_stmt_bind_param(st, p);
		mysql_stmt_execute(st);
		mysql_stmt_bind_result(st, r);
		if (mysql_stmt_fetch(st) == 0) {
			name[nlen] = '\0';
			email[elen] = '\0';
		}
		mysql_stmt_free_result(st);
		n = snprintf(body, sizeof body, "{\"data\":{\"id\":%lld,\"name\":\"%s\",\"email\":\"%s\"}}",
		    rid, name, email);
		FCGX_FPrintF(req.out,
		    "Status: 200 OK\r\nContent-Type: application/json\r\n"
		    "Content-Length: %d\r\n\r\n",
		    n);
		FCGX_PutStr(body, n, req.out);
		FCGX_Finish_r(&req);
	}
	return 0;
}
