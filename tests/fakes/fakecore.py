#!/usr/bin/env python3
"""fakecore: what every fake provider module shares (tests/fakes/prov_*.py):
id and time helpers, the request and reply types, generated accounts and the
Provider base class.  Python 3 standard library only.
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
        for key in ("rate_limit", "rate_window", "limitnum_cap", "rate_limit_status", "rolling_window", "team_name",
                    "refuse"):
            if key in spec:
                opts = {**opts, key: spec[key]}
        for key, v in opts.items():
            if key in ("rate_limit", "rate_window", "limitnum_cap", "rate_limit_status", "rolling_window"):
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
    rolling_default = 0     # option rolling_window's default (0: no rolling window)

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

    def refused(self, a, kind):
        """Whether the account's "refuse" option (a kind or a list of kinds) names kind."""
        r = a.options.get("refuse") or []
        return kind in (r if isinstance(r, list) else [r])

    def base(self, a, kind, lo, buckets, spacing):
        return lo + (h64(self.id, kind, a.seed) % buckets) * spacing

    # Hooks each provider overrides.
    def handle(self, req, a):
        raise NotImplementedError

    def bad_key(self, req):
        raise NotImplementedError

    def rate_limited(self, req, status, retry_hdr, reset_in):
        """The provider's rate-limit answer: retry_hdr is the Retry-After value (None: left out),
        reset_in the seconds until the window resets, for the provider's own headers."""
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return jreply(status, {"error": "Too Many Requests"}, headers)

    def server_error(self, req, status):
        return jreply(status, {"error": "Internal Server Error"})

    def endless(self, req, a):
        """Fault `endless`: a list whose paging never ends. Providers that serve it override this."""
        return jreply(501, {"error": "fault endless: not served by the %s fake" % self.id})

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
