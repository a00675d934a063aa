"""Fake Pingdom 3.1 for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


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
