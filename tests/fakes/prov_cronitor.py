"""Fake Cronitor for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


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
