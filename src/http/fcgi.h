/* The FastCGI accept loop: the only place that sees FCGX_* types. */
#ifndef MIGRATOR_FCGI_H
#define MIGRATOR_FCGI_H
#include "api/ops.h"

/* Serve requests until SIGTERM/SIGINT/SIGUSR1. listen: NULL to use the socket
 * the web server passed as fd 0 (mod_fcgid, lighttpd, spawn-fcgi), or a path
 * or ":port" to open one. Returns a process exit code. */
int fcgi_serve(struct app *, const char *listen);

#endif
