"""Fake Cronitor for fakeprov.py: its real wire format (providers.md §7; sources cited per shape).

Sources: cronitor.io/docs/{api,monitors-api,statuspages-api,maintenance-windows-api} ("docs" below),
the official CLI cronitorio/cronitor-cli (cmd/notification.go, cmd/statuspage.go, cmd/maintenance.go;
"CLI"), cronitorio/agent-skills cronitor/references/monitor-yaml.md (the monitors-api attribute list;
"monitor-yaml"), the gonace/Cronitor fixture that providers.md §7.2 restates, and a live answer of
GET /api/monitors/<key> posted at pastebin.com/mw1sDMgd ("live answer": "realert_interval": "every 8
hours", "failure_tolerance": null, "consecutive_alert_threshold": 1000; one answer, weak).

Generated data (every value from the item's index, so tests can predict it; see README.md):
* check i (kind "monitors"; a `site` when i % 6 == 5): http(s) URL with path, query and a port when
  i % 3 == 0, a TCP check when i % 6 == 4; method, body, headers, timeout, redirects, TLS, regions,
  tags, assertions (keyword present/absent, expected code, certificate days, and the others of
  CHECK_ASSERTIONS), alert timing (ALERT_TIMING), a basic-auth login as an Authorization header when
  i % 4 == 1 (basic_login(i)) and notify in one of four forms (list key, list key + direct e-mail, the
  map form with a direct Slack channel, omitted).
* heartbeat j (after the checks in the list): `job` (cron schedule) or `heartbeat` ("every N
  minutes"), with a time zone, grace, tags, notify and a re-alert interval (JOB_REALERT).
* notification list t: key `default` (t = 0) or `list-<t+1>`, targets of several kinds by t.
* status page s with monitor and group components (withComponents=true); maintenance window k.
Account options: "refuse": a list among "monitors", "notifications", "statuspages", "maintenance"
answered 403 as for a key without that scope; "new_fields": {name: value} adds those members to every
monitor (fields a later Cronitor version may add).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)

REGIONS = ("us-east-1", "eu-central-1", "ap-southeast-2", "us-west-2")
METHODS = ("GET", "POST", "HEAD", "PUT")
SCHEDULES = ("every 60 seconds", "every 5 minutes", "every 30 seconds", "every 1 hour")
INTERVALS = (60, 300, 30, 3600)
TIMEZONES = ("Europe/Stockholm", "America/New_York", "UTC", "Asia/Tokyo")


def realert_text(i):
    """realert_interval of check i: the live answer's "every 8 hours", or monitor-yaml's "<n> hours"."""
    return "every 8 hours" if i % 2 == 0 else "%d hours" % (1 + i % 4)


def check_assertions(i, https):
    """The assertions of an HTTP check i beyond the code: monitor-api's subjects and operators
    ("{assertion} {operator} {value}", "{assertion} {key} {operator} {value}" for response.json and
    response.header)."""
    out = []
    if i % 3 == 0:
        out.append('response.body contains "OK-%d"' % (i + 1))
    elif i % 3 == 1:
        out.append('response.body !contains "Error %d"' % (i + 1))
    if https:
        out.append("ssl_certificate.expires_in > %d days" % (7 * (1 + i % 3)))
    if i % 5 == 0:
        out.append("response.time < 2s")
    if i % 4 == 2:
        out.append("response.json status.ok = true")
    if i % 3 == 2:
        out.append("response.header Content-Type contains json")
    if i % 7 == 3:
        out.append("response.code < 400")
    return out


def basic_login(i):
    """(user, password) of the basic-auth login check i sends in its Authorization header, or None."""
    return ("probe%d" % (i + 1), "pw:%d s3cret" % (i + 1)) if i % 4 == 1 else None


class Cronitor(Provider):
    id = "cronitor"
    kinds = {"monitors": 12, "heartbeats": 2, "contacts": 3, "status_pages": 1, "maintenance": 2}
    aliases = {"notification_lists": "contacts", "templates": "contacts", "statuspages": "status_pages",
               "maintenance_windows": "maintenance"}
    required = ("api_key",)
    PAGE = 50

    def mbase(self, a):
        return self.base(a, "monitors", 36 ** 5, 100, 1_000_000)

    def key_of(self, a, g):
        return b36(self.mbase(a) + g)

    def tkey(self, a, t):
        return "default" if t == 0 else "list-%d" % (t + 1)

    def skey(self, a, s):
        return "sp_%s" % hid(12, self.id, a.seed, "sp", s)

    def wkey(self, a, k):
        return "mw_%s" % hid(12, self.id, a.seed, "mw", k)

    def ext_id(self, a, kind, i):
        if kind == "monitors":
            return self.key_of(a, i)
        if kind == "heartbeats":
            return self.key_of(a, a.n("monitors") + i)
        if kind == "contacts":
            return self.tkey(a, i)
        if kind == "maintenance":
            return self.wkey(a, i)
        return self.skey(a, i)

    # shape: the CLI's invalid-key fixture, 403 {"error":"Invalid API key"} (providers.md §7.3)
    def bad_key(self, req):
        return jreply(403, {"error": "Invalid API key"})

    # shape: a key without the resource's scope is refused with 403 (docs/api "API Key Scopes"); the
    # body is unconfirmed (providers.md §11), one of the error forms of §7.3
    def forbidden(self):
        return jreply(403, {"detail": "You do not have permission to perform this action."})

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        bu = basic_user(req)
        if a is None or not bu or bu[0] != a.credentials["api_key"]:
            return self.bad_key(req)
        rel = req.rel.rstrip("/")
        page, size = page_params(req.q("page"), req.q("pageSize"), self.PAGE, 1000)
        routes = {"/api/monitors": ("monitors", self.list_monitors),
                  "/api/notifications": ("notifications", self.list_templates),
                  "/api/statuspages": ("statuspages", self.list_statuspages),
                  "/api/maintenance_windows": ("maintenance", self.list_windows)}
        kind, fn = routes.get(rel, (None, None))
        m = re.fullmatch(r"/api/monitors/([0-9a-z_-]+)", rel)
        if m:
            kind, fn = "monitors", lambda req, a, page, size: self.one_monitor(a, m.group(1))
        if fn is None:
            return self.not_found(req)
        if self.refused(a, kind):
            return self.forbidden()
        return fn(req, a, page, size)

    @staticmethod
    def span(page, size, n):
        return range((page - 1) * size, min(n, page * size))

    # shape: gonace/Cronitor fixture (providers.md §7.2): "monitors" + "page" as a string, "page_size",
    # "total_monitor_count", "version"
    def list_monitors(self, req, a, page, size):
        total = a.n("monitors") + a.n("heartbeats")
        return jreply(200, {"monitors": [self.monitor(a, g) for g in self.span(page, size, total)],
                            "page_size": size, "page": str(page), "total_monitor_count": total,
                            "version": "2020-10-01"})

    def one_monitor(self, a, key):
        g = int(key, 36) - self.mbase(a) if re.fullmatch(r"[0-9a-z]+", key) else -1
        if not 0 <= g < a.n("monitors") + a.n("heartbeats"):
            return jreply(404, {"error": "Monitor not found"})
        return jreply(200, self.monitor(a, g))

    # ---- monitors

    def monitor(self, a, g):
        nm = a.n("monitors")
        d = self.heartbeat(a, g - nm) if g >= nm else self.check(a, g)
        if a.options.get("new_fields"):
            # fields a later Cronitor version may add, which no table of ours knows: providers add
            # fields over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])
        return d

    def common(self, a, key, i, name, t):
        # shape: gonace/Cronitor fixture; monitor-yaml attribute list
        passing = i % 7 != 6
        return {"key": key, "name": name, "type": t, "passing": passing, "paused": a.paused(i),
                "disabled": False, "initialized": True, "running": False, "group": None,
                "environments": ["production"], "next_expected_at": a.updated(i) + 3600,
                "created": tsfmt(a.created(i), "%Y-%m-%dT%H:%M:%S+00:00"),
                "latest_event": {"stamp": float(a.updated(i)), "event": "complete" if passing else "fail",
                                 "metrics": {"duration": 1.5}},
                "latest_issue": None if passing else {"stamp": a.updated(i), "state": "unresolved"}}

    def notify_check(self, a, i):
        # shape: monitor-yaml "notify": list keys, prefixed destinations, or {alerts, events}; omitted
        # = the default list
        nc = a.n("contacts")
        lst = self.tkey(a, i % nc) if nc else "default"
        form = i % 4
        if form == 0:
            return [lst]
        if form == 1:
            return [lst, "email:oncall%d@example.com" % (i + 1)]
        if form == 2:
            return {"alerts": [lst, "slack:#mon-%d" % (i + 1)], "events": {"complete": True}}
        return None

    def check(self, a, i):
        key = self.key_of(a, i)
        name = "%s Monitor %d" % (a.prefix(i), i + 1)
        if i % 6 == 5:
            # shape: monitor-yaml / providers.md §7.2: a site is real-user monitoring (no probe)
            d = self.common(a, key, i, name, "site")
            d.update({"tags": ["demo"], "assertions": [], "notify": ["default"]})
            return d
        d = self.common(a, key, i, name, "check")
        host = "m%d.example.com" % (i + 1)
        assertions = ["response.code = 200"]
        if i % 6 == 4:
            # shape: monitor-yaml "platform" tcp, request.url with the host and port
            req = {"url": "tcp://%s:%d" % (host, 5432 + i), "timeout_seconds": 5 + i % 10}
            d["platform"] = "tcp"
            assertions = []
        else:
            https = i % 2 == 0
            port = (":8443" if https else ":8080") if i % 3 == 0 else ""
            url = "%s://%s%s/health/%d?probe=cronitor&v=%d" % ("https" if https else "http", host, port,
                                                              i + 1, i % 3)
            method = METHODS[i % 4]
            headers = {"X-Check": "c%d" % (i + 1)}
            if i % 2 == 1:
                headers["Accept"] = "application/json"
            if i % 4 == 3:
                headers["Authorization"] = "Bearer cr-token-%d" % (i + 1)  # a secret the check sends
            if basic_login(i):
                # shape: monitor-yaml "request.headers" (any header): HTTP basic auth (RFC 7617)
                headers["Authorization"] = "Basic " + base64.b64encode(
                    ("%s:%s" % basic_login(i)).encode()).decode()
            # shape: monitor-yaml "request": url, method, body, headers, cookies, timeout_seconds
            # (1-15), follow_redirects, verify_ssl
            req = {"url": url, "method": method, "headers": headers, "cookies": {},
                   "body": '{"check":%d}' % (i + 1) if method in ("POST", "PUT") else "",
                   "timeout_seconds": 5 + i % 10, "follow_redirects": i % 3 != 1, "verify_ssl": i % 5 != 4}
            d["platform"] = "http"
            # shape: docs monitors-api assertions
            assertions += check_assertions(i, https)
        # shape: monitor-api grace_seconds (default 0 for a check), monitor-yaml failure_tolerance and
        # realert_interval, the live answer's realert_interval and consecutive_alert_threshold
        d.update({"schedule": SCHEDULES[i % 4], "request": req, "assertions": assertions,
                  "regions": [REGIONS[i % 4], REGIONS[(i + 1) % 4]], "tags": ["demo", "tier-%d" % (i % 3)],
                  "grace_seconds": 30 * (i % 4), "failure_tolerance": i % 3, "realert_interval": realert_text(i),
                  "consecutive_alert_threshold": 1000})
        if i % 4 == 0:
            d["note"] = "Runbook: https://wiki.example.com/m%d" % (i + 1)  # shape: monitor-yaml "note"
        notify = self.notify_check(a, i)
        if notify is not None:
            d["notify"] = notify
        return d

    def heartbeat(self, a, j):
        g = a.n("monitors") + j
        t = ("job", "heartbeat")[j % 2]
        d = self.common(a, self.key_of(a, g), j, "%s Heartbeat %d" % (a.prefix(j), j + 1), t)
        nc = a.n("contacts")
        # shape: monitor-yaml job/heartbeat: schedule (cron or interval), timezone, grace_seconds, tags
        d.update({"schedule": "%d %d * * *" % (j % 60, 2 + j % 20) if t == "job" else
                  "every %d minutes" % (5 * (1 + j % 4)),
                  "timezone": TIMEZONES[j % 4], "grace_seconds": (300, 600, 3600)[j % 3],
                  "tags": ["demo", "batch-%d" % (j % 2)],
                  "assertions": ["metric.duration < 15min"] if t == "job" else [],
                  "platform": "linux cron" if t == "job" else None})
        if t == "job":
            d["schedule_tolerance"] = 1  # shape: monitor-yaml "schedule_tolerance" (missed runs allowed)
        # shape: monitor-yaml "realert_interval" (all types) and "failure_tolerance" (job, heartbeat, check)
        d.update({"realert_interval": "%d hours" % (2 + j % 3), "failure_tolerance": j % 2})
        if j % 3 == 0:
            d["notify"] = [self.tkey(a, j % nc) if nc else "default"]
        elif j % 3 == 1:
            d["notify"] = ["email:jobs%d@example.com" % (j + 1)]
        return d

    # ---- notification lists

    # shape: providers.md §7.2 notification list; CLI cmd/notification.go ("templates", "notifications"
    # by channel, "monitors"); "page", "page_size", "total_count"
    def list_templates(self, req, a, page, size):
        n = a.n("contacts")
        return jreply(200, {"templates": [self.template(a, t) for t in self.span(page, size, n)],
                            "page": page, "page_size": size, "total_count": n})

    def targets(self, a, t):
        z = {"emails": ["contact%d@example.com" % (t + 1)], "slack": [], "webhooks": [], "phones": [],
             "pagerduty": [], "opsgenie": [], "victorops": [], "microsoft-teams": [], "telegram": []}
        if t % 2 == 0:
            z["emails"].append("ops@example.com")
        if t % 2 == 1:
            z["slack"].append("#alerts-%d" % (t + 1))
            z["phones"].append("+1555%07d" % t)
        if t % 3 == 2:
            z["webhooks"].append("https://hooks.example.com/cr/%d" % (t + 1))
        if t % 4 == 3:
            z["pagerduty"].append("pd%030d" % t)
        if t % 5 == 4:
            z["microsoft-teams"].append("https://example.webhook.office.com/webhookb2/%d" % t)
            z["telegram"].append("-100%d" % (1000 + t))
        if t % 6 == 5:
            z["opsgenie"].append("og-%d" % t)
        return z

    def template(self, a, t):
        nm_all, nc = a.n("monitors") + a.n("heartbeats"), a.n("contacts")
        monitors = [self.key_of(a, g) for g in range(t, min(nm_all, t + 1000 * nc), nc)] if nc else []
        return {"key": self.tkey(a, t), "name": "Default" if t == 0 else "%s Contacts %d" % (a.prefix(t), t + 1),
                "notifications": self.targets(a, t), "monitors": monitors,
                "created": tsfmt(a.created(t), "%Y-%m-%dT%H:%M:%S+00:00")}

    # ---- status pages

    # shape: docs statuspages-api "List Status Pages" response ("data", "page", "page_count",
    # "page_size", "total_count")
    def list_statuspages(self, req, a, page, size):
        n = a.n("status_pages")
        with_c = truthy(req.q("withComponents", "false"))
        return jreply(200, {"data": [self.statuspage(a, s, with_c) for s in self.span(page, size, n)],
                            "page": page, "page_count": max(1, -(-n // size)), "page_size": size,
                            "total_count": n})

    def statuspage(self, a, s, with_components):
        key = self.skey(a, s)
        # shape: docs statuspages-api status page object
        d = {"key": key, "name": "%s Status Page %d" % (a.prefix(s), s + 1),
             "website_url": "https://www.example.com", "support_url": None,
             "hosted_subdomain": "demo-%d-%s" % (s + 1, hid(4, self.id, a.seed, s)),
             "custom_domain": "status%d.example.com" % (s + 1) if s % 2 == 1 else None,
             "access": "private" if s % 3 == 2 else "public", "environment": "production", "logo_url": None,
             "allow_search_index": True, "enable_performance_metrics": True,
             "status": {"state": "operational"}, "created": tsfmt(a.created(s)), "updated": tsfmt(a.updated(s))}
        total = a.n("monitors") + a.n("heartbeats")
        comps = []
        for k in range(min(5, total)):
            g = (s * 5 + k) % total
            # shape: CLI cmd/statuspage.go component (key, name, type, statuspage, autopublish;
            # created with "monitor" or "group"); the withComponents form is unconfirmed (§7.2)
            comps.append({"key": "comp_%s" % hid(10, self.id, a.seed, s, k), "name": self.monitor(a, g)["name"],
                          "type": "monitor", "monitor": self.key_of(a, g), "statuspage": key,
                          "autopublish": False, "description": None})
        comps.append({"key": "comp_%s" % hid(10, self.id, a.seed, s, "g"), "name": "Production", "type": "group",
                      "group": "production", "statuspage": key, "autopublish": True, "description": None})
        d["components_count"] = len(comps)
        if with_components:
            d["components"] = comps
        return d

    # ---- maintenance windows

    # shape (unconfirmed, providers.md §7.2): CLI cmd/maintenance.go reads "data" of key, name, start,
    # end, state, duration; docs maintenance-windows-api names monitors, groups and statuspages
    def list_windows(self, req, a, page, size):
        n = a.n("maintenance")
        return jreply(200, {"data": [self.window(a, k) for k in self.span(page, size, n)], "page": page,
                            "page_size": size, "total_count": n})

    def window_monitors(self, a, k):
        nm, nh = a.n("monitors"), a.n("heartbeats")
        keys = [self.key_of(a, (2 * k + j) % nm) for j in range(2)] if nm else []
        if nh:
            keys.append(self.key_of(a, nm + k % nh))
        return list(dict.fromkeys(keys))

    def window(self, a, k):
        start = BASE_TS + 86400 * (k + 1) + 7200
        hours = 1 + k % 3
        return {"key": self.wkey(a, k), "name": "%s Maintenance %d" % (a.prefix(k), k + 1),
                "description": "Planned work %d" % (k + 1), "start": tsfmt(start), "end": tsfmt(start + 3600 * hours),
                "duration": 60 * hours, "state": "upcoming", "monitors": self.window_monitors(a, k),
                "groups": ["production"] if k % 2 == 1 else [],
                "statuspages": [self.skey(a, 0)] if k % 3 == 0 and a.n("status_pages") else [],
                "created": tsfmt(a.created(k))}
