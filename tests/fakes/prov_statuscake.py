"""Fake StatusCake v1 for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


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
