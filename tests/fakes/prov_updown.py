"""Fake updown.io for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


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
