/* libFuzzer target: FastCGI request reading and answer writing
 * (src/http/fcgi.c, fcgi_answer) as a web server meets them: the request is
 * written to a connection of the process's listening socket, libfcgi accepts
 * it, and one request is driven through (http_handle replaced at link time by
 * a fake that checks what it is given and answers from the input).
 *
 * Input: a first byte (odd: stdin is any records, see hostile()), then the
 * choices of the request the harness builds: a request id, FCGI_KEEP_CONN
 * or not, a management record (FCGI_GET_VALUES) first or not, the CGI
 * variables (method, URI up to and past 1024 and 8192 bytes, the headers
 * fcgi.c reads up to and past 4096 bytes, CONTENT_LENGTH exact, short, long,
 * absent or malformed, other variables), the body (up to and past the cap of
 * 4096 bytes), all split into records of chosen sizes with chosen padding,
 * the end of stdin sent or not; then the fake's answer. Checks:
 * - libfcgi takes the request, and the one fcgi.c hands on is the one sent:
 *   method, path and query (414 when too long, never cut), the headers (431
 *   when one is too long), the body byte for byte, body_too_large past the
 *   cap, 400 for a Content-Length that is malformed or more than the body
 *   (with any stdin: a 400 or the same, and a body within the cap);
 * - the answer is well-formed FastCGI: records of version 1 for this request
 *   (or a management answer, or libfcgi's refusal of another request on the
 *   connection), stdout closed by an empty record, then FCGI_END_REQUEST
 *   (complete, status 0), nothing else; stdout holds the Status line, the
 *   headers, Content-Length and the body the fake gave, byte for byte; the
 *   connection ends unless the server asked to keep it;
 * - no crash, leak or hang. */
// fuzz-ldflags: -Wl,--wrap=http_handle
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "core/util.h"
#include "http/fcgi.h"
#include "http/http.h"
#include "fuzz.h"

#define CAP      4096 /* [limits] max_body of this target */
#define MAX_SEND (256 << 10)

enum { BEGIN = 1, END = 3, PARAMS = 4, STDIN = 5, STDOUT = 6, GET_VALUES = 9, GET_VALUES_RESULT = 10 };

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void __wrap_http_handle(struct app *, struct http_req *, struct http_resp *);

static struct sockaddr_un where;
static socklen_t where_len;
static FCGX_Request request;
static struct app app; /* handed to the fake http_handle, which needs none of it */

/* The request the harness sent, as fcgi.c must hand it on. */
static struct {
	bool handled, keep;
	bool hostile; /* stdin is any records: what fcgi.c reads of it is not known */
	char method[16];
	char *uri;
	/* Authorization, Origin, Host, Content-Type, MCP-Protocol-Version; NULL: absent */
	const char *hdr[5];
	char *body;
	size_t body_len;
	bool too_large, uri_too_long;
	enum err_code refused;
} want;

/* The answer the fake gives. */
static struct {
	struct fz in;
	int status;
	struct http_header headers[HTTP_MAX_HEADERS];
	int nheaders;
	char *body; /* NULL: none */
	size_t body_len;
} gave;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	if (FCGX_Init() != 0 || fd < 0)
		abort();
	/* an abstract address: nothing in the file system */
	where.sun_family = AF_UNIX;
	snprintf(where.sun_path + 1, sizeof where.sun_path - 1, "migrator-fuzz-fcgi-%ld", (long)getpid());
	where_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(where.sun_path + 1));
	/* non-blocking: were libfcgi to give up on the connection and accept
	 * another, there is none, and FCGX_Accept_r returns (and the check says
	 * so) instead of waiting for ever */
	if (bind(fd, (struct sockaddr *)&where, where_len) != 0 || listen(fd, 8) != 0 ||
	    fcntl(fd, F_SETFL, O_NONBLOCK) != 0)
		abort();
	FCGX_InitRequest(&request, fd, 0);
	return 0;
}

/* ---- the request: records built from the input ---- */

struct out {
	uint8_t *p;
	size_t n, cap;
};

static void
put(struct out *o, const void *b, size_t n)
{
	if (n == 0)
		return;
	if (o->n + n > o->cap) {
		o->cap = (o->n + n) * 2;
		o->p = realloc(o->p, o->cap);
	}
	memcpy(o->p + o->n, b, n);
	o->n += n;
}

static void
record(struct out *o, int type, int id, const uint8_t *content, size_t n, size_t pad)
{
	uint8_t h[8] = { 1, (uint8_t)type, (uint8_t)(id >> 8), (uint8_t)id, (uint8_t)(n >> 8), (uint8_t)n,
		(uint8_t)pad, 0 };
	static const uint8_t zeros[256];

	put(o, h, 8);
	put(o, content, n);
	put(o, zeros, pad);
}

/* A stream (params or stdin): its bytes in records of chosen sizes, each
 * with chosen padding, then the empty record that ends it unless told not. */
static void
stream(struct fz *f, struct out *o, int type, int id, const uint8_t *b, size_t n, bool end)
{
	for (size_t at = 0; at < n;) {
		uint8_t c = fz_byte(f), p = fz_byte(f);
		size_t len = c == 0 ? 65535 : (size_t)c * 61 % 8192 + 1;

		if (len > n - at)
			len = n - at;
		record(o, type, id, b + at, len, p % 4 == 0 ? p : 0);
		at += len;
	}
	if (end)
		record(o, type, id, NULL, 0, 0);
}

/* A name-value pair: each length in one byte below 128, else in four. */
static void
pair(struct out *o, const char *name, const char *value)
{
	size_t lens[2] = { strlen(name), strlen(value) };

	for (int i = 0; i < 2; i++) {
		uint8_t four[4] = { (uint8_t)(lens[i] >> 24 | 0x80), (uint8_t)(lens[i] >> 16),
			(uint8_t)(lens[i] >> 8), (uint8_t)lens[i] };
		if (lens[i] < 128)
			put(o, &four[3], 1);
		else
			put(o, four, 4);
	}
	put(o, name, lens[0]);
	put(o, value, lens[1]);
}

/* A value of the input's bytes (a NUL would end it: libfcgi keeps C
 * strings), of a chosen length class: short, or about 1024, 4096 or 8192
 * bytes (a limit of fcgi.c), a pattern repeated. */
static char *
value(struct fz *f)
{
	static const size_t around[] = { 1020, 4092, 8188 };
	uint8_t how = fz_byte(f);
	const uint8_t *src;
	size_t n, plen;
	char *s;

	if (how < 0xf0) {
		n = fz_take(f, how % 64, &src);
		s = malloc(n + 1);
		memcpy(s, src, n);
	} else {
		plen = fz_take(f, 4, &src);
		n = around[how % 3] + fz_byte(f) % 9;
		s = malloc(n + 1);
		for (size_t i = 0; i < n; i++)
			s[i] = plen ? (char)src[i % plen] : 'a';
	}
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\0')
			s[i] = 'x';
	s[n] = '\0';
	return s;
}

/* Records after the params, as the input gives them, instead of a
 * well-formed stdin: a byte whose low nibble is the type and whose top bit
 * makes the version 2 instead of 1, a byte for the request id (0: the
 * request's), the content length (two bytes), the padding length, then as
 * much of the content as the input still has (the last record may be cut
 * short). The params before them are always well-formed: libfcgi reads them
 * alone, before fcgi.c sees anything, and breaks by itself on hostile ones
 * (in the fuzzing report; not fcgi.c's to fix, and only a web server sends
 * them): it allocates a name-value pair whole before reading it (2 GB from a
 * four-byte length), does not skip the padding of the record that ends a
 * stream or of FCGI_BEGIN_REQUEST, and after a header it refuses takes the
 * params as ended and reads the next header out of that record's content;
 * a management record (request id 0) read so leaks 48 bytes (fixed after
 * 2.4.2, fcgi2 commit 5d51317), and an FCGI_GET_VALUES naming more than three
 * variables overflows libfcgi's 64-byte answer on the stack (still so in
 * 2.4.7). Once stdin has begun, libfcgi ends it at the first fault. */
static void
hostile(struct fz *f, struct out *o, int id)
{
	static const uint8_t zeros[256];

	while (f->n > 0 && o->n < MAX_SEND) {
		uint8_t t = fz_byte(f), which = fz_byte(f), pad;
		size_t len = (size_t)fz_bits(f, 2), got;
		const uint8_t *content;
		uint8_t h[8];
		int rid = which != 0 ? which : id;

		len = (len & 0xff) << 8 | len >> 8; /* as the header has it: high byte first */
		pad = fz_byte(f);
		got = fz_take(f, len, &content);
		h[0] = t & 0x80 ? 2 : 1;
		h[1] = t & 0x0f;
		h[2] = (uint8_t)(rid >> 8);
		h[3] = (uint8_t)rid;
		h[4] = (uint8_t)(len >> 8);
		h[5] = (uint8_t)len;
		h[6] = pad;
		h[7] = 0;
		put(o, h, 8);
		put(o, content, got);
		if (got == len)
			put(o, zeros, pad);
	}
}

/* The request the input chooses, as records in o (after the params, any
 * records when hostile); want says what fcgi.c must make of it. Returns the
 * request id. */
static int
build(struct fz *f, struct out *o, bool any_stdin)
{
	static const char *const methods[] = { "GET", "POST", "DELETE", NULL };
	static const char *const names[] = { "HTTP_AUTHORIZATION", "HTTP_ORIGIN", "HTTP_HOST", "CONTENT_TYPE",
		"HTTP_MCP_PROTOCOL_VERSION" };
	int id = 1 + (int)(fz_bits(f, 2) % 65535);
	uint8_t flags = fz_byte(f), cl = fz_byte(f);
	struct out params = { 0 };
	uint8_t begin[8] = { 0, 1, (uint8_t)(flags & 1), 0, 0, 0, 0, 0 }; /* responder, FCGI_KEEP_CONN */
	const uint8_t *src;
	char length[32], *q;
	size_t n, plen, sent;

	memset(&want, 0, sizeof want);
	want.hostile = any_stdin;
	want.keep = flags & 1;
	if (flags & 2) { /* a management record first: libfcgi answers it on the same connection */
		struct out v = { 0 };
		pair(&v, "FCGI_MAX_CONNS", "");
		pair(&v, "FCGI_MPXS_CONNS", "");
		record(o, GET_VALUES, 0, v.p, v.n, 0);
		free(v.p);
	}
	record(o, BEGIN, id, begin, 8, 0);
	if (methods[flags >> 4 & 3] != NULL) {
		snprintf(want.method, sizeof want.method, "%s", methods[flags >> 4 & 3]);
		pair(&params, "REQUEST_METHOD", want.method);
	} else
		snprintf(want.method, sizeof want.method, "GET");
	want.uri = value(f);
	pair(&params, "REQUEST_URI", want.uri);
	for (int i = 0; i < 5; i++)
		if (fz_byte(f) & 1) {
			char *v = value(f);
			pair(&params, names[i], v);
			want.hdr[i] = v;
		}
	pair(&params, "REMOTE_ADDR", "192.0.2.9");
	pair(&params, "SERVER_SOFTWARE", "fuzz"); /* one fcgi.c does not read */
	/* the body (the input's bytes, then 'b's), and the Content-Length sent with it */
	n = (size_t)fz_bits(f, 2) % (2 * CAP + 64);
	plen = fz_take(f, n, &src);
	want.body = malloc(n + 1);
	memcpy(want.body, src, plen);
	memset(want.body + plen, 'b', n - plen);
	switch (cl % 6) {
	case 0: /* exact (and absent for no body) */
		snprintf(length, sizeof length, "%zu", n);
		if (n > 0)
			pair(&params, "CONTENT_LENGTH", length);
		break;
	case 1: /* less than the body: the rest is left unread */
		snprintf(length, sizeof length, "%zu", n / 2);
		pair(&params, "CONTENT_LENGTH", length);
		break;
	case 2: /* more than the body */
		snprintf(length, sizeof length, "%zu", n + 1 + cl / 6);
		pair(&params, "CONTENT_LENGTH", length);
		break;
	case 3:
		snprintf(length, sizeof length, "%s",
		    (const char *[]){ "12x", "-1", " 5", "+5", "99999999999999999999", "0x10" }[cl / 6 % 6]);
		pair(&params, "CONTENT_LENGTH", length);
		break;
	case 4: /* absent */
		length[0] = '\0';
		break;
	default: /* empty */
		length[0] = '\0';
		pair(&params, "CONTENT_LENGTH", "");
	}
	stream(f, o, PARAMS, id, params.p, params.n, true);
	free(params.p);
	sent = n;
	if (want.hostile)
		hostile(f, o, id);
	else
		stream(f, o, STDIN, id, (const uint8_t *)want.body, n, !(flags & 8));

	/* what fcgi.c must make of it (read_request, read_body) */
	q = strchr(want.uri, '?');
	want.uri_too_long = (q ? (size_t)(q - want.uri) : strlen(want.uri)) > HTTP_MAX_PATH ||
	    strlen(want.uri) > HTTP_MAX_URI;
	if (want.uri_too_long)
		want.refused = ERR_URI_TOO_LONG;
	for (int i = 0; i < 5; i++)
		if (want.hdr[i] != NULL && strlen(want.hdr[i]) > HTTP_MAX_HEADER)
			want.refused = ERR_HEADERS_TOO_LARGE;
	if (length[0] != '\0') {
		int64_t l;
		if (parse_i64(length, 0, INT64_MAX, &l) != 0)
			want.refused = ERR_BAD_REQUEST;
		else if (l > CAP)
			want.too_large = true;
		else if ((size_t)l > sent && !want.hostile) /* what any stdin brings is not known */
			want.refused = ERR_BAD_REQUEST, want.body_len = sent;
		else
			want.body_len = (size_t)l;
	}
	return id;
}

/* ---- the fake behind fcgi.c ---- */

static void
check_req(const struct http_req *req)
{
	const char *got[5] = { req->authorization, req->origin, req->host, req->content_type,
		req->protocol_version };
	const char *q = strchr(want.uri, '?');
	size_t plen = q ? (size_t)(q - want.uri) : strlen(want.uri);

	FUZZ_CHECK(req->refused == want.refused ||
	        (want.hostile && want.body_len > 0 && req->refused == ERR_BAD_REQUEST),
	    "refused %d, want %d", req->refused, want.refused);
	FUZZ_CHECK(strcmp(req->method, want.method) == 0, "method %s, want %s", req->method, want.method);
	if (!want.uri_too_long) {
		FUZZ_CHECK(strlen(req->path) == plen && memcmp(req->path, want.uri, plen) == 0, "path %s",
		    req->path);
		FUZZ_CHECK(strcmp(req->query, q ? q + 1 : "") == 0, "query %s", req->query);
	} else
		FUZZ_CHECK(req->path[0] == '\0', "a path over the limit was handed on (cut?): %.40s",
		    req->path);
	for (int i = 0; i < 5; i++)
		FUZZ_CHECK((got[i] == NULL) == (want.hdr[i] == NULL) &&
		        (got[i] == NULL || strcmp(got[i], want.hdr[i]) == 0),
		    "header %d differs", i);
	FUZZ_CHECK(req->body_too_large == want.too_large, "body_too_large %d", req->body_too_large);
	FUZZ_CHECK(req->body_len <= CAP && req->body[req->body_len] == '\0', "a body of %zu bytes",
	    req->body_len);
	FUZZ_CHECK(want.hostile ||
	        (req->body_len == want.body_len && memcmp(req->body, want.body, want.body_len) == 0),
	    "the body differs (%zu bytes, want %zu)", req->body_len, want.body_len);
	FUZZ_CHECK(strlen(req->request_id) == 16, "request id %s", req->request_id);
}

void
__wrap_http_handle(struct app *a, struct http_req *req, struct http_resp *resp)
{
	static const int statuses[] = { 200, 201, 202, 204, 400, 404, 413, 414, 422, 431, 500, 503, 299 };
	static const char *const names[] = { "X-RateLimit-Limit", "Retry-After", "Allow", "Location",
		"WWW-Authenticate" };
	uint8_t b = fz_byte(&gave.in);
	size_t n;

	(void)a;
	check_req(req);
	want.handled = true;
	gave.status = statuses[b % 13];
	gave.nheaders = fz_byte(&gave.in) % (HTTP_MAX_HEADERS + 1);
	for (int i = 0; i < gave.nheaders; i++) {
		uint8_t v = fz_byte(&gave.in);
		snprintf(gave.headers[i].name, sizeof gave.headers[i].name, "%s", names[v % 5]);
		snprintf(gave.headers[i].value, sizeof gave.headers[i].value, "%0*d", v % 200, v);
		http_header(resp, gave.headers[i].name, "%s", gave.headers[i].value);
	}
	resp->status = gave.status;
	if (gave.status == 204 || (b & 0x80)) {
		gave.body = NULL;
		gave.body_len = 0;
		return;
	}
	/* small bodies mostly; some past fcgi.c's 16 KB (its own records) and one record's 64 KB */
	n = (size_t)fz_bits(&gave.in, 2);
	if (b & 0x40)
		n *= 2;
	gave.body_len = n;
	gave.body = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		gave.body[i] = (char)('a' + i % 26);
	gave.body[n] = '\0';
	resp->json = json_object_new_string_len(gave.body, (int)n);
	resp->body = json_object_get_string(resp->json);
	resp->body_len = n;
}

/* ---- the answer ---- */

/* The records the server wrote, read without waiting (all were written
 * before fcgi_answer returned). *eof: the server closed the connection; a
 * close that left some of the request unread reaches us as a reset (after
 * what it wrote), which is a close too. */
static size_t
drain(int fd, uint8_t **buf, bool *eof)
{
	size_t n = 0, cap = 1 << 16;
	ssize_t r;

	*buf = malloc(cap);
	*eof = false;
	for (;;) {
		if (n == cap)
			*buf = realloc(*buf, cap *= 2);
		r = recv(fd, *buf + n, cap - n, MSG_DONTWAIT);
		if (r > 0)
			n += (size_t)r;
		else if (r == 0) {
			*eof = true;
			break;
		} else if (errno != EINTR) {
			*eof = errno == ECONNRESET;
			break;
		}
	}
	return n;
}

static void
check_answer(const uint8_t *b, size_t n, int id, bool keep, bool eof)
{
	size_t at = 0, out_len = 0;
	char *out = malloc(n + 1), head[64];
	bool closed = false, ended = false;
	const char *body;

	while (at < n) {
		size_t clen, plen;

		FUZZ_CHECK(n - at >= 8, "a record header cut at %zu of %zu", at, n);
		FUZZ_CHECK(b[at] == 1, "a record of version %d", b[at]);
		FUZZ_CHECK(!ended, "a record after FCGI_END_REQUEST");
		clen = (size_t)b[at + 4] << 8 | b[at + 5];
		plen = b[at + 6];
		FUZZ_CHECK(n - at - 8 >= clen + plen, "a record cut");
		if (b[at + 1] == GET_VALUES_RESULT) {
			FUZZ_CHECK((b[at + 2] << 8 | b[at + 3]) == 0, "a management record for a request");
		} else if (want.hostile && b[at + 1] == END && clen == 8 && b[at + 12] == 1) {
			/* libfcgi's FCGI_CANT_MPX_CONN to another FCGI_BEGIN_REQUEST */
		} else {
			FUZZ_CHECK((b[at + 2] << 8 | b[at + 3]) == id, "a record for request %d, not %d",
			    b[at + 2] << 8 | b[at + 3], id);
			if (b[at + 1] == STDOUT) {
				FUZZ_CHECK(!closed, "stdout after its end");
				memcpy(out + out_len, b + at + 8, clen);
				out_len += clen;
				closed = clen == 0;
			} else {
				FUZZ_CHECK(b[at + 1] == END, "a record of type %d", b[at + 1]);
				FUZZ_CHECK(closed, "FCGI_END_REQUEST before stdout ended");
				FUZZ_CHECK(clen == 8 && memcmp(b + at + 8, "\0\0\0\0\0", 5) == 0,
				    "FCGI_END_REQUEST not complete with status 0");
				ended = true;
			}
		}
		at += 8 + clen + plen;
	}
	FUZZ_CHECK(ended, "no FCGI_END_REQUEST");
	FUZZ_CHECK(keep || eof, "the connection was kept without FCGI_KEEP_CONN");
	/* stdout: Status, the headers, Content-Length, the body */
	out[out_len] = '\0';
	snprintf(head, sizeof head, "Status: %d ", gave.status);
	FUZZ_CHECK(strncmp(out, head, strlen(head)) == 0, "stdout starts %.40s", out);
	body = strstr(out, "\r\n\r\n");
	FUZZ_CHECK(body != NULL, "no end of the headers");
	body += 4;
	FUZZ_CHECK((size_t)(out + out_len - body) == gave.body_len &&
	        memcmp(body, gave.body ? gave.body : "", gave.body_len) == 0,
	    "the body differs (%zu bytes, want %zu)", (size_t)(out + out_len - body), gave.body_len);
	snprintf(head, sizeof head, "\r\nContent-Length: %zu\r\n\r\n", gave.body_len);
	FUZZ_CHECK(strstr(out, head) == body - strlen(head), "Content-Length is not the body's");
	for (int i = 0; i < gave.nheaders; i++) {
		char line[300];
		snprintf(line, sizeof line, "\r\n%s: %s\r\n", gave.headers[i].name, gave.headers[i].value);
		FUZZ_CHECK(strstr(out, line) != NULL && strstr(out, line) < body, "header %s missing",
		    gave.headers[i].name);
	}
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data + (size > 0), size > 0 ? size - 1 : 0 };
	struct out sent = { 0 };
	static char body[CAP + 1];
	int c, id, accepted, buf = 1 << 20;
	uint8_t *got;
	size_t n;
	bool eof;

	memset(&gave, 0, sizeof gave);
	id = build(&f, &sent, size > 0 && (data[0] & 1));
	gave.in = f;
	if ((c = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
		abort();
	setsockopt(c, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
	if (connect(c, (struct sockaddr *)&where, where_len) != 0 ||
	    write(c, sent.p, sent.n) != (ssize_t)sent.n)
		abort();
	shutdown(c, SHUT_WR); /* all the server will get */
	accepted = FCGX_Accept_r(&request);
	FUZZ_CHECK(accepted >= 0, "libfcgi refused a well-formed request (%d)", accepted);
	fcgi_answer(&app, &request, body, CAP);
	n = drain(c, &got, &eof);
	FUZZ_CHECK(want.handled, "the request was not handed on");
	check_answer(got, n, id, want.keep, eof);
	close(c);
	if (request.ipcFd >= 0) /* kept open (FCGI_KEEP_CONN): the client has gone */
		FCGX_Free(&request, 1);
	free(got);
	free(sent.p);
	free(want.uri);
	free(want.body);
	for (int i = 0; i < 5; i++)
		free((char *)want.hdr[i]);
	free(gave.body);
	return 0;
}
