/* The FastCGI accept loop: the only place that sees FCGX_* types. */
#ifndef MIGRATOR_FCGI_H
#define MIGRATOR_FCGI_H
#include "api/ops.h"

struct FCGX_Request;

/* Answer the request r has accepted: read it (its CGI variables, and the
 * body into body[cap + 1]), handle it, write the answer and finish r (the
 * connection closed, or kept when the web server asked). One iteration of
 * fcgi_serve; tests/fuzz/fuzz_fcgi.c drives it on a connection of its own. */
void fcgi_answer(struct app *, struct FCGX_Request *r, char *body, size_t cap);

/* Serve requests until SIGTERM/SIGINT/SIGUSR1. listen: NULL to use the socket
 * the web server passed as fd 0 (mod_fcgid, lighttpd, spawn-fcgi), or a path
 * or ":port" to open one. Returns a process exit code. */
int fcgi_serve(struct app *, const char *listen);

#endif
