#!/usr/bin/env python3
"""fakeprov: one local HTTP server that fakes the nine source providers.

The first path segment names the provider (providers.md section 12 ids); the
rest is that provider's real path, answered in its real wire format (shapes,
pagination, quirks, bad-key answers and rate-limit headers as described in
/work/shared/providers.md sections 1-9).  A control API under /_control/
defines accounts, queues faults and exposes a request log.  Items are
generated lazily from their index, so an account of 100000 monitors costs
nothing until a page of it is asked for.

Python 3 standard library only.  See README.md next to this file.

    python3 tests/fakes/fakeprov.py --port 0 --port-file /tmp/port [--demo]
"""

import argparse
import base64
import gzip
import hashlib
import json
import os
import re
import signal
import socket
import struct
import sys
import threading
import time
import traceback
import uuid
from collections import deque
from email.utils import formatdate
from html import escape as html_escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakecore import *  # noqa: E402,F401,F403
from prov_uptimerobot import UptimeRobot  # noqa: E402
from prov_pingdom import Pingdom  # noqa: E402
from prov_statuscake import StatusCake  # noqa: E402
from prov_better_stack import BetterStack  # noqa: E402
from prov_updown import Updown  # noqa: E402
from prov_healthchecks import Healthchecks  # noqa: E402
from prov_cronitor import Cronitor  # noqa: E402
from prov_statuspage import Statuspage  # noqa: E402
from prov_whmcs import Whmcs  # noqa: E402

PROVIDERS = {p.id: p for p in (UptimeRobot(), Pingdom(), StatusCake(), BetterStack(), Updown(),
                               Healthchecks(), Cronitor(), Statuspage(), Whmcs())}


# --------------------------------------------------------------------------------------------
# Shared state: accounts, faults, rate counters, request log

FAULT_KINDS = {"429", "420", "500", "502", "503", "504", "slow", "truncated", "bad_json", "bad_key",
               "empty", "reset", "echo", "endless", "bad_utf8"}

# Bytes that are not UTF-8: a lone continuation byte, a truncated 3-byte
# sequence, an overlong '/', a UTF-16 surrogate and the bytes UTF-8 never uses.
BAD_UTF8 = b"\x80 caf\xe9 \xe2\x82 \xc0\xaf \xed\xa0\x80 \xff\xfe"


def bad_utf8_reply(fault):
    """A hostile answer, not a provider's published shape (no provider's
    reference shows one): bytes that are not UTF-8 where a client may copy
    text into a message. "where" says where they are:
      body          200 application/json, inside a JSON string (so it is not JSON)
      error_body    the fault's "status" (default 400), text/plain, the bytes as the body
      retry_after   429 whose Retry-After header holds them
      content_type  the fault's "status" (default 500), a Content-Type holding them
      location      302 to https://<them>.example/ (a host name of those bytes)"""
    where = fault.get("where", "body")
    # http.server writes header values as Latin-1: each byte below goes out as itself
    raw = BAD_UTF8.decode("latin-1")
    if where == "body":
        return Reply(200, body=b'{"stat":"ok","error":{"message":"' + BAD_UTF8 + b'"}}')
    if where == "error_body":
        return Reply(to_int(fault.get("status")) or 400, body=b"Bad request: " + BAD_UTF8, ctype="text/plain")
    if where == "retry_after":
        return Reply(429, obj={"error": "slow down"}, headers=[("Retry-After", "1" + raw)])
    if where == "content_type":
        return Reply(to_int(fault.get("status")) or 500, body=b"<html>oops</html>", ctype="text/html; charset=" + raw)
    if where == "location":
        return Reply(302, body=b"", headers=[("Location", "https://" + raw.replace(" ", "") + ".example/")])
    raise ValueError("unknown where %r" % where)


def echo_reply(acct, fault):
    """A hostile answer that repeats a credential in the forms a server might
    (docs/security.md): the fault's "body" with {secret}, {pct} (lower-case
    %xx of every byte), {pct2} (that, percent-encoded again), {b64} (base64 of
    "user:<secret>"), {b64_tail} (the last 12 characters of the secret's own
    base64), {json} (every byte as \\u00xx), {json_pct} (that, percent-encoded),
    {html} (HTML-escaped as PHP's htmlspecialchars does), {html_dec} and
    {html_hex} (every character as a decimal or hex reference), {upper} (upper
    case), {split} (a space in the middle) and {tail} (its last 13 characters)
    filled in from the account's credential "field"."""
    secret = (acct.credentials if acct else {}).get(fault.get("field", "api_key"), "")
    pct = "".join("%%%02x" % b for b in secret.encode())
    json_esc = "".join("\\u%04x" % ord(c) for c in secret)
    forms = {
        "secret": secret,
        "pct": pct,
        "pct2": pct.replace("%", "%25"),
        "b64": base64.b64encode(("user:" + secret).encode()).decode(),
        "b64_tail": base64.b64encode(secret.encode()).decode().rstrip("=")[-12:],
        "json": json_esc,
        "json_pct": "".join("%%%02X" % b for b in json_esc.encode()),
        "html": html_escape(secret, quote=True),
        "html_dec": "".join("&#%d;" % ord(c) for c in secret),
        "html_hex": "".join("&#x%x;" % ord(c) for c in secret),
        "upper": secret.upper(),
        "split": secret[:len(secret) // 2] + " " + secret[len(secret) // 2:],
        "tail": secret[-13:],
    }
    body = fault.get("body", "{secret}")
    for k, v in forms.items():
        body = body.replace("{" + k + "}", v)
    return Reply(to_int(fault.get("status")) or 200, body=body.encode("utf-8"),
                 ctype=fault.get("content_type", "application/json"))


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.accounts = {}
        self.faults = {pid: [] for pid in PROVIDERS}
        self.log = deque(maxlen=LOG_MAX)
        self.rate = {}
        self.recent = {}        # pid -> arrival times in the rolling window (option rolling_window)

    def reset(self):
        with self.lock:
            self.accounts.clear()
            for v in self.faults.values():
                v.clear()
            self.log.clear()
            self.rate.clear()
            self.recent.clear()

    def load_demo(self, only=None):
        for pid, prov in PROVIDERS.items():
            if only and pid != only:
                continue
            self.set_account(pid, {"credentials": prov.demo_credentials(), "seed": 1, "paused_every": 5,
                                   "name_prefix": "Demo"})

    def set_account(self, pid, spec):
        acct = Account(PROVIDERS[pid], spec)
        with self.lock:
            self.accounts[pid] = acct
            self.rate.pop(pid, None)
            self.recent.pop(pid, None)
        return acct

    def mutate(self, pid, spec):
        with self.lock:
            old = self.accounts.get(pid)
        if old is None:
            raise KeyError(pid)
        acct = Account(PROVIDERS[pid], spec, old)
        with self.lock:
            self.accounts[pid] = acct
        return acct

    def account(self, pid):
        with self.lock:
            return self.accounts.get(pid)

    def add_faults(self, pid, faults, replace=False):
        clean = []
        for f in faults:
            if not isinstance(f, dict) or "kind" not in f:
                raise ValueError("each fault needs a kind")
            kind = str(f["kind"])
            if kind not in FAULT_KINDS and not re.fullmatch(r"[45]\d\d", kind):
                raise ValueError("unknown fault kind %r" % kind)
            g = dict(f)
            g["kind"] = kind
            times = to_int(g.get("times", 1))
            if times is None:
                raise ValueError("times must be an integer")
            g["times"] = times
            g["after"] = max(0, to_int(g.get("after", 0)) or 0)
            for key in ("retry_after", "seconds"):
                if key in g and g[key] is not None and not isinstance(g[key], (int, float)):
                    raise ValueError(key + " must be a number")
            clean.append(g)
        with self.lock:
            if replace:
                self.faults[pid].clear()
            self.faults[pid].extend(clean)
            return list(self.faults[pid])

    def take_fault(self, pid, req):
        text = req.match_text()
        action = PROVIDERS[pid].match_action(req) if hasattr(PROVIDERS[pid], "match_action") else ""
        with self.lock:
            queue = self.faults[pid]
            for f in list(queue):
                m = f.get("match")
                if m:
                    if action and m.lower() == action.lower():
                        pass
                    elif action and m.lower() in PROVIDERS[pid].routes():
                        continue        # an action name matches only that action
                    elif m not in text:
                        continue
                if f["after"] > 0:
                    f["after"] -= 1
                    continue
                if f["times"] > 0:
                    f["times"] -= 1
                    if f["times"] == 0:
                        queue.remove(f)
                return dict(f)
        return None

    def tick(self, pid, acct):
        """Count one request; returns the rate-limit view for headers and enforcement."""
        prov = PROVIDERS[pid]
        opts = acct.options if acct else {}
        limit = opts.get("rate_limit") or prov.rl_default
        window = opts.get("rate_window") or 60
        now = time.time()
        with self.lock:
            r = self.rate.get(pid)
            if r is None or now >= r[0] + window:
                r = [now if r is None else r[0] + window * int((now - r[0]) // window), 0, r[2] if r else 0]
                self.rate[pid] = r
            r[1] += 1
            r[2] += 1
            used, start, total = r[1], r[0], r[2]
        reset_in = max(1, int(start + window - now + 0.999))
        return {"limit": limit, "remaining": max(0, limit - used), "reset_in": reset_in,
                "reset_epoch": int(start + window), "window": window, "total": total,
                "exceeded": bool(opts.get("rate_limit")) and used > limit}

    def rolling(self, pid, acct, now):
        """The rolling window of option rolling_window (W seconds; the provider's rolling_default when
        unset, 0 = none): at most W requests in any W seconds, i.e. one a second on average, as
        Statuspage measures it.  Returns the seconds until a request may come (> 0: this one is
        refused and not counted), or 0 after counting it.  ROLLING_SLACK forgives the clocks of two
        processes a few milliseconds."""
        opts = acct.options if acct else {}
        window = opts.get("rolling_window")
        if window is None:
            window = PROVIDERS[pid].rolling_default
        if not window:
            return 0
        with self.lock:
            q = self.recent.setdefault(pid, deque())
            while q and q[0] <= now - window + ROLLING_SLACK:
                q.popleft()
            if len(q) >= window:
                return q[0] + window - ROLLING_SLACK - now
            q.append(now)
            return 0

    def record(self, entry):
        with self.lock:
            self.log.append(entry)

    def requests(self, pid=None, since=None):
        with self.lock:
            out = list(self.log)
        return [e for e in out if (pid is None or e["provider"] == pid) and (since is None or e["ts"] > since)]


def summary(pid, acct):
    prov = PROVIDERS[pid]
    ids = {}
    for kind in prov.kinds:
        n = acct.n(kind)
        ids[kind] = {"first": [prov.ext_id(acct, kind, i) for i in range(min(5, n))],
                     "last": prov.ext_id(acct, kind, n - 1) if n else None}
    out = {"provider": pid, "base_path": "/" + pid, "credential_fields": sorted(acct.credentials),
           "counts": dict(acct.counts), "seed": acct.seed, "paused_every": acct.paused_every,
           "name_prefix": acct.name_prefix, "rename_prefix": acct.rename_prefix,
           "rename_every": acct.rename_every, "version": acct.version, "options": acct.options, "ids": ids}
    if acct.ignored:
        out["ignored_counts"] = acct.ignored
    out.update(prov.summary_extra(acct))
    return out


# --------------------------------------------------------------------------------------------
# HTTP layer

RESET = object()


ROLLING_SLACK = 0.01


def retry_header(fault, default=1):
    if fault.get("no_retry_after"):
        return None
    ra = fault.get("retry_after", default)
    if ra is None:
        return None
    if fault.get("retry_after_date"):
        return formatdate(time.time() + float(ra), usegmt=True)
    return str(int(ra))


def html(status, text):
    body = ("<html>\r\n<head><title>%d %s</title></head>\r\n<body>\r\n<center><h1>%d %s</h1></center>\r\n"
            "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n" % (status, text, status, text)).encode()
    return Reply(status, body=body, ctype="text/html")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY: the headers and the body go out as two writes; with Nagle the body's last
    # segment waited for the client's delayed ACK (40 ms a page), which made big accounts slow.
    disable_nagle_algorithm = True
    server_version = "fakeprov/1.0"
    sys_version = ""

    def version_string(self):
        return self.server_version

    # The default logging prints the request line, query and all; we log our own redacted line.
    def log_message(self, fmt, *args):
        pass

    def log_request(self, code="-", size="-"):
        pass

    def do_GET(self):
        self.dispatch()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

    @property
    def state(self):
        return self.server.state

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks, size = [], 0
            while True:
                line = self.rfile.readline(100)
                n = int(line.split(b";")[0].strip() or b"0", 16)
                if n == 0:
                    while self.rfile.readline(1000) not in (b"\r\n", b"\n", b""):
                        pass
                    break
                size += n
                if size > MAX_BODY:
                    raise ValueError("body too large")
                chunks.append(self.rfile.read(n))
                self.rfile.readline(10)
            return b"".join(chunks)
        n = to_int(self.headers.get("Content-Length"), 0)
        if n is None or n < 0 or n > MAX_BODY:
            raise ValueError("bad Content-Length")
        return self.rfile.read(n) if n else b""

    def dispatch(self):
        t0 = time.time()
        split = urlsplit(self.path)
        path = split.path
        try:
            body = self.read_body()
        except Exception:
            self.close_connection = True
            self.send(Reply(400, obj={"error": "bad request body"}))
            self.stderr_line(path, 400)
            return
        try:
            if path.startswith("/_control/") or path == "/_control":
                reply = self.control(path, split.query, body)
                self.send(reply)
                self.stderr_line(path, reply.status)
                return
            self.provider_request(path, split.query, body, t0)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception:
            traceback.print_exc(file=sys.stderr)
            try:
                self.send(Reply(500, obj={"error": "fakeprov internal error"}))
            except OSError:
                pass
            self.stderr_line(path, 500)

    def stderr_line(self, path, status, extra=""):
        # Path only, never the query string or any header: keys must not reach the log.
        sys.stderr.write("fakeprov: %s %s %s%s\n" % (self.command, path, status, extra))
        sys.stderr.flush()

    def build_req(self, path, query, body, pid):
        q = parse_qs(query, keep_blank_values=True)
        form, jbody = {}, None
        ctype = self.headers.get("Content-Type", "").lower()
        if body:
            if "json" in ctype:
                try:
                    jbody = json.loads(body.decode("utf-8"))
                except Exception:
                    jbody = None
                if isinstance(jbody, dict):
                    for k, v in jbody.items():
                        if isinstance(v, (str, int, float)) and not isinstance(v, bool):
                            form[k] = [str(v)]
                        elif isinstance(v, bool):
                            form[k] = ["1" if v else "0"]
            else:
                form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
        host = self.headers.get("Host") or "127.0.0.1:%d" % self.server.server_address[1]
        rel = path[len(pid) + 1:] or "/"
        return Req(self.command, path, rel, q, form, jbody, self.headers, host)

    def provider_request(self, path, query, body, t0):
        parts = path.split("/", 2)
        pid = parts[1] if len(parts) > 1 else ""
        prov = PROVIDERS.get(pid)
        if prov is None:
            self.send(jreply(404, {"error": "unknown provider %r; known: %s" % (pid, ", ".join(PROVIDERS))}))
            self.stderr_line(path, 404)
            return
        req = self.build_req(path, query, body, pid)
        acct = self.state.account(pid)
        fault = self.state.take_fault(pid, req)
        rl = self.state.tick(pid, acct)
        wait = 0 if fault else self.state.rolling(pid, acct, t0)
        kind = fault["kind"] if fault else None
        reply = None
        if fault:
            reply = self.apply_fault(prov, req, acct, fault, rl)
        elif rl["exceeded"]:
            reply = prov.rate_limited(req, prov.rate_limit_status(acct), str(rl["reset_in"]), rl["reset_in"])
            kind = "rate_limit"
        elif wait > 0:
            secs = max(1, int(wait + 0.999))
            reply = prov.rate_limited(req, prov.rate_limit_status(acct), str(secs), secs)
            kind = "rate_limit"
        else:
            reply = prov.handle(req, acct)
            reply.gzip_ok = prov.gzip_ok
        entry = {"provider": pid, "method": self.command, "path": path, "query": req.safe_query(),
                 "params": req.safe_form(), "status": 0 if reply is RESET else reply.status,
                 "fault": kind, "ts": round(t0, 6)}
        if pid == "whmcs":
            entry["action"] = req.f("action")
        self.state.record(entry)
        if reply is RESET:
            self.stderr_line(path, "reset", " fault=reset")
            self.hard_close()
            return
        if kind not in ("reset", "bad_json", "empty", "truncated") and reply.status < 500 and \
                not (fault and fault.get("no_limit_headers")):
            for k, v in prov.limit_headers(rl):
                if not reply.has_header(k):
                    reply.headers.append((k, v))
        self.stderr_line(path, reply.status, " fault=%s" % kind if kind else "")
        self.send(reply)

    def apply_fault(self, prov, req, acct, fault, rl):
        kind = fault["kind"]
        if kind in ("429", "420"):
            status = to_int(fault.get("status")) or (420 if kind == "420" else prov.rate_limit_status(acct))
            # The provider's own headers say when the window resets, with or without Retry-After.
            ra = fault.get("retry_after", 1)
            reset_in = max(0, int(ra + 0.999)) if isinstance(ra, (int, float)) else 1
            r = prov.rate_limited(req, status, retry_header(fault), reset_in)
            if fault.get("no_limit_headers"):
                r.headers = [h for h in r.headers if h[0].lower() == "retry-after"]
            return r
        if kind == "500":
            return prov.server_error(req, 500)
        if kind in ("502", "503", "504"):
            r = html(int(kind), {"502": "Bad Gateway", "503": "Service Temporarily Unavailable",
                                 "504": "Gateway Time-out"}[kind])
            if "retry_after" in fault:
                hdr = retry_header(fault)
                if hdr is not None:
                    r.headers.append(("Retry-After", hdr))
            return r
        if kind == "reset":
            return RESET
        if kind == "echo":
            return echo_reply(acct, fault)
        if kind == "bad_utf8":
            return bad_utf8_reply(fault)
        if kind == "bad_key":
            return prov.bad_key(req)
        if kind == "endless":
            return prov.endless(req, acct)
        if kind == "empty":
            return Reply(200, body=b"")
        if kind == "bad_json":
            return Reply(200, body=b"<html><body>Maintenance</body></html>\n{\"stat\": ok,, ]]\xff\xfe")
        if kind == "slow":
            time.sleep(float(fault.get("seconds", 5)))
            r = prov.handle(req, acct)
            r.gzip_ok = prov.gzip_ok
            return r
        if kind == "truncated":
            r = prov.handle(req, acct)
            full = r.body
            r.body = full[:max(1, len(full) // 2)]
            if fault.get("short_body"):
                r.declared_len = len(full)
                r.close = True
            return r
        # any other 4xx/5xx status: the provider's own error shape where it has one
        code = int(kind)
        return prov.server_error(req, code) if code >= 500 else jreply(code, {"error": "fault %d" % code})

    def hard_close(self):
        """Close the connection without answering: RST (SO_LINGER 0)."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        except OSError:
            pass

    def send(self, reply):
        body = reply.body
        headers = list(reply.headers)
        if reply.gzip_ok and len(body) > 256 and "gzip" in self.headers.get("Accept-Encoding", "").lower():
            body = gzip.compress(body, 5)
            headers += [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")]
        reason = reply.reason or ("Enhance Your Calm" if reply.status == 420 else None)
        self.send_response(reply.status, reason)
        self.send_header("Content-Type", reply.ctype)
        self.send_header("Content-Length", str(reply.declared_len if reply.declared_len is not None else len(body)))
        for k, v in headers:
            self.send_header(k, v)
        if reply.close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    # -- control API
    def control(self, path, query, body):
        st = self.state
        q = parse_qs(query)
        method = self.command
        seg = [s for s in path.split("/") if s][1:]

        def jbody():
            if not body:
                return {}
            try:
                v = json.loads(body.decode("utf-8"))
            except Exception:
                raise ValueError("body is not valid JSON")
            if not isinstance(v, dict):
                raise ValueError("body must be a JSON object")
            return v

        try:
            if seg == ["health"]:
                return jreply(200, {"ok": True})
            if seg == ["providers"]:
                return jreply(200, {pid: {"kinds": p.kinds, "aliases": p.aliases, "required": list(p.required),
                                          "optional": list(p.optional)} for pid, p in PROVIDERS.items()})
            if seg == ["reset"] and method == "POST":
                st.reset()
                if jbody().get("demo"):
                    st.load_demo()
                return jreply(200, {"ok": True})
            if seg == ["demo"] and method == "POST":
                only = (q.get("provider") or [None])[0]
                if only and only not in PROVIDERS:
                    return jreply(404, {"error": "unknown provider"})
                st.load_demo(only)
                return jreply(200, {pid: summary(pid, st.account(pid)) for pid in PROVIDERS
                                    if st.account(pid) and (not only or pid == only)})
            if seg and seg[0] == "requests":
                if method == "DELETE" or seg[1:] == ["clear"]:
                    with st.lock:
                        st.log.clear()
                    return jreply(200, {"ok": True})
                pid = (q.get("provider") or [None])[0]
                since = (q.get("since") or [None])[0]
                return jreply(200, st.requests(pid, float(since) if since else None))
            if len(seg) == 2 and seg[0] in PROVIDERS:
                pid, what = seg
                if what == "account":
                    if method == "POST":
                        acct = st.set_account(pid, jbody())
                        return jreply(200, summary(pid, acct))
                    if method == "DELETE":
                        with st.lock:
                            st.accounts.pop(pid, None)
                        return jreply(200, {"ok": True})
                    acct = st.account(pid)
                    return jreply(200, summary(pid, acct)) if acct else jreply(404, {"error": "no account"})
                if what == "mutate" and method == "POST":
                    try:
                        acct = st.mutate(pid, jbody())
                    except KeyError:
                        return jreply(404, {"error": "no account defined for " + pid})
                    return jreply(200, summary(pid, acct))
                if what == "faults":
                    if method == "DELETE":
                        with st.lock:
                            st.faults[pid].clear()
                        return jreply(200, {"pending": []})
                    if method == "POST":
                        b = jbody()
                        faults = b.get("faults", [])
                        if not isinstance(faults, list):
                            raise ValueError("faults must be a list")
                        pending = st.add_faults(pid, faults, bool(b.get("replace") or b.get("clear")))
                        return jreply(200, {"queued": len(faults), "pending": pending})
                    with st.lock:
                        return jreply(200, {"pending": list(st.faults[pid])})
            return jreply(404, {"error": "unknown control endpoint"})
        except ValueError as e:
            return jreply(400, {"error": str(e)})


class FakeServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, addr, state):
        super().__init__(addr, Handler)
        self.state = state

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, BrokenPipeError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Fake provider server for migrator tests")
    ap.add_argument("--port", type=int, required=True, help="TCP port on 127.0.0.1 (0 = pick a free one)")
    ap.add_argument("--port-file", help="write the chosen port here once listening")
    ap.add_argument("--demo", action="store_true", help="preload every provider with a small demo account")
    args = ap.parse_args(argv)

    state = State()
    if args.demo:
        state.load_demo()
    srv = FakeServer(("127.0.0.1", args.port), state)
    port = srv.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as fh:
            fh.write("%d\n" % port)
        os.replace(tmp, args.port_file)
    sys.stderr.write("fakeprov: listening on http://127.0.0.1:%d%s\n" % (port, " (demo accounts)" if args.demo else ""))
    sys.stderr.flush()

    def stop(signum, frame):
        threading.Thread(target=srv.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        srv.serve_forever(poll_interval=0.2)
    finally:
        srv.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
