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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

BASE_TS = 1700000000            # 2023-11-14T22:13:20Z: every generated timestamp derives from it
MAX_COUNT = 10_000_000          # largest count accepted for one resource kind
MAX_BODY = 1 << 20              # largest request body read
LOG_MAX = 50_000                # request log entries kept
# Parameter names never written to the request log or stderr.
SECRET_PARAMS = {"api_key", "api-key", "apikey", "identifier", "secret", "accesskey", "access_key",
                 "username", "password", "token", "key", "api_token", "api_secret", "api_identifier"}

DEMO_KEY = "demo-key"
DEMO_HC_KEY = "demo-key-" + "0" * 23          # healthchecks keys are exactly 32 characters
assert len(DEMO_HC_KEY) == 32
DEMO_WHMCS = {"api_identifier": "demo-id", "api_secret": "demo-secret"}


# --------------------------------------------------------------------------------------------
# Small helpers

def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def h64(*parts):
    """Stable 64-bit hash of the parts (the basis of every generated id)."""
    data = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def b36(n):
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = B36[r] + out
        if n == 0:
            return out


def hid(length, *parts):
    """A hash-derived lowercase base36 id of the given length (length <= 12)."""
    return b36(h64(*parts) % (36 ** length)).rjust(length, "0")


def huuid(*parts):
    data = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return str(uuid.UUID(bytes=hashlib.blake2b(data, digest_size=16).digest(), version=4))


def tsfmt(ts, fmt="%Y-%m-%dT%H:%M:%SZ"):
    return time.strftime(fmt, time.gmtime(ts))


def iso_ms(ts):
    return tsfmt(ts, "%Y-%m-%dT%H:%M:%S") + ".000Z"


def day(ts):
    return tsfmt(ts, "%Y-%m-%d")


def to_int(value, default=None):
    """Strict whole-string integer parse; default when absent, None when malformed."""
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    s = str(value).strip()
    if re.fullmatch(r"[+-]?\d{1,18}", s):
        return int(s)
    return None


def truthy(value):
    return str(value).lower() in ("1", "true", "yes", "on")


# --------------------------------------------------------------------------------------------
# Replies and requests

class Reply:
    """One HTTP answer.  declared_len lets a fault announce more bytes than it sends."""

    def __init__(self, status=200, obj=None, body=None, headers=None,
                 ctype="application/json; charset=utf-8", reason=None):
        self.status = status
        self.body = dumps(obj) if obj is not None else (body or b"")
        self.headers = list(headers or [])
        self.ctype = ctype
        self.reason = reason
        self.declared_len = None
        self.close = False
        self.gzip_ok = False

    def has_header(self, name):
        name = name.lower()
        return any(k.lower() == name for k, _ in self.headers)


def jreply(status, obj, headers=None):
    return Reply(status, obj=obj, headers=headers)


class Req:
    """A parsed provider request.  rel is the path after /<provider>."""

    def __init__(self, method, raw_path, rel, query, form, jbody, headers, host):
        self.method = method
        self.raw_path = raw_path
        self.rel = rel
        self.query = query      # name -> [values]
        self.form = form        # name -> [values] (urlencoded or JSON body)
        self.json = jbody
        self.headers = headers
        self.host = host

    def q(self, name, default=None):
        v = self.query.get(name)
        return v[0] if v else default

    def f(self, name, default=None):
        v = self.form.get(name)
        return v[0] if v else default

    def p(self, name, default=None):
        """Body field first, then query."""
        v = self.form.get(name) or self.query.get(name)
        return v[0] if v else default

    def header(self, name, default=None):
        return self.headers.get(name, default)

    def safe_query(self):
        return {k: (v[0] if len(v) == 1 else v) for k, v in self.query.items()
                if k.lower() not in SECRET_PARAMS}

    def safe_form(self):
        return {k: (v[0] if len(v) == 1 else v) for k, v in self.form.items()
                if k.lower() not in SECRET_PARAMS}

    def match_text(self):
        parts = [self.raw_path]
        if self.query:
            parts.append("?" + urlencode(self.safe_query(), doseq=True))
        if self.form:
            parts.append(" " + urlencode(self.safe_form(), doseq=True))
        return "".join(parts)


def bearer(req):
    auth = req.header("Authorization", "")
    m = re.match(r"(?i)bearer\s+(.+)$", auth.strip())
    return m.group(1).strip() if m else None


def basic_user(req):
    auth = req.header("Authorization", "")
    m = re.match(r"(?i)basic\s+(\S+)$", auth.strip())
    if not m:
        return None
    try:
        raw = base64.b64decode(m.group(1), validate=True).decode("utf-8")
    except Exception:
        return None
    user, _, password = raw.partition(":")
    return user, password


# --------------------------------------------------------------------------------------------
# Accounts

class Account:
    """One provider account.  Immutable once built: mutate builds a new one."""

    def __init__(self, prov, spec, old=None):
        self.prov = prov
        self.credentials = dict(old.credentials) if old else {}
        self.seed = old.seed if old else 1
        self.paused_every = old.paused_every if old else 0
        self.name_prefix = old.name_prefix if old else "Demo"
        self.rename_prefix = old.rename_prefix if old else None
        self.rename_every = old.rename_every if old else 1
        self.options = dict(old.options) if old else {}
        self.version = (old.version + 1) if old else 0
        self.counts = dict(old.counts) if old else dict(prov.kinds)
        self.ignored = {}
        self._apply(spec, old is None)

    def _apply(self, spec, fresh):
        if not isinstance(spec, dict):
            raise ValueError("body must be a JSON object")
        if "credentials" in spec:
            creds = spec["credentials"]
            if not isinstance(creds, dict) or not all(isinstance(v, str) for v in creds.values()):
                raise ValueError("credentials must be an object of strings")
            merged = creds if fresh else {**self.credentials, **creds}
            err = self.prov.check_credentials(merged)
            if err:
                raise ValueError(err)
            self.credentials = dict(merged)
        elif fresh:
            raise ValueError("credentials required: " + ", ".join(self.prov.required))
        if "counts" in spec:
            counts, ignored = self.prov.expand_counts(spec["counts"])
            if fresh:
                self.counts = {k: 0 for k in self.prov.kinds}
            self.counts.update(counts)
            self.ignored = ignored
        for key in ("seed", "paused_every"):
            if key in spec:
                v = to_int(spec[key])
                if v is None or v < 0:
                    raise ValueError(key + " must be a non-negative integer")
                setattr(self, key, v)
        if "name_prefix" in spec:
            self.name_prefix = str(spec["name_prefix"])
            self.rename_prefix = None
        if "rename_prefix" in spec:
            self.rename_prefix = str(spec["rename_prefix"])
            every = to_int(spec.get("rename_every", 1))
            if every is None or every < 1:
                raise ValueError("rename_every must be a positive integer")
            self.rename_every = every
        opts = spec.get("options", {})
        if not isinstance(opts, dict):
            raise ValueError("options must be an object")
        for key in ("rate_limit", "rate_window", "limitnum_cap", "rate_limit_status", "team_name"):
            if key in spec:
                opts = {**opts, key: spec[key]}
        for key, v in opts.items():
            if key in ("rate_limit", "rate_window", "limitnum_cap", "rate_limit_status"):
                iv = to_int(v)
                if v is not None and (iv is None or iv < 0):
                    raise ValueError(key + " must be a non-negative integer or null")
                self.options[key] = iv
            else:
                self.options[key] = v

    def n(self, kind):
        return self.counts.get(kind, 0)

    def prefix(self, i):
        if self.rename_prefix is not None and i % self.rename_every == 0:
            return self.rename_prefix
        return self.name_prefix

    def paused(self, i):
        """Every paused_every-th item of a kind (1-based: with 10, items 10, 20, ...)."""
        pe = self.paused_every
        return pe > 0 and (i + 1) % pe == 0

    def created(self, i):
        return BASE_TS + i * 60

    def updated(self, i):
        return BASE_TS + 30 * 86400 + i * 60 + self.version * 3600


# --------------------------------------------------------------------------------------------
# Provider base

class Provider:
    id = ""
    kinds = {}              # resource kind -> demo count
    aliases = {}            # other count names accepted -> kind
    required = ()           # credential fields (providers.md section 12 names)
    optional = ()
    gzip_ok = False
    rl_default = 5000       # advertised requests per window when no rate_limit option is set

    def demo_credentials(self):
        return {"api_key": DEMO_KEY}

    def check_credentials(self, creds):
        missing = [f for f in self.required if not creds.get(f)]
        if missing:
            return "credentials missing: " + ", ".join(missing)
        return None

    def expand_counts(self, counts):
        if not isinstance(counts, dict):
            raise ValueError("counts must be an object")
        out, ignored = {}, {}
        for key, v in counts.items():
            iv = to_int(v)
            if iv is None or iv < 0 or iv > MAX_COUNT:
                raise ValueError("counts.%s must be an integer 0..%d" % (key, MAX_COUNT))
            kind = self.aliases.get(key, key)
            if kind in self.kinds:
                out[kind] = iv
            else:
                ignored[key] = iv
        return out, ignored

    def base(self, a, kind, lo, buckets, spacing):
        return lo + (h64(self.id, kind, a.seed) % buckets) * spacing

    # Hooks each provider overrides.
    def handle(self, req, a):
        raise NotImplementedError

    def bad_key(self, req):
        raise NotImplementedError

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return jreply(status, {"error": "Too Many Requests"}, headers)

    def server_error(self, req, status):
        return jreply(status, {"error": "Internal Server Error"})

    def not_found(self, req):
        return jreply(404, {"error": "Not Found"})

    def method_not_allowed(self, req):
        return jreply(405, {"error": "Method Not Allowed"})

    def limit_headers(self, rl):
        return []

    def rate_limit_status(self, a):
        return 429

    def ext_id(self, a, kind, i):
        return i

    def summary_extra(self, a):
        return {}


def page_params(raw_page, raw_size, default_size, max_size, first=1):
    page = to_int(raw_page, first)
    size = to_int(raw_size, default_size)
    if page is None or page < first:
        page = first
    if size is None or size < 1:
        size = default_size
    return page, min(size, max_size)


# --------------------------------------------------------------------------------------------
# 1. UptimeRobot v2

class UptimeRobot(Provider):
    id = "uptimerobot"
    kinds = {"monitors": 12, "heartbeats": 2, "contacts": 3, "status_pages": 2}
    aliases = {"alert_contacts": "contacts", "psps": "status_pages", "checks": "monitors"}
    required = ("api_key",)
    TYPES = (1, 1, 2, 3, 4)                 # HTTP, HTTP, keyword, ping, port
    CONTACT_TYPES = (2, 11, 5, 1, 16, 7)    # e-mail, Slack, web-hook, SMS, PagerDuty, Zapier
    MAX_LIMIT = 50

    def mbase(self, a):
        return self.base(a, "monitors", 700_000_000, 100, 10_000_000)

    def cbase(self, a):
        return self.base(a, "contacts", 1_000_000, 800, 10_000)

    def pbase(self, a):
        return self.base(a, "psps", 100_000, 800, 1_000)

    def cid(self, a, j, cb=None):
        return "0%d" % ((self.cbase(a) if cb is None else cb) + j)   # string with a leading zero

    def ext_id(self, a, kind, i):
        if kind == "monitors":
            return self.mbase(a) + i
        if kind == "heartbeats":
            return self.mbase(a) + a.n("monitors") + i
        if kind == "contacts":
            return self.cid(a, i)
        return self.pbase(a) + i

    def fail(self, etype, **fields):
        err = {"type": etype}
        err.update(fields)
        return jreply(200, {"stat": "fail", "error": err})

    def bad_key(self, req, missing=False, key=None):
        if missing:
            return self.fail("invalid_parameter", parameter_name="api_key",
                             message="api_key parameter is missing.")
        # The real API echoes the wrong key back; the migrator must scrub it.
        return self.fail("invalid_parameter", parameter_name="api_key",
                         passed_value=key if key is not None else self.key_of(req),
                         message="api_key not found.")

    def key_of(self, req):
        key = req.f("api_key")
        if key is None and req.rel.endswith("/getMonitors"):
            key = req.q("api_key")      # the query key is only honoured on getMonitors
        return key

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        ra = int(retry_hdr) if retry_hdr and retry_hdr.isdigit() else 60
        headers += [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", str(int(time.time()) + ra))]
        return jreply(status, {"stat": "fail", "error": {"type": "rate_limit",
                                                         "message": "Rate limit exceeded."}}, headers)

    def server_error(self, req, status):
        return jreply(status, {"stat": "fail", "error": {"type": "internal",
                                                         "message": "Internal server error."}})

    def not_found(self, req):
        return jreply(404, {"stat": "fail", "error": {"type": "not_found",
                                                      "message": "Method not found."}})

    def limit_headers(self, rl):
        return [("X-RateLimit-Limit", str(rl["limit"])),
                ("X-RateLimit-Remaining", str(rl["remaining"])),
                ("X-RateLimit-Reset", str(rl["reset_epoch"]))]

    def handle(self, req, a):
        if req.method not in ("POST", "GET"):
            return self.method_not_allowed(req)
        m = re.fullmatch(r"/v2/(\w+)", req.rel)
        if not m:
            return self.not_found(req)
        method = m.group(1)
        routes = {"getMonitors": self.get_monitors, "getAlertContacts": self.get_contacts,
                  "getPSPs": self.get_psps, "getAccountDetails": self.get_account}
        if method not in routes:
            return self.not_found(req)
        key = self.key_of(req)
        if not key:
            return self.bad_key(req, missing=True)
        if a is None or key != a.credentials["api_key"]:
            return self.bad_key(req, key=key)
        return routes[method](req, a)

    def paging(self, req):
        offset = to_int(req.p("offset"), 0)
        limit = to_int(req.p("limit"), self.MAX_LIMIT)
        for name, v in (("offset", offset), ("limit", limit)):
            if v is None or v < 0:
                return None, None, self.fail("invalid_parameter", parameter_name=name,
                                             passed_value=req.p(name),
                                             message="%s should be a non-negative integer." % name)
        if limit == 0:
            limit = self.MAX_LIMIT
        return offset, min(limit, self.MAX_LIMIT), None

    def ids_param(self, req, name):
        raw = req.p(name)
        if not raw:
            return None
        out = []
        for part in str(raw).split("-"):
            v = to_int(part.lstrip("0") or "0")
            if v is not None:
                out.append(v)
        return out

    # -- monitors
    def m_type(self, a, g):
        nm = a.n("monitors")
        return 5 if g >= nm else self.TYPES[g % 5]

    def m_status(self, a, g):
        nm = a.n("monitors")
        i = g - nm if g >= nm else g
        if a.paused(i):
            return 0
        return 9 if i % 7 == 6 else 2

    def m_name(self, a, g):
        nm = a.n("monitors")
        if g >= nm:
            return "%s Heartbeat %d" % (a.prefix(g - nm), g - nm + 1)
        return "%s Monitor %d" % (a.prefix(g), g + 1)

    def m_url(self, a, g, mid):
        nm = a.n("monitors")
        if g >= nm:
            return "https://heartbeat.uptimerobot.com/m%d-%s" % (mid, hid(12, self.id, a.seed, "hb", g))
        t = self.TYPES[g % 5]
        host = "m%d.example.com" % (g + 1)
        if t in (1, 2):
            return ("https://%s/" if g % 2 == 0 else "http://%s/health") % host
        return host

    def monitor(self, a, g, req, mb, cb):
        nm, nc = a.n("monitors"), a.n("contacts")
        hb = g >= nm
        i = g - nm if hb else g
        mid = mb + g
        t = self.m_type(a, g)
        sub_type, port, kw_type, kw_value = "", "", "", ""
        if t == 4:
            if (i // 5) % 2 == 0:
                sub_type, port = 99, str(8000 + i % 1000)   # custom port sent as a string
            else:
                sub_type, port = 1, 80
        if t == 2:
            kw_type, kw_value = (1 if i % 2 == 0 else 2), "OK"
        d = {"id": mid, "friendly_name": self.m_name(a, g), "url": self.m_url(a, g, mid), "type": t,
             "sub_type": sub_type, "keyword_type": kw_type, "keyword_case_type": 0 if t == 2 else "",
             "keyword_value": kw_value, "http_username": "", "http_password": "", "port": port,
             "interval": (300, 3600)[i % 2] if hb else (300, 60, 900)[i % 3],
             "timeout": 30, "status": self.m_status(a, g), "create_datetime": a.created(g)}
        if truthy(req.p("alert_contacts", "0")):
            acs = []
            if nc:
                acs.append({"id": self.cid(a, g % nc, cb), "threshold": 0, "recurrence": 0})
                if nc > 1 and g % 4 == 0:
                    acs.append({"id": self.cid(a, (g + 1) % nc, cb), "threshold": 5, "recurrence": 30})
            d["alert_contacts"] = acs
        if truthy(req.p("ssl", "0")):
            d["ssl"] = {"ignore_errors": 0, "disable_notifications": 0}
        if truthy(req.p("custom_http_headers", "0")):
            d["custom_http_headers"] = {"X-Fake": str(i)} if i % 3 == 1 else {}
        if truthy(req.p("logs", "0")):
            d["logs"] = [{"id": mid * 10 + 1, "type": 98, "datetime": a.created(g), "duration": 3600,
                          "reason": {"code": "", "detail": ""}}]
        if truthy(req.p("mwindows", "0")):
            d["mwindows"] = []
        return d

    def get_monitors(self, req, a):
        offset, limit, err = self.paging(req)
        if err:
            return err
        total_all = a.n("monitors") + a.n("heartbeats")
        mb, cb = self.mbase(a), self.cbase(a)
        ids = self.ids_param(req, "monitors")
        types = self.ids_param(req, "types")
        statuses = self.ids_param(req, "statuses")
        search = (req.p("search") or "").lower()
        if ids is None and types is None and statuses is None and not search:
            total = total_all
            idx = range(offset, min(total, offset + limit))
        else:
            cands = sorted({v - mb for v in ids if 0 <= v - mb < total_all}) if ids is not None \
                else range(total_all)
            sel = []
            for g in cands:
                if types is not None and self.m_type(a, g) not in types:
                    continue
                if statuses is not None and self.m_status(a, g) not in statuses:
                    continue
                if search and search not in self.m_name(a, g).lower() \
                        and search not in self.m_url(a, g, mb + g).lower():
                    continue
                sel.append(g)
            total = len(sel)
            idx = sel[offset:offset + limit]
        return jreply(200, {"stat": "ok",
                            "pagination": {"offset": offset, "limit": limit, "total": total},
                            "monitors": [self.monitor(a, g, req, mb, cb) for g in idx]})

    # -- alert contacts (offset/limit/total are top-level here)
    def contact(self, a, j, cb):
        t = self.CONTACT_TYPES[j % len(self.CONTACT_TYPES)]
        d = {"id": self.cid(a, j, cb), "friendly_name": "%s Contact %d" % (a.prefix(j), j + 1),
             "type": t, "status": 1 if a.paused(j) else 2}
        if t == 2:
            d["value"] = "contact%d@example.com" % (j + 1)
        elif t == 11:
            d["value"] = "https://hooks.slack.com/services/T000/B000/%s" % hid(12, self.id, a.seed, "slack", j)
        elif t == 5:
            d["value"] = "https://hooks.example.com/ur/%d?" % (j + 1)
        elif t == 1:
            d["value"] = "+1555%07d" % j
        elif t == 16:
            d["value"] = None           # value may be null...
        return d                         # ...or absent (Zapier)

    def get_contacts(self, req, a):
        offset, limit, err = self.paging(req)
        if err:
            return err
        n, cb = a.n("contacts"), self.cbase(a)
        ids = self.ids_param(req, "alert_contacts")
        if ids is not None:
            sel = sorted({v - cb for v in ids if 0 <= v - cb < n})
            total, idx = len(sel), sel[offset:offset + limit]
        else:
            total, idx = n, range(offset, min(n, offset + limit))
        return jreply(200, {"stat": "ok", "offset": offset, "limit": limit, "total": total,
                            "alert_contacts": [self.contact(a, j, cb) for j in idx]})

    # -- public status pages
    def psp(self, a, j, pb, mb):
        total = a.n("monitors") + a.n("heartbeats")
        if j % 2 == 1:
            monitors = 0                 # quirk: a single number, 0 = all monitors
        else:
            monitors = [mb + (j * 5 + k) % total for k in range(min(5, total))]
        return {"id": pb + j, "friendly_name": "%s Status Page %d" % (a.prefix(j), j + 1),
                "monitors": monitors, "sort": 1 + j % 4, "status": 0 if a.paused(j) else 1,
                "standard_url": "https://stats.uptimerobot.com/%s" % hid(10, self.id, a.seed, "psp", j),
                "custom_url": None if j % 2 else ""}

    def get_psps(self, req, a):
        offset, limit, err = self.paging(req)
        if err:
            return err
        n, pb, mb = a.n("status_pages"), self.pbase(a), self.mbase(a)
        ids = self.ids_param(req, "psps")
        if ids is not None:
            sel = sorted({v - pb for v in ids if 0 <= v - pb < n})
            total, idx = len(sel), sel[offset:offset + limit]
        else:
            total, idx = n, range(offset, min(n, offset + limit))
        return jreply(200, {"stat": "ok",
                            "pagination": {"offset": offset, "limit": limit, "total": total},
                            "psps": [self.psp(a, j, pb, mb) for j in idx]})

    def get_account(self, req, a):
        total = a.n("monitors") + a.n("heartbeats")
        paused = down = 0
        if total <= 200_000:
            for g in range(total):
                s = self.m_status(a, g)
                paused += s == 0
                down += s == 9
        return jreply(200, {"stat": "ok", "account": {
            "email": "owner@example.com", "user_id": 1000000 + a.seed, "firstname": a.name_prefix,
            "sms_credits": 0, "payment_processor": None, "payment_period": None,
            "subscription_expiry_date": None, "monitor_limit": max(50, total), "monitor_interval": 1,
            "up_monitors": total - paused - down, "down_monitors": down, "paused_monitors": paused,
            "total_monitors_count": total, "registered_at": a.created(0)}})


# --------------------------------------------------------------------------------------------
# 2. Pingdom 3.1

class Pingdom(Provider):
    id = "pingdom"
    kinds = {"monitors": 12, "contacts": 3}
    aliases = {"checks": "monitors"}
    required = ("api_token",)
    gzip_ok = True
    rl_default = 100000
    TYPES = ("http", "http", "httpcustom", "tcp", "ping", "dns", "smtp")

    def demo_credentials(self):
        return {"api_token": DEMO_KEY}

    def cbase(self, a):
        return self.base(a, "checks", 1_000_000, 100, 10_000_000)

    def ubase(self, a):
        return self.base(a, "contacts", 10_000_000, 100, 100_000)

    def ext_id(self, a, kind, i):
        return (self.cbase(a) if kind == "monitors" else self.ubase(a)) + i

    def envelope(self, status, desc, msg, headers=None):
        return jreply(status, {"error": {"statuscode": status, "statusdesc": desc, "errormessage": msg}},
                      headers)

    def bad_key(self, req, missing=False):
        if missing:
            return self.envelope(401, "Unauthorized", "No credentials provided")
        return self.envelope(401, "Unauthorized", "Invalid credentials")

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        ra = to_int(retry_hdr, 60) if retry_hdr and retry_hdr.isdigit() else 60
        headers += [("Req-Limit-Short", "Remaining: 0 Time until reset: %d" % ra),
                    ("Req-Limit-Long", "Remaining: 0 Time until reset: %d" % ra)]
        return self.envelope(status, "Too Many Requests", "Request limit exceeded, try again later", headers)

    def server_error(self, req, status):
        return self.envelope(status, "Internal Server Error", "Internal error")

    def not_found(self, req):
        return self.envelope(404, "Not Found", "Resource not found")

    def method_not_allowed(self, req):
        return self.envelope(405, "Method Not Allowed", "Method not allowed")

    def limit_headers(self, rl):
        return [("Req-Limit-Short", "Remaining: %d Time until reset: %d" % (rl["remaining"], rl["reset_in"])),
                ("Req-Limit-Long", "Remaining: %d Time until reset: %d"
                 % (max(0, rl["limit"] * 30 - rl["total"]), 2591999))]

    def token_of(self, req):
        tok = bearer(req)
        if tok is None:
            bu = basic_user(req)
            if bu:
                tok = bu[0]
        return tok

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        tok = self.token_of(req)
        if not tok:
            return self.bad_key(req, missing=True)
        if a is None or tok != a.credentials["api_token"]:
            return self.bad_key(req)
        rel = req.rel
        if rel == "/api/3.1/checks":
            return self.list_checks(req, a)
        m = re.fullmatch(r"/api/3\.1/checks/(\d+)", rel)
        if m:
            return self.check_detail(req, a, int(m.group(1)))
        if rel == "/api/3.1/alerting/contacts":
            return self.contacts(req, a)
        if rel == "/api/3.1/alerting/teams":
            return jreply(200, {"teams": []})
        return self.not_found(req)

    def check(self, a, i, cb, req):
        t = self.TYPES[i % len(self.TYPES)]
        status = "paused" if a.paused(i) else ("down" if i % 7 == 6 else "up")
        d = {"id": cb + i, "created": a.created(i), "name": "%s Monitor %d" % (a.prefix(i), i + 1),
             "hostname": "m%d.example.com" % (i + 1), "resolution": (1, 5, 15)[i % 3], "type": t,
             "ipv6": False, "verify_certificate": True, "status": status,
             "lasterrortime": a.created(i) + 600, "lasttesttime": a.updated(i),
             "lastresponsetime": 100 + i % 400}
        if truthy(req.q("include_tags", "false")):
            d["tags"] = [{"name": "demo", "type": "u", "count": a.n("monitors")}]
        if truthy(req.q("include_severity", "false")):
            d["severity_level"] = "HIGH" if i % 2 == 0 else "LOW"
        return d

    def list_checks(self, req, a):
        n, cb = a.n("monitors"), self.cbase(a)
        limit = to_int(req.q("limit"), 25000)
        offset = to_int(req.q("offset"), 0)
        if limit is None or offset is None or limit < 0 or offset < 0:
            return self.envelope(400, "Bad Request", "Invalid parameter value for limit/offset")
        limit = min(limit or 25000, 25000)
        tags = req.q("tags")
        filtered = n
        if tags and "demo" not in [t.strip() for t in tags.split(",")]:
            filtered = 0
        idx = range(offset, min(filtered, offset + limit))
        checks = [self.check(a, i, cb, req) for i in idx]
        return jreply(200, {"checks": checks,
                            "counts": {"total": n, "limited": len(checks), "filtered": filtered}})

    def check_detail(self, req, a, cid):
        n, cb = a.n("monitors"), self.cbase(a)
        i = cid - cb
        if not 0 <= i < n:
            return self.envelope(404, "Not Found", "Check not found")
        d = self.check(a, i, cb, req)
        t = d.pop("type")
        host = d["hostname"]
        if t in ("http", "httpcustom"):
            tobj = {"url": "/health" if t == "http" else "/status.xml", "encryption": i % 2 == 0,
                    "port": 443 if i % 2 == 0 else 80, "requestheaders": {"User-Agent": "Pingdom.com_bot"}}
            if t == "http" and i % 4 == 1:
                tobj["shouldcontain"] = "OK"
            if t == "httpcustom":
                tobj["additionalurls"] = []
        elif t == "tcp":
            tobj = {"port": 8000 + i % 1000}
        elif t == "dns":
            tobj = {"nameserver": "ns1.example.com", "expectedip": "192.0.2.%d" % (1 + i % 250)}
        elif t == "smtp":
            tobj = {"port": 25, "encryption": False}
        else:
            tobj = {}
        nc, ub = a.n("contacts"), self.ubase(a)
        d.update({"type": {t: tobj}, "hostname": host, "sendnotificationwhendown": 2,
                  "notifyagainevery": 0, "notifywhenbackup": True, "responsetime_threshold": 30000,
                  "custom_message": "", "integrationids": [], "probe_filters": [],
                  "userids": [ub + i % nc] if nc else [], "teams": []})
        return jreply(200, {"check": d})

    def contacts(self, req, a):
        nc, ub = a.n("contacts"), self.ubase(a)
        out = []
        for j in range(nc):
            targets = {"email": [{"severity": "HIGH", "address": "contact%d@example.com" % (j + 1)}]}
            if j % 2 == 1:
                targets["sms"] = [{"severity": "HIGH", "country_code": "1", "number": "555%07d" % j,
                                   "provider": "nexmo"}]
            out.append({"id": ub + j, "name": "%s Contact %d" % (a.prefix(j), j + 1), "paused": a.paused(j),
                        "type": "user" if j == 0 else "contact", "owner": j == 0,
                        "notification_targets": targets,
                        "teams": [{"id": 123456, "name": "Demo Team"}] if j % 3 == 2 else []})
        return jreply(200, {"contacts": out})


# --------------------------------------------------------------------------------------------
# 3. StatusCake v1

class StatusCake(Provider):
    id = "statuscake"
    kinds = {"monitors": 12, "heartbeats": 2, "contacts": 3}
    aliases = {"uptime": "monitors", "contact_groups": "contacts"}
    required = ("api_token",)
    rl_default = 1000
    TYPES = ("HTTP", "HTTP", "HEAD", "PING", "TCP", "DNS", "SSH", "SMTP")
    RATES = (300, 60, 900, 1800)

    def demo_credentials(self):
        return {"api_token": DEMO_KEY}

    def ubase(self, a):
        return self.base(a, "uptime", 5_000_000, 100, 100_000)

    def hbase(self, a):
        return self.base(a, "heartbeat", 20_000_000, 100, 100_000)

    def gbase(self, a):
        return self.base(a, "contact-groups", 100_000, 100, 10_000)

    def ext_id(self, a, kind, i):
        b = {"monitors": self.ubase, "heartbeats": self.hbase, "contacts": self.gbase}[kind](a)
        return str(b + i)

    def bad_key(self, req):
        return jreply(401, {"message": "Unauthorised", "errors": {}})

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        ra = retry_hdr if retry_hdr and retry_hdr.isdigit() else "60"
        headers += [("x-ratelimit-limit", "5, 60;w=60, 5;w=1"), ("x-ratelimit-remaining", "0"),
                    ("x-ratelimit-reset", ra)]
        return jreply(status, {"message": "Too Many Requests", "errors": {}}, headers)

    def server_error(self, req, status):
        return jreply(status, {"message": "An unexpected error occurred", "errors": {}})

    def not_found(self, req):
        return jreply(404, {"message": "No results found", "errors": {}})

    def method_not_allowed(self, req):
        return jreply(405, {"message": "Method Not Allowed", "errors": {}})

    def limit_headers(self, rl):
        return [("x-ratelimit-limit", "%d, %d;w=%d" % (rl["limit"], rl["limit"], rl["window"])),
                ("x-ratelimit-remaining", str(rl["remaining"])),
                ("x-ratelimit-reset", str(rl["reset_in"]))]

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        tok = bearer(req)
        if a is None or not tok or tok != a.credentials["api_token"]:
            return self.bad_key(req)
        m = re.fullmatch(r"/v1/(uptime|heartbeat|contact-groups)(?:/([^/]+))?", req.rel)
        if not m:
            return self.not_found(req)
        kind = {"uptime": "monitors", "heartbeat": "heartbeats", "contact-groups": "contacts"}[m.group(1)]
        build = {"monitors": self.uptime, "heartbeats": self.heartbeat, "contacts": self.group}[kind]
        b = {"monitors": self.ubase, "heartbeats": self.hbase, "contacts": self.gbase}[kind](a)
        n = a.n(kind)
        if m.group(2) is not None:
            i = (to_int(m.group(2), -1) or 0) - b
            if not 0 <= i < n:
                return self.not_found(req)
            return jreply(200, {"data": build(a, i, b, detail=True)})
        page, limit = to_int(req.q("page"), 1), to_int(req.q("limit"), 25)
        errors = {}
        if page is None or page < 1:
            errors["page"] = ["The page must be at least 1"]
        if limit is None or not 1 <= limit <= 100:
            errors["limit"] = ["The limit must be between 1 and 100"]
        if errors:
            return jreply(400, {"message": "The provided parameters are invalid. Check the errors output "
                                           "for detailed information.", "errors": errors})
        status = req.q("status")
        if status in ("up", "down") and kind != "contacts":
            sel = [i for i in range(n) if self.status_of(a, i) == status]
            total, idx = len(sel), sel[(page - 1) * limit: page * limit]
        else:
            total, idx = n, range((page - 1) * limit, min(n, page * limit))
        return jreply(200, {"data": [build(a, i, b) for i in idx],
                            "metadata": {"page": page, "per_page": limit,
                                         "page_count": (total + limit - 1) // limit, "total_count": total}})

    def status_of(self, a, i):
        return "down" if i % 7 == 6 else "up"

    def groups_for(self, a, i):
        nc = a.n("contacts")
        return [str(self.gbase(a) + i % nc)] if nc else []

    def uptime(self, a, i, b, detail=False):
        t = self.TYPES[i % len(self.TYPES)]
        host = "m%d.example.com" % (i + 1)
        url = ("https://%s/" % host) if t in ("HTTP", "HEAD") else host
        d = {"id": str(b + i), "name": "%s Monitor %d" % (a.prefix(i), i + 1), "website_url": url,
             "test_type": t, "check_rate": self.RATES[i % len(self.RATES)],
             "contact_groups": self.groups_for(a, i), "paused": a.paused(i), "status": self.status_of(a, i),
             "tags": ["demo"], "uptime": 100 if i % 7 != 6 else 97.5}
        if detail:
            d.update({"confirmation": 2, "timeout": 15, "trigger_rate": 0, "port": 8000 + i % 1000 if t == "TCP" else None,
                      "find_string": "OK" if i % 4 == 1 else "", "do_not_find": False,
                      "last_tested_at": iso_ms(a.updated(i)).replace(".000Z", "+00:00"), "servers": [],
                      "follow_redirects": True, "enable_ssl_alert": False, "host": "", "user_agent": None})
        return d

    def heartbeat(self, a, i, b, detail=False):
        d = {"id": str(b + i), "name": "%s Heartbeat %d" % (a.prefix(i), i + 1),
             "url": "https://push.statuscake.com/?PK=%s&TestID=%d&time=0" % (hid(12, self.id, a.seed, "pk", i), b + i),
             "period": (1800, 300, 3600, 86400)[i % 4], "contact_groups": self.groups_for(a, i),
             "paused": a.paused(i), "status": self.status_of(a, i), "tags": ["demo"],
             "uptime": 100}
        if detail:
            d.update({"host": "", "last_tested_at": iso_ms(a.updated(i)).replace(".000Z", "+00:00")})
        return d

    def group(self, a, i, b, detail=False):
        return {"id": str(b + i), "name": "%s Contact %d" % (a.prefix(i), i + 1),
                "email_addresses": ["contact%d@example.com" % (i + 1)],
                "integrations": [str(900 + i)] if i % 3 == 2 else [],
                "mobile_numbers": ["+1555%07d" % i] if i % 2 == 1 else [],
                "ping_url": "https://hooks.example.com/sc/%d" % (i + 1) if i % 4 == 3 else ""}


# --------------------------------------------------------------------------------------------
# 4. Better Stack Uptime v2 (JSON:API)

class BetterStack(Provider):
    id = "better_stack"
    kinds = {"monitors": 12, "heartbeats": 2, "status_pages": 1,
             "email_integrations": 1, "slack_integrations": 1, "outgoing_webhooks": 1}
    required = ("api_token",)
    optional = ("team_name",)
    rl_default = 1000
    MTYPES = ("status", "expected_status_code", "keyword", "ping", "tcp", "keyword_absence", "dns")
    # path segment -> (kind, JSON:API type, id base lo)
    LISTS = {"monitors": ("monitors", "monitor", 100_000),
             "heartbeats": ("heartbeats", "heartbeat", 200_000),
             "status-pages": ("status_pages", "status_page", 300_000),
             "email-integrations": ("email_integrations", "email_integration", 400_000),
             "slack-integrations": ("slack_integrations", "slack_integration", 500_000),
             "outgoing-webhooks": ("outgoing_webhooks", "outgoing_webhook", 600_000)}
    INVALID = ("Invalid Team API token. How to find your Team API token: https://betterstack.com/docs/"
               "uptime/api/getting-started-with-uptime-api#obtaining-an-uptime-api-token")

    def demo_credentials(self):
        return {"api_token": DEMO_KEY}

    def expand_counts(self, counts):
        counts = dict(counts) if isinstance(counts, dict) else counts
        if isinstance(counts, dict) and "contacts" in counts:
            n = to_int(counts.pop("contacts"))
            if n is None or n < 0 or n > MAX_COUNT:
                raise ValueError("counts.contacts must be an integer 0..%d" % MAX_COUNT)
            for kind, share in (("email_integrations", (n + 2) // 3), ("slack_integrations", (n + 1) // 3),
                                ("outgoing_webhooks", n // 3)):
                counts.setdefault(kind, share)
        return Provider.expand_counts(self, counts)

    def kbase(self, a, kind):
        # one disjoint range of 10^8 per kind, so ids never collide across kinds
        lo = {k: lo for k, _, lo in self.LISTS.values()}[kind]
        return self.base(a, kind, lo * 1000, 90, 1_000_000)

    def ext_id(self, a, kind, i):
        return str(self.kbase(a, kind) + i)

    def team(self, a):
        return a.options.get("team_name") or a.credentials.get("team_name") or "Demo team"

    def bad_key(self, req):
        return jreply(401, {"errors": self.INVALID})

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return jreply(status, {"errors": "Rate limit exceeded, please slow down."}, headers)

    def server_error(self, req, status):
        return jreply(status, {"errors": "Something went wrong on our side."})

    def not_found(self, req):
        return jreply(404, {"errors": "Resource not found"})

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        tok = bearer(req)
        if a is None or not tok or tok != a.credentials["api_token"]:
            return self.bad_key(req)
        m = re.fullmatch(r"/api/v2/([a-z-]+)(?:/(\d+)(?:/(sections|resources))?)?", req.rel)
        if not m or m.group(1) not in self.LISTS:
            return self.not_found(req)
        kind, jtype, _ = self.LISTS[m.group(1)]
        n, b = a.n(kind), self.kbase(a, kind)
        if m.group(2) is None:
            return self.paged(req, n, lambda i: self.item(a, kind, jtype, i, b, req))
        i = int(m.group(2)) - b
        if not 0 <= i < n:
            return jreply(404, {"errors": "Resource type %s with id = %s was not found"
                                          % (jtype.title().replace("_", ""), m.group(2))})
        if m.group(3) is None:
            return jreply(200, {"data": self.item(a, kind, jtype, i, b, req)})
        if kind != "status_pages":
            return self.not_found(req)
        if m.group(3) == "sections":
            sec = {"id": str(b * 10 + i), "type": "status_page_section",
                   "attributes": {"name": "Services", "position": 0}}
            return self.paged(req, 1, lambda k: sec)
        refs = self.page_resources(a, i)
        return self.paged(req, len(refs), lambda k: self.resource(a, b * 10 + i, refs[k], k))

    def paged(self, req, n, build):
        page, per_page = page_params(req.q("page"), req.q("per_page"), 50, 250)
        last = max(1, (n + per_page - 1) // per_page)
        base = "http://%s/%s%s" % (req.host, self.id, req.rel)
        keep = [(k, v) for k, vs in req.query.items() if k != "page" for v in vs]

        def link(p):
            return base + "?" + urlencode([("page", p)] + keep)

        data = [build(i) for i in range((page - 1) * per_page, min(n, page * per_page))]
        return jreply(200, {"data": data, "pagination": {
            "first": link(1), "last": link(last),
            "prev": link(min(page - 1, last)) if page > 1 else None,
            "next": link(page + 1) if page < last else None}})

    def page_resources(self, a, j):
        refs = []
        nm, nh = a.n("monitors"), a.n("heartbeats")
        for k in range(min(5, nm)):
            refs.append(("Monitor", (j * 5 + k) % nm))
        if nh:
            refs.append(("Heartbeat", j % nh))
        return refs

    def resource(self, a, section_id, ref, pos):
        rtype, i = ref
        kind = "monitors" if rtype == "Monitor" else "heartbeats"
        label = "Monitor" if rtype == "Monitor" else "Heartbeat"
        rid = self.kbase(a, kind) + i
        return {"id": str(section_id * 100 + pos), "type": "status_page_resource",
                "attributes": {"status_page_section_id": section_id, "resource_id": rid,
                               "resource_type": rtype, "public_name": "%s %s %d" % (a.prefix(i), label, i + 1),
                               "explanation": "", "history": True, "widget_type": "history",
                               "position": pos, "availability": 1.0}}

    def item(self, a, kind, jtype, i, b, req):
        fn = getattr(self, "attrs_" + kind)
        return {"id": str(b + i), "type": jtype, "attributes": fn(a, i, req)}

    def common_times(self, a, i, paused=False):
        return {"paused_at": iso_ms(a.updated(i)) if paused else None,
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i))}

    def attrs_monitors(self, a, i, req):
        t = self.MTYPES[i % len(self.MTYPES)]
        host = "m%d.example.com" % (i + 1)
        url = host if t in ("ping", "tcp", "dns") else "https://%s/" % host
        paused = a.paused(i)
        d = {"url": url, "pronounceable_name": "%s Monitor %d" % (a.prefix(i), i + 1), "auth_username": "",
             "auth_password": "", "monitor_type": t, "monitor_group_id": None,
             "last_checked_at": iso_ms(a.updated(i)),
             "status": "paused" if paused else ("down" if i % 7 == 6 else "up"), "policy_id": None,
             "expiration_policy_id": None, "team_name": self.team(a),
             "required_keyword": "OK" if t.startswith("keyword") else None, "verify_ssl": True,
             "check_frequency": (180, 60, 30, 300)[i % 4], "call": False, "sms": False, "email": True,
             "push": True, "critical_alert": False, "team_wait": None, "http_method": "get",
             "request_timeout": 30, "recovery_period": 180, "request_headers": [], "request_body": "",
             "follow_redirects": True, "remember_cookies": True, "confirmation_period": 0,
             "regions": ["us", "eu", "as", "au"], "port": "443" if t == "tcp" else None,
             "maintenance_from": None, "maintenance_to": None, "maintenance_timezone": "UTC",
             "maintenance_days": [], "expected_status_codes": [200] if t == "expected_status_code" else []}
        d.update(self.common_times(a, i, paused))
        return d

    def attrs_heartbeats(self, a, i, req):
        paused = a.paused(i)
        d = {"url": "https://uptime.betterstack.com/api/v1/heartbeat/%s" % hid(12, self.id, a.seed, "hb", i),
             "name": "%s Heartbeat %d" % (a.prefix(i), i + 1), "period": (300, 3600, 86400)[i % 3],
             "grace": (60, 300, 3600)[i % 3], "call": False, "sms": False, "email": True, "push": True,
             "critical_alert": False, "team_wait": None, "heartbeat_group_id": None,
             "team_name": self.team(a), "sort_index": None, "maintenance_from": None,
             "maintenance_to": None, "maintenance_timezone": "UTC", "maintenance_days": [],
             "policy_id": None, "status": "paused" if paused else ("down" if i % 7 == 6 else "up")}
        d.update(self.common_times(a, i, paused))
        return d

    def attrs_status_pages(self, a, i, req):
        return {"company_name": "%s Status Page %d" % (a.prefix(i), i + 1),
                "company_url": "https://www.example.com", "contact_url": "mailto:support@example.com",
                "logo_url": None, "timezone": "UTC", "subdomain": "demo-status-%d-%s" % (i + 1, hid(4, self.id, a.seed, i)),
                "custom_domain": None, "custom_css": None, "google_analytics_id": None,
                "min_incident_length": 0, "announcement": None, "announcement_embed_visible": False,
                "announcement_embed_link": None, "subscribable": i % 2 == 0,
                "hide_from_search_engines": False, "password_enabled": i % 3 == 2, "history": 90,
                "aggregate_state": "operational", "design": "v2", "theme": "light", "layout": "vertical",
                "status_page_group_id": None, "team_name": self.team(a),
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i))}

    def attrs_email_integrations(self, a, i, req):
        return {"name": "%s Email %d" % (a.prefix(i), i + 1),
                "email_address": "contact%d.%s@betteruptime.com" % (i + 1, hid(6, self.id, a.seed, "em", i)),
                "policy_id": None, "call": False, "sms": False, "email": True, "push": True,
                "critical_alert": False, "team_wait": None, "recovery_period": 0, "paused": a.paused(i),
                "started_rule_type": "unused", "acknowledged_rule_type": "unused",
                "resolved_rule_type": "unused", "started_rules": [], "acknowledged_rules": [],
                "resolved_rules": [], "team_name": self.team(a),
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i))}

    def attrs_slack_integrations(self, a, i, req):
        return {"slack_team_id": "T0DEMO%04d" % a.seed, "slack_team_name": "%s Workspace" % a.prefix(i),
                "slack_channel_id": "C%s" % hid(8, self.id, a.seed, "ch", i).upper(),
                "slack_channel_name": "#%s-alerts-%d" % (a.prefix(i).lower().replace(" ", "-"), i + 1),
                "slack_status": "active", "integration_type": "verbose", "on_call_notifications": False,
                "notify_on_pause": True, "notify_on_resolve": True}

    def attrs_outgoing_webhooks(self, a, i, req):
        return {"name": "%s Webhook %d" % (a.prefix(i), i + 1),
                "url": "https://hooks.example.com/bs/%d" % (i + 1),
                "trigger_type": ("incident_change", "monitor_change", "on_call_change")[i % 3],
                "on_incident_started": i % 3 == 0, "on_incident_acknowledged": False,
                "on_incident_resolved": i % 3 == 0, "on_incident_reopened": False,
                "on_incident_comment": False, "notify_alongside_primary_responder": True,
                "custom_webhook_template_attributes": None, "team_name": self.team(a)}


# --------------------------------------------------------------------------------------------
# 5. updown.io

class Updown(Provider):
    id = "updown"
    kinds = {"monitors": 12, "contacts": 3, "status_pages": 1}
    aliases = {"checks": "monitors", "recipients": "contacts"}
    required = ("api_key",)
    gzip_ok = True
    RTYPES = ("email", "sms", "slack", "webhook", "telegram", "msteams")
    PERIODS = (60, 300, 30, 600, 3600, 15, 120, 1800)

    def tbase(self, a):
        return self.base(a, "checks", 36 ** 3 * 2, 100, 1_000_000)

    def rbase(self, a):
        return self.base(a, "recipients", 1_000_000_000, 100, 10_000_000)

    def sbase(self, a):
        return self.base(a, "status_pages", 36 ** 4, 100, 100_000)

    def ext_id(self, a, kind, i):
        if kind == "monitors":
            return b36(self.tbase(a) + i)
        if kind == "contacts":
            return "%s:%d" % (self.RTYPES[i % len(self.RTYPES)], self.rbase(a) + i)
        return b36(self.sbase(a) + i)

    def bad_key(self, req, missing=False):
        return jreply(401, {"error": "Missing API key" if missing else "Invalid API key"})

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        key = req.header("X-API-KEY") or req.q("api-key")
        if not key:
            return self.bad_key(req, missing=True)
        if a is None or key != a.credentials["api_key"]:
            return self.bad_key(req)
        rel = req.rel
        if rel == "/api/checks":
            return jreply(200, [self.check(a, i) for i in range(a.n("monitors"))])
        m = re.fullmatch(r"/api/checks/([0-9a-z]+)", rel)
        if m:
            i = int(m.group(1), 36) - self.tbase(a)
            if not 0 <= i < a.n("monitors"):
                return jreply(404, {"error": "Check not found"})
            return jreply(200, self.check(a, i))
        if rel == "/api/recipients":
            return jreply(200, [self.recipient(a, j) for j in range(a.n("contacts"))])
        if rel in ("/api/status_pages", "/api/status-pages"):
            return jreply(200, [self.status_page(a, j) for j in range(a.n("status_pages"))])
        return self.not_found(req)

    def check(self, a, i):
        enabled = not a.paused(i)
        down = enabled and i % 7 == 6
        url = ("https://m%d.example.com/" if i % 5 != 4 else "http://m%d.example.com/health") % (i + 1)
        nc = a.n("contacts")
        d = {"token": b36(self.tbase(a) + i), "url": url, "alias": "%s Monitor %d" % (a.prefix(i), i + 1),
             "last_status": 500 if down else 200, "uptime": 99.5 if down else 100, "down": down,
             "down_since": tsfmt(a.updated(i)) if down else None,
             "up_since": None if down else tsfmt(a.created(i) + 3600),
             "error": "500 Internal Server Error" if down else None,
             "period": self.PERIODS[i % len(self.PERIODS)], "apdex_t": 0.5,
             "string_match": "OK" if i % 4 == 2 else "", "enabled": enabled, "published": i % 2 == 0,
             "disabled_locations": [], "recipients": [self.ext_id(a, "contacts", i % nc)] if nc else [],
             "last_check_at": tsfmt(a.updated(i)), "next_check_at": tsfmt(a.updated(i) + 60),
             "created_at": tsfmt(a.created(i)), "mute_until": None,
             "favicon_url": "https://m%d.example.com/favicon.ico" % (i + 1), "custom_headers": {},
             "http_verb": "GET/HEAD", "http_body": ""}
        if url.startswith("https"):
            d["ssl"] = {"tested_at": tsfmt(a.updated(i)), "expires_at": tsfmt(a.updated(i) + 90 * 86400),
                        "valid": True, "error": None}
        return d

    def recipient(self, a, j):
        t = self.RTYPES[j % len(self.RTYPES)]
        d = {"id": self.ext_id(a, "contacts", j), "type": t, "name": "%s Contact %d" % (a.prefix(j), j + 1)}
        if t == "email":
            d["value"] = "contact%d@example.com" % (j + 1)
        elif t == "sms":
            d["value"] = "+1555%07d" % j
        elif t in ("webhook", "msteams"):
            d["value"] = "https://hooks.example.com/ud/%d" % (j + 1)
        return d                        # no value for slack / telegram

    def status_page(self, a, j):
        tok = b36(self.sbase(a) + j)
        nm = a.n("monitors")
        vis = ("public", "protected", "private")[j % 3]
        return {"token": tok, "url": "https://updown.io/p/%s" % tok,
                "name": "%s Status Page %d" % (a.prefix(j), j + 1), "description": "Generated status page",
                "visibility": vis, "access_key": hid(8, self.id, a.seed, "ak", j) if vis == "protected" else None,
                "checks": [b36(self.tbase(a) + (j * 5 + k) % nm) for k in range(min(5, nm))]}


# --------------------------------------------------------------------------------------------
# 6. Healthchecks.io v3

class Healthchecks(Provider):
    id = "healthchecks"
    kinds = {"heartbeats": 2, "contacts": 3}
    aliases = {"checks": "heartbeats", "channels": "contacts"}
    required = ("api_key",)
    optional = ("base_url", "api_key_readonly")
    KINDS = ("email", "slack", "webhook", "sms", "telegram", "pd")

    def demo_credentials(self):
        return {"api_key": DEMO_HC_KEY}

    def check_credentials(self, creds):
        err = Provider.check_credentials(self, creds)
        if err:
            return err
        for f in ("api_key", "api_key_readonly"):
            if f in creds and len(creds[f]) != 32:
                return "healthchecks credentials.%s must be exactly 32 characters" % f
        return None

    def ext_id(self, a, kind, i):
        return huuid(self.id, a.seed, "check" if kind == "heartbeats" else "channel", i)

    def bad_key(self, req, missing=False):
        return jreply(401, {"error": "missing api key" if missing else "wrong api key"})

    def handle(self, req, a):
        if req.method not in ("GET", "POST"):
            return self.method_not_allowed(req)
        key = req.header("X-Api-Key")
        if key is None and isinstance(req.json, dict):
            key = req.json.get("api_key")
        if not key or len(key) != 32:
            return self.bad_key(req, missing=True)
        readonly = False
        if a is None:
            return self.bad_key(req)
        if key != a.credentials["api_key"]:
            if key != a.credentials.get("api_key_readonly"):
                return self.bad_key(req)
            readonly = True
        m = re.fullmatch(r"/api/v[123]/(checks|channels)/?(?:([0-9a-f-]{36})/?)?", req.rel)
        if not m or req.method != "GET":
            return self.not_found(req)
        if m.group(1) == "channels":
            if readonly or m.group(2):
                return self.bad_key(req) if readonly else self.not_found(req)
            return jreply(200, {"channels": [self.channel(a, j) for j in range(a.n("contacts"))]})
        n = a.n("heartbeats")
        if m.group(2):
            for i in range(n):
                if self.ext_id(a, "heartbeats", i) == m.group(2):
                    return jreply(200, self.check(a, i, req, readonly))
            return jreply(404, {"error": "not found"})
        return jreply(200, {"checks": [self.check(a, i, req, readonly) for i in range(n)]})

    def check(self, a, i, req, readonly):
        cid = self.ext_id(a, "heartbeats", i)
        root = "http://%s/%s" % (req.host, self.id)
        name = "%s Heartbeat %d" % (a.prefix(i), i + 1)
        if a.paused(i):
            status = "paused"
        elif i % 7 == 6:
            status = "down"
        elif i % 5 == 3:
            status = "new"
        else:
            status = "up"
        last = None if status == "new" else tsfmt(a.updated(i), "%Y-%m-%dT%H:%M:%S+00:00")
        nc = a.n("contacts")
        d = {"name": name, "slug": re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"),
             "tags": "demo prod" if i % 2 == 0 else "demo", "desc": "", "grace": (300, 60, 3600)[i % 3],
             "n_pings": 0 if status == "new" else 10 + i, "status": status, "started": False,
             "last_ping": last, "next_ping": None if last is None or status == "paused"
             else tsfmt(a.updated(i) + 3600, "%Y-%m-%dT%H:%M:%S+00:00"),
             "manual_resume": False, "methods": "", "subject": "", "subject_fail": "",
             "start_kw": "", "success_kw": "", "failure_kw": "", "filter_subject": False,
             "filter_body": False, "filter_http_body": False, "filter_default_fail": False,
             "badge_url": "https://healthchecks.io/b/2/%s.svg" % hid(12, self.id, a.seed, "badge", i)}
        if i % 4 == 1:
            d["last_duration"] = 12
        if i % 3 == 2:
            d["schedule"], d["tz"] = "*/5 * * * *", "UTC"
        else:
            d["timeout"] = (3600, 86400)[i % 2]
        if readonly:
            d["unique_key"] = hashlib.sha1(cid.encode()).hexdigest()
        else:
            d.update({"uuid": cid, "ping_url": "https://hc-ping.com/%s" % cid,
                      "update_url": "%s/api/v3/checks/%s" % (root, cid),
                      "pause_url": "%s/api/v3/checks/%s/pause" % (root, cid),
                      "resume_url": "%s/api/v3/checks/%s/resume" % (root, cid),
                      "channels": self.ext_id(a, "contacts", i % nc) if nc else ""})
            if nc > 1 and i % 3 == 0:
                d["channels"] += "," + self.ext_id(a, "contacts", (i + 1) % nc)
        return d

    def channel(self, a, j):
        return {"id": self.ext_id(a, "contacts", j), "name": "%s Contact %d" % (a.prefix(j), j + 1),
                "kind": self.KINDS[j % len(self.KINDS)]}


# --------------------------------------------------------------------------------------------
# 7. Cronitor

class Cronitor(Provider):
    id = "cronitor"
    kinds = {"monitors": 12, "heartbeats": 2, "contacts": 3, "status_pages": 1}
    aliases = {"notification_lists": "contacts", "templates": "contacts", "statuspages": "status_pages"}
    required = ("api_key",)
    PAGE = 50

    def mbase(self, a):
        return self.base(a, "monitors", 36 ** 5, 100, 1_000_000)

    def key_of(self, a, g):
        return b36(self.mbase(a) + g)

    def tkey(self, a, j):
        return "default" if j == 0 else "contacts-%d" % (j + 1)

    def skey(self, a, j):
        return "sp_%s" % hid(12, self.id, a.seed, "sp", j)

    def ext_id(self, a, kind, i):
        if kind == "monitors":
            return self.key_of(a, i)
        if kind == "heartbeats":
            return self.key_of(a, a.n("monitors") + i)
        if kind == "contacts":
            return self.tkey(a, i)
        return self.skey(a, i)

    def bad_key(self, req):
        return jreply(403, {"error": "Invalid API key"})

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        bu = basic_user(req)
        if a is None or not bu or bu[0] != a.credentials["api_key"]:
            return self.bad_key(req)
        rel = req.rel.rstrip("/")
        page, size = page_params(req.q("page"), req.q("pageSize"), self.PAGE, 1000)
        if rel == "/api/monitors":
            total = a.n("monitors") + a.n("heartbeats")
            idx = range((page - 1) * size, min(total, page * size))
            return jreply(200, {"monitors": [self.monitor(a, g) for g in idx], "page_size": size,
                                "page": str(page), "total_monitor_count": total, "version": "2020-10-01"})
        m = re.fullmatch(r"/api/monitors/([0-9a-z_-]+)", rel)
        if m:
            g = int(m.group(1), 36) - self.mbase(a) if re.fullmatch(r"[0-9a-z]+", m.group(1)) else -1
            if not 0 <= g < a.n("monitors") + a.n("heartbeats"):
                return jreply(404, {"error": "Monitor not found"})
            return jreply(200, self.monitor(a, g))
        if rel == "/api/notifications":
            n = a.n("contacts")
            idx = range((page - 1) * size, min(n, page * size))
            return jreply(200, {"templates": [self.template(a, j) for j in idx], "page": page,
                                "page_size": size, "total_count": n})
        if rel == "/api/statuspages":
            n = a.n("status_pages")
            idx = range((page - 1) * size, min(n, page * size))
            with_c = truthy(req.q("withComponents", "false"))
            return jreply(200, {"data": [self.statuspage(a, j, with_c) for j in idx], "page": page,
                                "page_size": size, "total_count": n})
        return self.not_found(req)

    def monitor(self, a, g):
        nm, nc = a.n("monitors"), a.n("contacts")
        hb = g >= nm
        i = g - nm if hb else g
        key = self.key_of(a, g)
        paused = a.paused(i)
        if hb:
            t = ("job", "heartbeat")[i % 2]
            name = "%s Heartbeat %d" % (a.prefix(i), i + 1)
            schedule = "0 3 * * *" if t == "job" else "every 1 hour"
        else:
            t = ("check", "site")[i % 2] if i % 4 != 3 else "check"
            name = "%s Monitor %d" % (a.prefix(i), i + 1)
            schedule = ("every 60 seconds", "every 5 minutes")[i % 2]
        passing = not (i % 7 == 6)
        d = {"key": key, "name": name, "type": t, "schedule": schedule, "timezone": "UTC",
             "passing": passing, "paused": paused, "disabled": False, "initialized": True,
             "running": False, "grace_seconds": (3600, 300)[i % 2] if hb else 0, "group": None,
             "tags": ["demo"], "notify": [self.tkey(a, g % nc)] if nc else [],
             "assertions": ["job.completes every 1 day"] if t == "job" else
             (["response.code = 200"] if not hb else []),
             "environments": ["production"], "next_expected_at": a.updated(i) + 3600,
             "created": tsfmt(a.created(g), "%Y-%m-%dT%H:%M:%S+00:00"),
             "latest_event": {"stamp": float(a.updated(i)), "event": "complete" if passing else "fail",
                              "metrics": {"duration": 1.5}},
             "latest_issue": None if passing else {"stamp": a.updated(i), "state": "unresolved"},
             "platform": "cron" if t == "job" else None}
        if not hb:
            host = "m%d.example.com" % (i + 1)
            d["request"] = {"url": "https://%s/" % host, "method": "GET", "timeout_seconds": 10,
                            "regions": ["us-east-1", "eu-central-1"], "headers": {}, "body": ""}
        return d

    def template(self, a, j):
        nm_all, nc = a.n("monitors") + a.n("heartbeats"), a.n("contacts")
        notifications = {"emails": [], "slack": [], "webhooks": [], "phones": [], "pagerduty": [],
                         "opsgenie": [], "victorops": [], "microsoft-teams": [], "telegram": []}
        kind = j % 3
        if kind == 0:
            notifications["emails"] = ["contact%d@example.com" % (j + 1)]
        elif kind == 1:
            notifications["slack"] = ["https://hooks.slack.com/services/T0/B0/%s" % hid(10, self.id, a.seed, "sl", j)]
        else:
            notifications["webhooks"] = ["https://hooks.example.com/cr/%d" % (j + 1)]
        monitors = [self.key_of(a, g) for g in range(j, min(nm_all, j + 1000 * nc), nc)] if nc else []
        return {"key": self.tkey(a, j), "name": "Default" if j == 0 else "%s Contact %d" % (a.prefix(j), j + 1),
                "notifications": notifications, "monitors": monitors,
                "created": tsfmt(a.created(j), "%Y-%m-%dT%H:%M:%S+00:00")}

    def statuspage(self, a, j, with_components):
        key = self.skey(a, j)
        d = {"key": key, "name": "%s Status Page %d" % (a.prefix(j), j + 1),
             "hosted_subdomain": "demo-%d-%s" % (j + 1, hid(4, self.id, a.seed, j)), "status": "operational",
             "access": "public", "created": tsfmt(a.created(j), "%Y-%m-%dT%H:%M:%S+00:00")}
        if with_components:
            total = a.n("monitors") + a.n("heartbeats")
            comps = []
            for k in range(min(5, total)):
                g = (j * 5 + k) % total
                comps.append({"key": "comp_%s" % hid(10, self.id, a.seed, j, k), "name": self.monitor(a, g)["name"],
                              "monitor": self.key_of(a, g), "statuspage": key, "autopublish": False,
                              "description": None})
            d["components"] = comps
        return d


# --------------------------------------------------------------------------------------------
# 8. Atlassian Statuspage v1

class Statuspage(Provider):
    id = "statuspage"
    kinds = {"status_pages": 1, "components": 12, "subscribers": 3}
    aliases = {"pages": "status_pages", "monitors": "components", "contacts": "subscribers"}
    required = ("api_key",)
    optional = ("page_id",)
    STATUSES = ("operational", "operational", "degraded_performance", "operational",
                "partial_outage", "operational", "major_outage")
    MODES = ("email", "sms", "webhook", "slack")

    def rate_limit_status(self, a):
        return (a.options.get("rate_limit_status") if a else None) or 420

    def page_id(self, a, p):
        return hid(12, self.id, a.seed, "page", p)

    def ext_id(self, a, kind, i, p=0):
        if kind == "status_pages":
            return self.page_id(a, i)
        return hid(12, self.id, a.seed, kind, p, i)

    def summary_extra(self, a):
        pages = [self.page_id(a, p) for p in range(min(a.n("status_pages"), 1000))]
        return {"page_ids": pages}

    def bad_key(self, req):
        return jreply(401, {"error": "Could not authenticate"})

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return Reply(status, obj={"error": "Rate limit exceeded"}, headers=headers,
                     reason="Enhance Your Calm" if status == 420 else None)

    def server_error(self, req, status):
        return jreply(status, {"message": "Internal Server Error"})

    def not_found(self, req):
        return jreply(404, {"message": "Not Found"})

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        auth = req.header("Authorization", "")
        m = re.match(r"(?i)oauth\s+(.+)$", auth.strip())
        key = m.group(1).strip() if m else req.q("api_key")
        if a is None or not key or key != a.credentials["api_key"]:
            return self.bad_key(req)
        rel = re.sub(r"\.json$", "", req.rel)
        if rel == "/v1/pages":
            return jreply(200, [self.page(a, p) for p in range(a.n("status_pages"))])
        m = re.fullmatch(r"/v1/pages/([0-9a-z]+)(?:/([a-z-]+))?", rel)
        if not m:
            return self.not_found(req)
        p = self.page_index(a, m.group(1))
        if p is None:
            return jreply(404, {"message": "Page not found"})
        sub = m.group(2)
        if sub is None:
            return jreply(200, self.page(a, p))
        if sub == "components":
            page, per = page_params(req.q("page"), req.q("per_page"), 100, 100)
            n = a.n("components")
            idx = range((page - 1) * per, min(n, page * per))
            return jreply(200, [self.component(a, p, i) for i in idx])
        if sub == "subscribers":
            page, limit = page_params(req.q("page"), req.q("limit"), 100, 100, first=0)
            n = a.n("subscribers")
            state = req.q("state", "active")
            mode = req.q("type")
            if state not in ("active", "all") or (mode and mode not in self.MODES):
                sel = []
            elif mode:
                sel = [j for j in range(n) if self.MODES[j % len(self.MODES)] == mode]
            else:
                sel = range(n)
            idx = sel[page * limit:(page + 1) * limit]
            return jreply(200, [self.subscriber(a, p, j) for j in idx])
        if sub in ("component-groups", "incidents"):
            return jreply(200, [])
        return self.not_found(req)

    def page_index(self, a, pid):
        for p in range(min(a.n("status_pages"), 100_000)):
            if self.page_id(a, p) == pid:
                return p
        return None

    def page(self, a, p):
        pid = self.page_id(a, p)
        sub = "demo-%d-%s" % (p + 1, pid[:4])
        return {"id": pid, "created_at": iso_ms(a.created(p)), "updated_at": iso_ms(a.updated(p)),
                "name": "%s Status Page %d" % (a.prefix(p), p + 1), "page_description": None,
                "headline": None, "branding": "basic", "subdomain": sub, "domain": None,
                "url": "https://%s.statuspage.io" % sub, "support_url": None, "hidden_from_search": False,
                "allow_page_subscribers": True, "allow_incident_subscribers": True,
                "allow_email_subscribers": True, "allow_sms_subscribers": True,
                "allow_rss_atom_feeds": True, "allow_webhook_subscribers": True,
                "notifications_from_email": None, "notifications_email_footer": None,
                "activity_score": 0, "twitter_username": None, "viewers_must_be_team_members": p % 3 == 2,
                "ip_restrictions": None, "city": None, "state": None, "country": None,
                "time_zone": "Etc/UTC", "css_body_background_color": "#ffffff",
                "css_font_color": "#333333", "css_light_font_color": "#757575",
                "css_greens": "#2fcc66", "css_yellows": "#f1c40f", "css_oranges": "#e67e22",
                "css_blues": "#3498db", "css_reds": "#e74c3c", "css_border_color": "#ecf0f1",
                "css_graph_color": "#3498db", "css_link_color": "#3498db", "css_no_data": "#b3bac5",
                "favicon_logo": None, "transactional_logo": None, "hero_cover": None,
                "email_logo": None, "twitter_logo": None}

    def component(self, a, p, i):
        cid = self.ext_id(a, "components", i, p)
        status = "under_maintenance" if a.paused(i) else self.STATUSES[i % len(self.STATUSES)]
        return {"id": cid, "page_id": self.page_id(a, p), "group_id": None,
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i)), "group": False,
                "name": "%s Component %d" % (a.prefix(i), i + 1), "description": None if i % 2 else "Generated",
                "position": i + 1, "status": status, "showcase": True, "only_show_if_degraded": False,
                "automation_email": "component+%s@notifications.statuspage.io" % cid,
                "start_date": day(a.created(i))}

    def subscriber(self, a, p, j):
        mode = self.MODES[j % len(self.MODES)]
        nco = a.n("components")
        d = {"id": self.ext_id(a, "subscribers", j, p), "skip_confirmation_notification": False,
             "mode": mode, "email": None, "endpoint": None, "phone_number": None, "phone_country": None,
             "display_phone_number": None, "obfuscated_channel_name": None, "workspace_name": None,
             "quarantined_at": None, "purge_at": None,
             "components": [self.ext_id(a, "components", j % nco, p)] if nco and j % 2 else [],
             "page_access_user_id": None, "created_at": iso_ms(a.created(j))}
        if mode == "email":
            d["email"] = "subscriber%d@example.com" % (j + 1)
        elif mode == "sms":
            d.update({"phone_number": "555%07d" % j, "phone_country": "US",
                      "display_phone_number": "+1 555-%03d-%04d" % (j // 10000 % 1000, j % 10000)})
        elif mode == "webhook":
            d["endpoint"] = "https://hooks.example.com/sp/%d" % (j + 1)
            d["email"] = "owner%d@example.com" % (j + 1)
        else:
            d.update({"obfuscated_channel_name": "#a***s-%d" % (j + 1), "workspace_name": "Demo"})
        return d


# --------------------------------------------------------------------------------------------
# 9. WHMCS External API

class Whmcs(Provider):
    id = "whmcs"
    kinds = {"clients": 3, "services": 4, "domains": 2, "invoices": 5}
    aliases = {"products": "services"}
    required = ("api_identifier", "api_secret")
    optional = ("url", "access_key")
    rl_default = 100000
    SVC_STATUS = ("Active", "Active", "Suspended", "Pending", "Terminated", "Cancelled")
    DOM_STATUS = ("Active", "Active", "Pending", "Expired", "Cancelled", "Grace")
    INV_STATUS = ("Paid", "Unpaid", "Paid", "Cancelled", "Refunded", "Collections")
    CYCLES = ("Monthly", "Annually", "Quarterly", "Free Account", "Semi-Annually")

    def demo_credentials(self):
        return dict(DEMO_WHMCS)

    def match_action(self, req):
        return req.p("action") or ""

    def kb(self, a, kind):
        return self.base(a, kind, 1, 100, 100_000)

    def ext_id(self, a, kind, i):
        v = self.kb(a, kind) + i
        return v if kind == "clients" else str(v)

    def err(self, status, msg):
        return jreply(status, {"result": "error", "message": msg})

    def bad_key(self, req):
        return self.err(403, "Authentication Failed")

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return Reply(status, body=b"<html><body><h1>429 Too Many Requests</h1></body></html>\n",
                     headers=headers, ctype="text/html; charset=utf-8")

    def server_error(self, req, status):
        return Reply(status, body=b"<html><body><h1>Oops! Something went wrong.</h1></body></html>\n",
                     ctype="text/html; charset=utf-8")

    def handle(self, req, a):
        if req.rel != "/includes/api.php":
            return Reply(404, body=b"<html><body><h1>404 Not Found</h1></body></html>\n",
                         ctype="text/html; charset=utf-8")
        if req.method != "POST":
            return self.err(405, "Method Not Allowed")
        ident = req.f("identifier") or req.f("username")
        secret = req.f("secret") or req.f("password")
        if a is None or not ident or ident != a.credentials["api_identifier"]:
            return self.err(403, "Invalid or missing credentials")
        if secret != a.credentials["api_secret"]:
            return self.bad_key(req)
        ak = a.credentials.get("access_key")
        if ak:
            sent = req.f("accesskey")
            if sent is None:
                return self.err(403, "Invalid IP %s" % "127.0.0.1")
            if sent != ak:
                return self.err(403, "Invalid Access Key")
        action = (req.f("action") or "").lower()
        routes = {"getclients": self.get_clients, "getclientsproducts": self.get_products,
                  "getclientsdomains": self.get_domains, "getinvoices": self.get_invoices}
        if action not in routes:
            return self.err(200, "Command Not Found")
        return routes[action](req, a)

    def window(self, req, a, total, default, unlimited_default=False):
        ls = to_int(req.f("limitstart"), 0)
        ln = to_int(req.f("limitnum"), None)
        if ls is None or ls < 0:
            ls = 0
        if ln is None or ln <= 0:
            ln = total if unlimited_default else default
        cap = a.options.get("limitnum_cap")
        if cap:
            ln = min(ln, cap)
        return ls, ln

    def listing(self, plural, singular, items, total, ls, empty, as_str):
        resp = {"result": "success"}
        for k, v in (("totalresults", total), ("startnumber", ls), ("numreturned", len(items))):
            resp[k] = str(v) if k in as_str else v
        if items:
            resp[plural] = {singular: items}
        elif empty is not None:
            resp[plural] = empty
        return jreply(200, resp)

    def client_of(self, a, k):
        nc = a.n("clients")
        return k % nc if nc else None

    def filtered(self, a, req, kind, n, client_param):
        """Indexes of kind matching the request's client and id filters (lazy ranges when possible)."""
        nc = a.n("clients")
        idx = range(n)
        cid = to_int(req.f(client_param))
        if req.f(client_param) not in (None, ""):
            c = (cid or 0) - self.kb(a, "clients")
            idx = range(c, n, nc) if nc and 0 <= c < nc else range(0)
        id_param = {"services": "serviceid", "domains": "domainid", "invoices": None}[kind]
        if id_param and req.f(id_param) not in (None, ""):
            k = (to_int(req.f(id_param)) or 0) - self.kb(a, kind)
            idx = [k] if k in idx else []
        return idx

    def get_clients(self, req, a):
        n = a.n("clients")
        ls, ln = self.window(req, a, n, 25)
        status = req.f("status")
        search = (req.f("search") or "").lower()
        idx = range(n)
        if status or search:
            idx = [i for i in idx if (not status or self.client(a, i)["status"] == status)
                   and (not search or search in self.client(a, i)["email"]
                        or search in self.client(a, i)["firstname"].lower())]
        items = [self.client(a, i) for i in idx[ls:ls + ln]]
        return self.listing("clients", "client", items, len(idx), ls, None, ())

    def client(self, a, i):
        status = "Inactive" if a.paused(i) else ("Closed" if i % 11 == 10 else "Active")
        return {"id": self.kb(a, "clients") + i, "firstname": a.prefix(i), "lastname": "Client %d" % (i + 1),
                "companyname": "%s Hosting Co %d" % (a.prefix(i), i + 1) if i % 2 == 0 else "",
                "email": "client%d@example.com" % (i + 1), "datecreated": day(BASE_TS - 400 * 86400 + i * 86400),
                "groupid": 0, "status": status}

    def get_products(self, req, a):
        idx = self.filtered(a, req, "services", a.n("services"), "clientid")
        pid = req.f("pid")
        if pid not in (None, ""):
            idx = [k for k in idx if str(1 + k % 3) == pid]
        ls, ln = self.window(req, a, len(idx), 25, unlimited_default=True)
        items = [self.service(a, k) for k in idx[ls:ls + ln]]
        return self.listing("products", "product", items, len(idx), ls, "", ("totalresults",))

    def service(self, a, k):
        c = self.client_of(a, k)
        cid = str(self.kb(a, "clients") + c) if c is not None else "0"
        amount = ("12.95", "129.50", "35.85", "0.00", "64.75")[k % 5]
        reg = a.created(k) - 300 * 86400
        return {"id": str(self.kb(a, "services") + k), "clientid": cid, "orderid": str(1000 + k),
                "ordernumber": str(4_000_000_000 + k), "pid": str(1 + k % 3), "regdate": day(reg),
                "name": "%s Hosting Plan %d" % (a.prefix(k), 1 + k % 3),
                "translated_name": "%s Hosting Plan %d" % (a.prefix(k), 1 + k % 3),
                "groupname": "Shared Hosting", "translated_groupname": "Shared Hosting",
                "domain": "svc%d.client%s.example.com" % (k + 1, (c or 0) + 1), "dedicatedip": "",
                "serverid": "1", "servername": "server1", "serverip": "192.0.2.10",
                "serverhostname": "server1.example.com", "suspensionreason": "",
                "firstpaymentamount": amount, "recurringamount": amount, "paymentmethod": "paypal",
                "paymentmethodname": "PayPal", "billingcycle": self.CYCLES[k % len(self.CYCLES)],
                "nextduedate": day(reg + 400 * 86400), "status": self.SVC_STATUS[k % len(self.SVC_STATUS)],
                "username": "user%d" % (k + 1), "subscriptionid": "", "promoid": "0",
                "overideautosuspend": "0", "overidesuspenduntil": "0000-00-00", "ns1": "", "ns2": "",
                "assignedips": "", "notes": "", "diskusage": "0", "disklimit": "0", "bwusage": "0",
                "bwlimit": "0", "lastupdate": "0000-00-00 00:00:00",
                "customfields": {"customfield": []}, "configoptions": {"configoption": []}}

    def get_domains(self, req, a):
        idx = self.filtered(a, req, "domains", a.n("domains"), "clientid")
        dom = req.f("domain")
        if dom:
            idx = [d for d in idx if self.domain_name(a, d) == dom]
        ls, ln = self.window(req, a, len(idx), 25)
        items = [self.domain(a, d) for d in idx[ls:ls + ln]]
        return self.listing("domains", "domain", items, len(idx), ls, "",
                            ("totalresults", "startnumber", "numreturned"))

    def domain_name(self, a, d):
        return "client%d-site%d.example.com" % ((self.client_of(a, d) or 0) + 1, d + 1)

    def domain(self, a, d):
        c = self.client_of(a, d)
        reg = a.created(d) - 200 * 86400
        return {"id": str(self.kb(a, "domains") + d),
                "userid": str(self.kb(a, "clients") + c) if c is not None else "0",
                "orderid": str(2000 + d), "regtype": "Register", "domainname": self.domain_name(a, d),
                "registrar": ("enom", "resellerclub")[d % 2], "regperiod": "1",
                "firstpaymentamount": "10.95", "recurringamount": "12.95", "paymentmethod": "paypal",
                "paymentmethodname": "PayPal", "regdate": day(reg), "expirydate": day(reg + 365 * 86400),
                "nextduedate": day(reg + 351 * 86400), "status": self.DOM_STATUS[d % len(self.DOM_STATUS)],
                "subscriptionid": "", "promoid": "0", "dnsmanagement": "0", "emailforwarding": "0",
                "idprotection": "1" if d % 3 == 0 else "0", "donotrenew": "0", "notes": ""}

    def get_invoices(self, req, a):
        idx = self.filtered(a, req, "invoices", a.n("invoices"), "userid")
        status = req.f("status")
        if status:
            idx = [v for v in idx if self.inv_status(v) == status]
        ls, ln = self.window(req, a, len(idx), 25)
        items = [self.invoice(a, v) for v in idx[ls:ls + ln]]
        return self.listing("invoices", "invoice", items, len(idx), ls, [], ())

    def inv_status(self, v):
        return self.INV_STATUS[v % len(self.INV_STATUS)]

    def invoice(self, a, v):
        c = self.client_of(a, v)
        cl = self.client(a, c) if c is not None else {"firstname": "", "lastname": "", "companyname": ""}
        status = self.inv_status(v)
        date = a.created(v) - 60 * 86400
        sub = ("12.95", "129.50", "35.85", "24.95", "10.95")[v % 5]
        return {"id": str(self.kb(a, "invoices") + v),
                "userid": str(self.kb(a, "clients") + c) if c is not None else "0",
                "firstname": cl["firstname"], "lastname": cl["lastname"], "companyname": cl["companyname"],
                "invoicenum": "INV-%d" % (self.kb(a, "invoices") + v) if v % 2 == 0 else "",
                "date": day(date), "duedate": day(date + 14 * 86400),
                "datepaid": tsfmt(date + 86400, "%Y-%m-%d %H:%M:%S") if status == "Paid" else "0000-00-00 00:00:00",
                "last_capture_attempt": "0000-00-00 00:00:00", "subtotal": sub, "credit": "0.00",
                "tax": "0.00", "tax2": "0.00", "total": sub, "taxrate": "0.00", "taxrate2": "0.00",
                "status": status, "paymentmethod": "paypal", "notes": "", "currencycode": "USD",
                "currencyprefix": "$", "currencysuffix": " USD",
                "created_at": tsfmt(date, "%Y-%m-%d %H:%M:%S"), "updated_at": tsfmt(a.updated(v), "%Y-%m-%d %H:%M:%S")}


PROVIDERS = {p.id: p for p in (UptimeRobot(), Pingdom(), StatusCake(), BetterStack(), Updown(),
                               Healthchecks(), Cronitor(), Statuspage(), Whmcs())}


# --------------------------------------------------------------------------------------------
# Shared state: accounts, faults, rate counters, request log

FAULT_KINDS = {"429", "420", "500", "502", "503", "504", "slow", "truncated", "bad_json", "bad_key",
               "empty", "reset"}


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.accounts = {}
        self.faults = {pid: [] for pid in PROVIDERS}
        self.log = deque(maxlen=LOG_MAX)
        self.rate = {}

    def reset(self):
        with self.lock:
            self.accounts.clear()
            for v in self.faults.values():
                v.clear()
            self.log.clear()
            self.rate.clear()

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
                    elif action and m.lower() in {"getclients", "getclientsproducts", "getclientsdomains",
                                                  "getinvoices"}:
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
        kind = fault["kind"] if fault else None
        reply = None
        if fault:
            reply = self.apply_fault(prov, req, acct, fault, rl)
        elif rl["exceeded"]:
            reply = prov.rate_limited(req, prov.rate_limit_status(acct), str(rl["reset_in"]))
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
        if kind not in ("reset", "bad_json", "empty", "truncated") and reply.status < 500:
            for k, v in prov.limit_headers(rl):
                if not reply.has_header(k):
                    reply.headers.append((k, v))
        self.stderr_line(path, reply.status, " fault=%s" % kind if kind else "")
        self.send(reply)

    def apply_fault(self, prov, req, acct, fault, rl):
        kind = fault["kind"]
        if kind in ("429", "420"):
            status = to_int(fault.get("status")) or (420 if kind == "420" else prov.rate_limit_status(acct))
            return prov.rate_limited(req, status, retry_header(fault))
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
        if kind == "bad_key":
            return prov.bad_key(req)
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
