#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <fcgiapp.h>
#include <sodium.h>

#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "http/fcgi.h"
#include "http/http.h"

static volatile sig_atomic_t stopping;

static void
on_signal(int sig)
{
	(void)sig;
	stopping = 1;
	FCGX_ShutdownPending(); /* makes a blocked accept give up on EINTR */
}

static void
install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal; /* no SA_RESTART: accept() returns EINTR */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

static const char *
status_text(int s)
{
	switch (s) {
	case 200:
		return "OK";
	case 201:
		return "Created";
	case 202:
		return "Accepted";
	case 204:
		return "No Content";
	case 400:
		return "Bad Request";
	case 401:
		return "Unauthorized";
	case 403:
		return "Forbidden";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 409:
		return "Conflict";
	case 413:
		return "Payload Too Large";
	case 414:
		return "URI Too Long";
	case 415:
		return "Unsupported Media Type";
	case 422:
		return "Unprocessable Entity";
	case 429:
		return "Too Many Requests";
	case 431:
		return "Request Header Fields Too Large";
	case 500:
		return "Internal Server Error";
	case 502:
		return "Bad Gateway";
	case 503:
		return "Service Unavailable";
	default:
		return "Unknown";
	}
}

/* Read the body into buf (capacity cap). Sets req->body_too_large without
 * reading more than cap bytes, and req->refused for a malformed
 * Content-Length or a body that ends early. Returns the length read. */
static size_t
read_body(FCGX_Request *r, char *buf, size_t cap, struct http_req *req)
{
	const char *cl = FCGX_GetParam("CONTENT_LENGTH", r->envp);
	int64_t want = 0;
	size_t got = 0;

	if (cl == NULL || *cl == '\0')
		return 0;
	if (parse_i64(cl, 0, INT64_MAX, &want) != 0) {
		req->refused = ERR_BAD_REQUEST; /* never read as an empty body */
		return 0;
	}
	if (want > (int64_t)cap) {
		req->body_too_large = true;
		return 0;
	}
	while (got < (size_t)want) {
		int n = FCGX_GetStr(buf + got, (int)((size_t)want - got), r->in);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got < (size_t)want)
		req->refused = ERR_BAD_REQUEST; /* the body ended before its Content-Length */
	return got;
}

/* A request header (FastCGI param) that must fit max bytes, else 431. */
static const char *
header(FCGX_Request *r, const char *name, size_t max, struct http_req *req)
{
	const char *v = FCGX_GetParam(name, r->envp);

	if (v != NULL && strlen(v) > max)
		req->refused = ERR_HEADERS_TOO_LARGE;
	return v;
}

/* libfcgi's own printf lacks modern length modifiers: format with snprintf. */
static void put_line(FCGX_Request *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put_line(FCGX_Request *r, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n > 0)
		FCGX_PutStr(line, n < (int)sizeof line ? n : (int)sizeof line - 1, r->out);
}

/* A body larger than this goes out by put_records. */
#define BIG_BODY (16 * 1024)
/* The most put_records asks of a connection's send buffer. */
#define SNDBUF_MAX (4 << 20)

/* body as FastCGI stdout records of up to 64 KB, a batch of them per writev,
 * on the request's connection, after what libfcgi has flushed; FCGX_Finish_r
 * then ends the stream. libfcgi writes one 8 KB record per write: a 254 KB
 * tool answer took 32 writes here and as many reads in the web server. A
 * failed write (the server went away) drops the rest, as libfcgi would.
 * The socket's send buffer is first grown to hold the whole body where the
 * system allows (net.core.wmem_max; Linux's default buffer is 208 KB): the
 * process then goes on to its next request while the server reads, instead
 * of waiting for it (BENCHMARKS.md has what that gave the tool call). */
static void
put_records(FCGX_Request *r, const char *body, size_t len)
{
	enum { REC = 65528, BATCH = 16 }; /* the largest multiple of 8 a record holds; no padding */
	unsigned char head[BATCH][8];
	struct iovec iov[2 * BATCH];
	int room = len < SNDBUF_MAX ? (int)len + REC : SNDBUF_MAX;

	setsockopt(r->ipcFd, SOL_SOCKET, SO_SNDBUF, &room, sizeof room); /* a failure leaves it as it was */
	while (len > 0) {
		int n = 0;
		ssize_t w;

		for (int k = 0; k < BATCH && len > 0; k++) {
			size_t c = len < REC ? len : REC;
			unsigned char *h = head[k];

			h[0] = 1; /* FCGI_VERSION_1 */
			h[1] = 6; /* FCGI_STDOUT */
			h[2] = (unsigned char)(r->requestId >> 8);
			h[3] = (unsigned char)r->requestId;
			h[4] = (unsigned char)(c >> 8);
			h[5] = (unsigned char)c;
			h[6] = h[7] = 0;
			iov[n++] = (struct iovec){ h, 8 };
			iov[n++] = (struct iovec){ (void *)body, c };
			body += c;
			len -= c;
		}
		for (int i = 0; i < n;) {
			if ((w = writev(r->ipcFd, iov + i, n - i)) < 0) {
				if (errno == EINTR)
					continue;
				return;
			}
			for (; i < n && (size_t)w >= iov[i].iov_len; i++)
				w -= (ssize_t)iov[i].iov_len;
			if (i < n) {
				iov[i].iov_base = (char *)iov[i].iov_base + w;
				iov[i].iov_len -= (size_t)w;
			}
		}
	}
}

static void
write_response(FCGX_Request *r, const struct http_resp *resp)
{
	put_line(r, "Status: %d %s\r\n", resp->status, status_text(resp->status));
	if (resp->body != NULL)
		put_line(r, "Content-Type: %s\r\n",
		    resp->content_type ? resp->content_type : "application/json");
	for (int i = 0; i < resp->nheaders; i++)
		put_line(r, "%s: %s\r\n", resp->headers[i].name, resp->headers[i].value);
	put_line(r, "Content-Length: %zu\r\n\r\n", resp->body ? resp->body_len : (size_t)0);
	if (resp->body == NULL || resp->body_len == 0)
		return;
	if (resp->body_len <= BIG_BODY || FCGX_FFlush(r->out) != 0)
		FCGX_PutStr(resp->body, (int)resp->body_len, r->out);
	else
		put_records(r, resp->body, resp->body_len);
}

/* After the answer: when the web server has sent all its input (the body
 * was read whole and the end of stdin follows it), the connection is closed
 * at once. libfcgi would shut down its side and wait for the server to close
 * (a lingering close, so that unread input cannot turn the close into a
 * reset that loses the answer), and a process that waits serves no one:
 * BENCHMARKS.md has what it cost. A body left unread keeps the lingering
 * close. (FCGX_Detach does nothing else in libfcgi 2.4.2 to 2.4.7.) */
static void
close_at_once(FCGX_Request *r, const struct http_req *req)
{
	if (!req->body_too_large && !req->refused && FCGX_GetChar(r->in) == EOF && FCGX_HasSeenEOF(r->in))
		FCGX_Detach(r); /* then FCGX_Free calls OS_IpcClose(fd, !detached): a plain close */
}

/* A new request id: 8 bytes of a ChaCha20 stream under a key drawn once per
 * process, at the next nonce: unpredictable and never repeated in the
 * process, without a system call per request. */
static void
request_id(char out[17])
{
	static unsigned char key[crypto_stream_chacha20_KEYBYTES];
	static uint64_t counter;
	unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = { 0 }, rid[8];

	if (counter++ == 0)
		randombytes_buf(key, sizeof key);
	memcpy(nonce, &counter, sizeof counter < sizeof nonce ? sizeof counter : sizeof nonce);
	crypto_stream_chacha20(rid, sizeof rid, nonce, key);
	sodium_bin2hex(out, 17, rid, sizeof rid);
}

/* The request r carries, into req: path (path[HTTP_MAX_PATH + 1]) and query,
 * method, the headers we read, a new request id, and the body (body[cap + 1]).
 * Whatever cannot be read faithfully sets req->refused. */
static void
read_request(FCGX_Request *r, struct http_req *req, char *path, char *body, size_t cap)
{
	const char *uri = FCGX_GetParam("REQUEST_URI", r->envp);
	const char *q;
	size_t plen;

	memset(req, 0, sizeof *req);
	if (uri == NULL)
		uri = "";
	q = strchr(uri, '?');
	plen = q ? (size_t)(q - uri) : strlen(uri);
	if (plen > HTTP_MAX_PATH || strlen(uri) > HTTP_MAX_URI) {
		req->refused = ERR_URI_TOO_LONG; /* never cut: another path would be answered */
		plen = 0;
	}
	memcpy(path, uri, plen);
	path[plen] = '\0';
	req->path = path;
	req->query = q ? q + 1 : "";
	req->method = FCGX_GetParam("REQUEST_METHOD", r->envp);
	if (req->method == NULL)
		req->method = "GET";
	req->authorization = header(r, "HTTP_AUTHORIZATION", HTTP_MAX_HEADER, req);
	req->remote_addr = FCGX_GetParam("REMOTE_ADDR", r->envp);
	req->origin = header(r, "HTTP_ORIGIN", HTTP_MAX_HEADER, req);
	req->host = header(r, "HTTP_HOST", HTTP_MAX_HEADER, req);
	req->content_type = header(r, "CONTENT_TYPE", HTTP_MAX_HEADER, req);
	req->protocol_version = header(r, "HTTP_MCP_PROTOCOL_VERSION", HTTP_MAX_HEADER, req);
	request_id(req->request_id);
	req->body_len = read_body(r, body, cap, req);
	body[req->body_len] = '\0';
	req->body = body;
}

void
fcgi_answer(struct app *app, FCGX_Request *r, char *body, size_t cap)
{
	struct http_req req;
	struct http_resp resp;
	char path[HTTP_MAX_PATH + 1];

	memset(&resp, 0, sizeof resp);
	read_request(r, &req, path, body, cap);
	http_handle(app, &req, &resp);
	write_response(r, &resp);
	close_at_once(r, &req);
	/* Request bodies may hold credentials: wipe before the next request. */
	sodium_memzero(body, req.body_len);
	http_resp_free(&resp);
	FCGX_Finish_r(r);
}

int
fcgi_serve(struct app *app, const char *listen)
{
	FCGX_Request r;
	size_t cap = (size_t)app->cfg->max_body;
	char *body = xmalloc(cap + 1);
	int fd = 0;

	if (FCGX_Init() != 0) {
		log_error("FCGX_Init failed");
		free(body);
		return 1;
	}
	if (listen != NULL && (fd = FCGX_OpenSocket(listen, 128)) < 0) {
		log_error("cannot listen on %s", listen);
		free(body);
		return 1;
	}
	install_signals();
	FCGX_InitRequest(&r, fd, 0);
	while (!stopping && FCGX_Accept_r(&r) >= 0)
		fcgi_answer(app, &r, body, cap);
	FCGX_Free(&r, 1);
	free(body);
	return 0;
}
