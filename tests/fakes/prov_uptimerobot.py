"""Fake UptimeRobot v2 for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


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
