"""Fake UptimeRobot for fakeprov.py: API v2 (/v2/<method>, POST forms) and API v3
(/v3/..., GET with a Bearer key), in their real wire formats (providers.md §1; the
source of each shape is named beside it).

One generated account answers on both APIs with the same monitors, contacts,
maintenance windows and status pages. Account options:
  "api": "v2" (a legacy key: v3 answers 401), "v3" (a key v2 does not know), or
         "both". Default "v2", except for the demo key ("both").
  "refuse": kinds the key may not list: "contacts", "all_contacts" (v3
         /user/all-alert-contacts), "integrations", "maintenance", "status_pages",
         "monitor_groups" (v2 answers "not_authorized", v3 403).
  "new_fields": {name: value} adds those members to every monitor and heartbeat, on
         both APIs (fields a later UptimeRobot version may add).
  "team_contacts": N contacts of the account's team and organization (default 0): on v3 only
         in /v3/user/all-alert-contacts, on v2 in getAlertContacts after the account's own;
         monitor g with g % 5 == 3 alerts team contact (g // 5) % N, after 2 minutes, every 10.
  "window_monitor_ids": false leaves "monitorIds" out of v3 maintenance windows (older
         answers, as the official Terraform client read them before its commit 64857f5).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)

V3_HOST = "https://api.uptimerobot.com/v3"

# v2 alert contact type numbers and their v3 names (official terraform-provider-uptimerobot
# internal/client/alert_contact.go alertContactTypeByNumber; integration.go for integrations).
V3_CONTACT_TYPE = {1: "EmailToSms", 2: "Email", 5: "Webhook", 7: "Zapier", 8: "ProSms", 9: "Pushover",
                   11: "Slack", 12: "MobileAppIOS", 13: "MobileAppAndroid", 14: "Voice", 16: "Pagerduty",
                   17: "OpsGenie", 18: "Telegram", 20: "MSTeams", 23: "Discord"}
# Personal alert contacts (/v3/user/alert-contacts); every other type is an integration.
PERSONAL = {1, 2, 8, 12, 13, 14}
# Team and organization contact types (official TF docs/data-sources/all_alert_contacts.md: email,
# pro_sms, voice, mobile app) with the type names of /v3/user/all-alert-contacts
# (internal/client/alert_contact_test.go TestClient_ListAllAlertContacts: "MobileAppOld").
TEAM_TYPES = ((2, "Email"), (8, "ProSms"), (14, "Voice"), (12, "MobileAppOld"))
V2_METHODS = {"HEAD": 1, "GET": 2, "POST": 3, "PUT": 4, "PATCH": 5, "DELETE": 6, "OPTIONS": 7}
V2_TYPES = {"http": 1, "keyword": 2, "ping": 3, "port": 4, "heartbeat": 5}
V3_TYPES = {"http": "HTTP", "keyword": "KEYWORD", "ping": "PING", "port": "PORT", "heartbeat": "HEARTBEAT",
            "dns": "DNS", "api": "API", "udp": "UDP"}
WINDOW_TYPES = ("weekly", "once", "daily", "monthly")
V2_WINDOW_TYPE = {"once": 1, "daily": 2, "weekly": 3, "monthly": 4}
GROUPS = ((1, "Production"), (2, "Staging"))


class UptimeRobot(Provider):
    id = "uptimerobot"
    kinds = {"monitors": 12, "heartbeats": 2, "contacts": 3, "status_pages": 2, "maintenance": 2}
    aliases = {"alert_contacts": "contacts", "psps": "status_pages", "checks": "monitors",
               "mwindows": "maintenance", "maintenance_windows": "maintenance", "windows": "maintenance"}
    required = ("api_key",)
    BASE_TYPES = ("http", "http", "keyword", "ping", "port")
    CONTACT_TYPES = (2, 11, 5, 1, 16, 7, 14, 18, 20, 23, 9, 12)
    MAX_LIMIT = 50
    V3_PAGE = 50

    # -- ids
    def mbase(self, a):
        return self.base(a, "monitors", 700_000_000, 100, 10_000_000)

    def cbase(self, a):
        return self.base(a, "contacts", 1_000_000, 800, 10_000)

    def pbase(self, a):
        return self.base(a, "psps", 100_000, 800, 1_000)

    def wbase(self, a):
        return self.base(a, "mwindows", 10_000, 800, 1_000)

    def cid(self, a, j, cb=None):
        return "0%d" % ((self.cbase(a) if cb is None else cb) + j)   # string with a leading zero

    def team_cid(self, a, t):
        return "0%d" % (self.base(a, "team", 20_000_000, 800, 10_000) + t)

    def n_team(self, a):
        n = to_int(a.options.get("team_contacts"), 0)
        return max(0, min(n or 0, 10_000))

    def ext_id(self, a, kind, i):
        if kind == "monitors":
            return self.mbase(a) + i
        if kind == "heartbeats":
            return self.mbase(a) + a.n("monitors") + i
        if kind == "contacts":
            return self.cid(a, i)
        if kind == "maintenance":
            return self.wbase(a) + i
        return self.pbase(a) + i

    # -- options
    def api(self, a):
        v = a.options.get("api")
        if v in ("v2", "v3", "both"):
            return v
        return "both" if a.credentials.get("api_key") == DEMO_KEY else "v2"

    # -- error answers
    @staticmethod
    def is_v3(req):
        return req.rel.startswith("/v3/")

    def fail(self, etype, **fields):
        err = {"type": etype}
        err.update(fields)
        return jreply(200, {"stat": "fail", "error": err})

    def v3_error(self, status, message, **extra):
        # shape: v3 errors carry statusCode/message (official TF internal/client/errors.go reads
        # message/error/detail/code; monitor_get_test.go answers {"statusCode":500})
        body = {"statusCode": status, "message": message}
        body.update(extra)
        return jreply(status, body)

    def bad_key(self, req, missing=False, key=None):
        if self.is_v3(req):
            return self.v3_error(401, "Unauthorized")
        if missing:
            return self.fail("invalid_parameter", parameter_name="api_key",
                             message="api_key parameter is missing.")
        # shape: providers.md §1.4 (the real v2 API echoes the wrong key; the migrator scrubs it)
        return self.fail("invalid_parameter", parameter_name="api_key",
                         passed_value=key if key is not None else self.key_of(req),
                         message="api_key not found.")

    def refusal(self, req):
        if self.is_v3(req):
            return self.v3_error(403, "Forbidden resource", error="Forbidden")
        # shape: providers.md §1.4 (wrong key type: {"type":"not_authorized"})
        return self.fail("not_authorized", message="This API key cannot be used for this method.")

    def key_of(self, req):
        if self.is_v3(req):
            return bearer(req)
        key = req.f("api_key")
        if key is None and req.rel.endswith("/getMonitors"):
            key = req.q("api_key")      # the query key is only honoured on getMonitors
        return key

    # shape: 429 with X-RateLimit-Remaining 0, X-RateLimit-Reset (epoch seconds) and Retry-After
    # (seconds), on v2 and v3 (providers.md §1.4)
    def rate_limited(self, req, status, retry_hdr, reset_in):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        headers += [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", str(int(time.time() + reset_in)))]
        if self.is_v3(req):
            return jreply(status, {"statusCode": status, "message": "Too Many Requests"}, headers)
        return jreply(status, {"stat": "fail", "error": {"type": "rate_limit",
                                                         "message": "Rate limit exceeded."}}, headers)

    def server_error(self, req, status):
        if self.is_v3(req):
            return self.v3_error(status, "Internal server error")
        return jreply(status, {"stat": "fail", "error": {"type": "internal",
                                                         "message": "Internal server error."}})

    def not_found(self, req):
        if self.is_v3(req):
            return self.v3_error(404, "Not Found")
        return jreply(404, {"stat": "fail", "error": {"type": "not_found",
                                                      "message": "Method not found."}})

    def limit_headers(self, rl):
        return [("X-RateLimit-Limit", str(rl["limit"])),
                ("X-RateLimit-Remaining", str(rl["remaining"])),
                ("X-RateLimit-Reset", str(rl["reset_epoch"]))]

    # -- routing
    def handle(self, req, a):
        if self.is_v3(req):
            return self.handle_v3(req, a)
        if req.method not in ("POST", "GET"):
            return self.method_not_allowed(req)
        m = re.fullmatch(r"/v2/(\w+)", req.rel)
        if not m:
            return self.not_found(req)
        method = m.group(1)
        routes = {"getMonitors": (self.get_monitors, "monitors"),
                  "getAlertContacts": (self.get_contacts, "contacts"),
                  "getMWindows": (self.get_mwindows, "maintenance"),
                  "getPSPs": (self.get_psps, "status_pages"), "getAccountDetails": (self.get_account, None)}
        if method not in routes:
            return self.not_found(req)
        key = self.key_of(req)
        if not key:
            return self.bad_key(req, missing=True)
        if a is None or key != a.credentials["api_key"] or self.api(a) == "v3":
            return self.bad_key(req, key=key)
        fn, kind = routes[method]
        if kind and self.refused(a, kind):
            return self.refusal(req)
        return fn(req, a)

    def handle_v3(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        routes = {"/v3/monitors": (self.v3_monitors, "monitors"),
                  "/v3/user/alert-contacts": (self.v3_alert_contacts, "contacts"),
                  "/v3/user/all-alert-contacts": (self.v3_all_alert_contacts, "all_contacts"),
                  "/v3/integrations": (self.v3_integrations, "integrations"),
                  "/v3/maintenance-windows": (self.v3_mwindows, "maintenance"),
                  "/v3/psps": (self.v3_psps, "status_pages"),
                  "/v3/monitor-groups": (self.v3_groups, "monitor_groups")}
        if req.rel not in routes:
            return self.not_found(req)
        key = self.key_of(req)
        if not key or a is None or key != a.credentials["api_key"] or self.api(a) == "v2":
            return self.bad_key(req)
        fn, kind = routes[req.rel]
        if self.refused(a, kind):
            return self.refusal(req)
        return fn(req, a)

    # -- v2 paging
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

    # -- v3 paging: items whose id is above ?cursor=, V3_PAGE at a time
    def v3_page(self, req, ids, render, link_path, style="link"):
        cursor = to_int(req.q("cursor"), 0)
        if cursor is None:
            return self.v3_error(400, "cursor must be an integer")
        sel = [i for i in ids if i > cursor][:self.V3_PAGE]
        more = sel and any(i > sel[-1] for i in ids[-1:])
        body = {"data": [render(i) for i in sel]}
        nxt = sel[-1] if more else None
        if style == "cursor":
            body["nextCursorId"] = nxt
        else:
            body["nextLink"] = "%s/%s?cursor=%d" % (V3_HOST, link_path, nxt) if nxt else None
        return jreply(200, body)

    # -- monitors: one semantic record per index, rendered for v2 or v3
    def m_kind(self, a, g):
        nm = a.n("monitors")
        if g >= nm:
            return "heartbeat"
        if self.api(a) == "v3":                  # types only v3 knows, on v3-only accounts
            extra = {5: "api", 9: "udp", 13: "dns"}.get(g % 15)
            if extra:
                return extra
        return self.BASE_TYPES[g % 5]

    def m_type(self, a, g):
        return V2_TYPES.get(self.m_kind(a, g), 1)

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
        kind = self.m_kind(a, g)
        if kind == "heartbeat":
            return "https://heartbeat.uptimerobot.com/m%d-%s" % (mid, hid(12, self.id, a.seed, "hb", g))
        host = "m%d.example.com" % (g + 1)
        if kind in ("http", "keyword", "api"):
            return ("https://%s/" % host, "http://%s/health" % host,
                    "https://%s:8443/status?probe=1" % host,
                    "https://%s/api/v1/ping?token=public&n=%d" % (host, g))[g % 4]
        return host

    def windows_of(self, a, g):
        nw = a.n("maintenance")
        if nw == 0:
            return []
        nm = a.n("monitors")
        if g >= nm:
            return [(g - nm) % nw]
        out = [g % nw] if g % 3 == 0 else []
        if g % 6 == 0 and nw > 1:
            out.append((g + 1) % nw)
        return out

    def spec(self, a, g, mb, cb):
        """What monitor g is, whatever API shows it."""
        nm, nc = a.n("monitors"), a.n("contacts")
        kind = self.m_kind(a, g)
        i = g - nm if kind == "heartbeat" else g
        s = {"id": mb + g, "name": self.m_name(a, g), "kind": kind, "url": self.m_url(a, g, mb + g),
             "status": self.m_status(a, g), "created": a.created(g),
             "interval": (300, 3600)[i % 2] if kind == "heartbeat" else (300, 60, 900)[i % 3],
             "contacts": [], "windows": self.windows_of(a, g), "port": None, "headers": {}}
        # (contact id, threshold, recurrence): minutes (v3 reference AlertContactSettings: "Delay of
        # notification in minutes, after the monitor is down", "Repeat notifications every X minutes";
        # v2: uptimerobot.com/blog/new-features-for-the-api "if down for x minutes, alert once (or every
        # y minutes)", "getMonitors will return the threshold + recurrence values")
        if nc:
            s["contacts"].append((self.cid(a, g % nc, cb), 0, 0))
            if nc > 1 and g % 4 == 0:
                s["contacts"].append((self.cid(a, (g + 1) % nc, cb), 5, 30))
        nt = self.n_team(a)
        if nt and kind != "heartbeat" and g % 5 == 3:
            s["contacts"].append((self.team_cid(a, (g // 5) % nt), 2, 10))
        if kind in ("http", "keyword", "api"):
            s["method"] = ("GET", "POST", "HEAD", "PUT")[(g // 5) % 4]
            if s["method"] in ("POST", "PUT"):
                s["body"] = {"check": g}
            if g % 3 == 1:
                s["headers"] = {"X-Env": "prod", "X-Probe": str(g)}
            s["timeout"] = (30, 15, 45)[g % 3]
            s["ssl_ignore"] = g % 7 == 6
            s["statuses"] = ["404:1", "500:0"] if g % 4 == 1 else []
            s["auth"] = g % 10 == 7
        if kind == "keyword":
            s["kw_up_when"] = "present" if (g // 5) % 2 == 0 else "absent"
            s["kw_value"] = "All systems go" if s["kw_up_when"] == "present" else "Error"
            s["kw_case_sensitive"] = (g // 10) % 2 == 0
        if kind == "port":
            s["port_form"] = (g // 5) % 3
            s["port"] = (5432, 8000 + g % 1000, 443)[s["port_form"]]
        if kind == "udp":
            s["port"] = 514
        return s

    def v2_monitor(self, a, s, req, cb):
        kind, g = s["kind"], s["id"] - self.mbase(a)
        # shape: providers.md §1.2 getMonitors with every flag (bitfield/uptimerobot testdata,
        # louy/terraform-provider-uptimerobot uptimerobot/api/monitor.go, Linuxfabrik/lfops
        # plugins/module_utils/uptimerobot.py): unset fields are "", numbers sometimes strings
        d = {"id": s["id"], "friendly_name": s["name"], "url": s["url"], "type": V2_TYPES[kind],
             "sub_type": "", "keyword_type": "", "keyword_case_type": "", "keyword_value": "",
             "http_username": "", "http_password": "", "port": "", "interval": s["interval"],
             "timeout": s.get("timeout", ""), "status": s["status"], "create_datetime": s["created"],
             "http_method": "", "post_type": "", "post_value": "", "post_content_type": ""}
        if kind == "port":
            # Linuxfabrik: getMonitors reports sub_type 1 for every port monitor; port is a string
            # or a number, or "" with a preset (sub_type 2 = HTTPS) when no port was given
            d["sub_type"], d["port"] = ((1, "5432"), (1, s["port"]), (2, ""))[s["port_form"]]
        if kind == "keyword":
            d["keyword_type"] = 2 if s["kw_up_when"] == "present" else 1   # 1 = alert when it exists
            d["keyword_case_type"] = 0 if s["kw_case_sensitive"] else 1
            d["keyword_value"] = s["kw_value"]
        if "method" in s:
            d["http_method"] = V2_METHODS[s["method"]] if g % 2 == 0 else str(V2_METHODS[s["method"]])
            if "body" in s:
                d["post_type"], d["post_content_type"] = 2, 1
                d["post_value"] = json.dumps(s["body"], separators=(",", ":"))
            if s["auth"]:
                d["http_username"], d["http_password"], d["http_auth_type"] = "probe", "s3cret-probe", 1
        if truthy(req.p("alert_contacts", "0")):
            d["alert_contacts"] = [{"id": c, "threshold": t, "recurrence": r} for c, t, r in s["contacts"]]
        if truthy(req.p("ssl", "0")):
            d["ssl"] = {"ignore_errors": 1 if s.get("ssl_ignore") else 0, "disable_notifications": 0}
        if truthy(req.p("custom_http_headers", "0")):
            d["custom_http_headers"] = s["headers"] or []     # PHP: an empty map comes as []
        if truthy(req.p("custom_http_statuses", "0")):
            d["custom_http_statuses"] = "_".join(s.get("statuses", []))
        if truthy(req.p("logs", "0")):
            d["logs"] = [{"id": s["id"] * 10 + 1, "type": 98, "datetime": s["created"], "duration": 3600,
                          "reason": {"code": "", "detail": ""}}]
        if truthy(req.p("mwindows", "0")):
            d["mwindows"] = [{"id": self.wbase(a) + w} for w in s["windows"]]
        self.add_new_fields(a, d)
        return d

    @staticmethod
    def add_new_fields(a, d):
        if a.options.get("new_fields"):
            # fields a later UptimeRobot version may add, which no table of ours knows: providers add
            # fields over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])

    def v3_monitor(self, a, s, cb):
        kind, g = s["kind"], s["id"] - self.mbase(a)
        # shape: official uptimerobot/terraform-provider-uptimerobot internal/client/monitor.go
        # Monitor (providers.md §1.3); regions per internal/provider/monitor/monitor_region_data.go
        d = {"id": s["id"], "friendlyName": s["name"], "url": s["url"], "type": V3_TYPES[kind],
             "status": "PAUSED" if s["status"] == 0 else ("DOWN" if s["status"] == 9 else "UP"),
             "interval": s["interval"], "timeout": s.get("timeout", 30), "port": s["port"],
             "httpMethodType": s.get("method"), "authType": "HTTP_BASIC" if s.get("auth") else "NONE",
             "keywordType": None, "keywordCaseType": 0, "keywordValue": "",
             "customHttpHeaders": s["headers"], "successHttpResponseCodes": ["2xx", "3xx"],
             "postValueType": None, "postValueData": None, "gracePeriod": 0,
             "followRedirections": g % 2 == 0, "checkSSLErrors": not s.get("ssl_ignore"),
             "sslExpirationReminder": g % 4 == 0, "domainExpirationReminder": False,
             "groupId": GROUPS[0][0] if g % 4 == 3 else 0,
             "tags": [{"id": 11, "name": "prod", "color": "#22c55e"}] if g % 2 == 0 else [],
             "createDateTime": tsfmt(s["created"], "%Y-%m-%d %H:%M:%S"),
             "assignedAlertContacts": [{"alertContactId": str(int(c)) if k % 2 == 0 else int(c),
                                        "threshold": t, "recurrence": r}
                                       for k, (c, t, r) in enumerate(s["contacts"])],
             "maintenanceWindows": [self.v3_window(a, w) for w in s["windows"]]}
        if g % 3 == 0:
            d["tags"].append({"id": 12, "name": "web", "color": "#3b82f6"})
        if g % 3 == 0:
            d["regionalData"] = "eu"
        elif g % 3 == 1:
            d["regionData"] = {"REGION": ["na", "eu"], "MANUAL_SELECTED": True}
        else:
            d["regionalData"] = "na"
        if d["sslExpirationReminder"]:
            d["config"] = {"sslExpirationPeriodDays": [7, 14, 30]}
        if s.get("statuses"):
            d["successHttpResponseCodes"] = ["2xx", "3xx", "404"]
        if kind == "keyword":
            d["keywordType"] = "ALERT_NOT_EXISTS" if s["kw_up_when"] == "present" else "ALERT_EXISTS"
            d["keywordCaseType"] = 0 if s["kw_case_sensitive"] else 1
            d["keywordValue"] = s["kw_value"]
        if "body" in s:
            d["postValueType"], d["postValueData"] = "RAW_JSON", s["body"]
        if kind == "udp":
            d["config"] = {"udp": {"payload": "ping", "packetLossThreshold": 50}}
        if kind == "dns":
            # shape: v3 reference MonitorDto config.dnsRecords / DnsRecordsDto (record type → answers; the
            # create example sends CNAME, MX, NS, A, PTR lists); official TF internal/client/monitor.go
            # DNSRecords. An empty list is a type not checked.
            d["config"] = {"dnsRecords": {"CNAME": [], "A": ["192.0.2.%d" % (g % 250 + 1), "192.0.2.%d" % (g % 250 + 2)],
                                          "MX": ["10 mx1.m%d.example.com." % (g + 1)]}}
        if kind == "api":
            # shape: v3 reference MonitorDto config.apiAssertions / ApiAssertionsDto, AssertionCheckDto and the
            # "API Monitor" create example (logic AND|OR, checks of a JSONPath property, comparison, target of
            # any JSON type, none for is_null/is_not_null); official TF internal/client/monitor.go
            # APIMonitorAssertions
            d.setdefault("config", {})["apiAssertions"] = {
                "logic": "OR" if (g // 15) % 2 else "AND",
                "checks": [{"property": "$.data.status", "comparison": "equals", "target": "active"},
                           {"property": "$.data.count", "comparison": "greater_than", "target": g},
                           {"property": "$.error", "comparison": "is_null"}]}
        if s.get("auth"):
            # shape: official TF internal/client/monitor.go Monitor httpUsername, httpPassword
            d["httpUsername"], d["httpPassword"] = "probe", "s3cret-probe"
        if kind in ("http", "keyword") and g % 5 == 1:
            # shape: official TF internal/client/monitor.go Monitor responseTimeThreshold (ms)
            d["responseTimeThreshold"] = 2000
        if kind == "heartbeat":
            d["gracePeriod"], d["tags"] = (300 if g % 2 == 0 else 0), [{"id": 14, "name": "cron"}]
        self.add_new_fields(a, d)
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
                            "monitors": [self.v2_monitor(a, self.spec(a, g, mb, cb), req, cb) for g in idx]})

    def endless(self, req, a):
        """Fault `endless` (v2 getMonitors): the account's first page at every offset, in the
        documented shape, with `pagination.total` always past the page asked for, so the list
        never ends (the same monitors again and again: no new resources to count)."""
        if not req.rel.endswith("getMonitors"):
            return self.handle(req, a)
        offset, limit, err = self.paging(req)
        if err:
            return err
        mb, cb = self.mbase(a), self.cbase(a)
        idx = range(min(limit, a.n("monitors") + a.n("heartbeats")))
        # shape: providers.md §1.2, getMonitors' nested pagination {offset, limit, total} (bitfield/uptimerobot
        # testdata); only total is changed, to one past the page asked for
        return jreply(200, {"stat": "ok",
                            "pagination": {"offset": offset, "limit": limit, "total": offset + limit + 1},
                            "monitors": [self.v2_monitor(a, self.spec(a, g, mb, cb), req, cb) for g in idx]})

    def v3_monitors(self, req, a):
        mb, cb = self.mbase(a), self.cbase(a)
        total = a.n("monitors") + a.n("heartbeats")
        cursor = to_int(req.q("cursor"), 0) or 0
        first = max(0, cursor - mb + 1) if cursor else 0      # ids are mb + g: no list needed
        ids = [mb + g for g in range(first, min(total, first + self.V3_PAGE + 1))]
        return self.v3_page(req, ids, lambda i: self.v3_monitor(a, self.spec(a, i - mb, mb, cb), cb),
                            "monitors")

    def v3_groups(self, req, a):
        # shape: official TF internal/client/monitor_group.go MonitorGroupListResponse
        return jreply(200, {"data": [{"id": i, "name": n, "createdAt": iso_ms(BASE_TS),
                                      "updatedAt": iso_ms(BASE_TS)} for i, n in GROUPS], "nextLink": None})

    # -- alert contacts: v2 one list (offset/limit/total top-level); v3 personal + integrations
    def c_spec(self, a, j):
        t = self.CONTACT_TYPES[j % len(self.CONTACT_TYPES)]
        value = {2: "contact%d@example.com" % (j + 1),
                 11: "https://hooks.slack.com/services/T000/B000/%s" % hid(12, self.id, a.seed, "slack", j),
                 5: "https://hooks.example.com/ur/%d?" % (j + 1), 1: "+1555%07d" % j,
                 14: "+1666%07d" % j, 18: "tg-chat-%d" % (j + 1),
                 20: "https://example.webhook.office.com/webhookb2/%s" % hid(12, self.id, a.seed, "teams", j),
                 23: "https://discord.com/api/webhooks/%d/%s" % (j + 1, hid(12, self.id, a.seed, "dc", j)),
                 9: "u%s" % hid(11, self.id, a.seed, "po", j), 12: "iPhone %d" % (j + 1)}.get(t)
        return t, value

    def contact(self, a, j, cb):
        t, value = self.c_spec(a, j)
        # shape: providers.md §1.2 getAlertContacts (bitfield fixture, louy)
        d = {"id": self.cid(a, j, cb), "friendly_name": "%s Contact %d" % (a.prefix(j), j + 1),
             "type": t, "status": 1 if a.paused(j) else 2}
        if t == 16:
            d["value"] = None           # value may be null...
        elif t != 7:
            d["value"] = value          # ...or absent (Zapier)
        return d

    def v3_contact(self, a, j, cb):
        t, value = self.c_spec(a, j)
        # shape: official TF internal/client/alert_contact.go UserAlertContact / integration.go
        # Integration (friendlyName, type name, status name, value, webhookURL)
        d = {"id": int(self.cid(a, j, cb)), "friendlyName": "%s Contact %d" % (a.prefix(j), j + 1),
             "type": V3_CONTACT_TYPE.get(t, t), "status": "Paused" if a.paused(j) else "Active",
             "value": value or "", "enableNotificationsFor": "UpAndDown", "sslExpirationReminder": False}
        if t in (11, 20, 23):
            d["value"], d["webhookURL"] = "", value
        return d

    def team_contact(self, a, t):
        """Team or organization contact t: (v2 type number, v3 type name, name, value)."""
        num, name = TEAM_TYPES[t % len(TEAM_TYPES)]
        value = {2: "team%d@example.com" % (t + 1), 8: "+1777%07d" % t, 14: "+1888%07d" % t,
                 12: "device-%s" % hid(12, self.id, a.seed, "team", t)}[num]
        return num, name, "%s Team Contact %d" % (a.prefix(t), t + 1), value

    def v2_team_contact(self, a, t):
        num, _, name, value = self.team_contact(a, t)
        # shape: as contact() (getAlertContacts); the v2 list holds the organization's roster too (v3 reference,
        # GET /integrations includeOrgMembers: "Used by the v2 getAlertContacts proxy to restore the legacy
        # org-roster scope")
        return {"id": self.team_cid(a, t), "friendly_name": name, "type": num, "status": 2, "value": value}

    def get_contacts(self, req, a):
        offset, limit, err = self.paging(req)
        if err:
            return err
        n, cb, nt = a.n("contacts"), self.cbase(a), self.n_team(a)
        ids = self.ids_param(req, "alert_contacts")
        if ids is not None:
            sel = sorted({v - cb for v in ids if 0 <= v - cb < n})
            total, idx = len(sel), sel[offset:offset + limit]
        else:
            total, idx = n + nt, range(offset, min(n + nt, offset + limit))
        return jreply(200, {"stat": "ok", "offset": offset, "limit": limit, "total": total,
                            "alert_contacts": [self.contact(a, j, cb) if j < n else self.v2_team_contact(a, j - n)
                                               for j in idx]})

    def v3_alert_contacts(self, req, a):
        cb = self.cbase(a)
        # shape: a bare array, no paging (official TF alert_contact.go ListAlertContacts)
        return jreply(200, [self.v3_contact(a, j, cb) for j in range(min(a.n("contacts"), 100_000))
                            if self.c_spec(a, j)[0] in PERSONAL])

    def v3_all_alert_contacts(self, req, a):
        cb, nt = self.cbase(a), self.n_team(a)
        # shape: v3 reference GET /user/all-alert-contacts, AllAlertContactDto (a bare array of groups
        # {notifyOnly, orgAlertContactId, user{id,name}, alertContacts[{id,name,value,type,status,threshold,
        # recurrence}]}: "all alert contacts including personal, notify-only, and organization members alert
        # contacts"); official TF internal/client/alert_contact.go AllAlertContactGroup and its test
        # TestClient_ListAllAlertContacts (type and status names, threshold 2, recurrence 3)
        own = [{"id": int(self.cid(a, j, cb)), "name": "%s Contact %d" % (a.prefix(j), j + 1),
                "value": self.c_spec(a, j)[1] or "", "type": V3_CONTACT_TYPE[self.c_spec(a, j)[0]],
                "status": "Paused" if a.paused(j) else "Active", "threshold": 0, "recurrence": 0}
               for j in range(min(a.n("contacts"), 100_000)) if self.c_spec(a, j)[0] in PERSONAL]
        groups = [{"notifyOnly": False, "orgAlertContactId": None,
                   "user": {"id": 1000000 + a.seed, "name": "%s Owner" % a.name_prefix}, "alertContacts": own}]
        for k, (notify_only, who) in enumerate(((False, "Teammate"), (True, "On-call desk"))):
            items = []
            for t in range(k, nt, 2):
                _, tname, name, value = self.team_contact(a, t)
                items.append({"id": int(self.team_cid(a, t)), "name": name, "value": value, "type": tname,
                              "status": "Active", "threshold": 2, "recurrence": 3})
            if items:
                groups.append({"notifyOnly": notify_only, "orgAlertContactId": 7001 + k,
                               "user": {"id": 2000000 + a.seed + k, "name": "%s %s" % (a.name_prefix, who)},
                               "alertContacts": items})
        return jreply(200, groups)

    def v3_integrations(self, req, a):
        cb = self.cbase(a)
        # shape: data + nextLink ?cursor= (official TF integration_test.go)
        ids = [cb + j for j in range(min(a.n("contacts"), 100_000)) if self.c_spec(a, j)[0] not in PERSONAL]
        return self.v3_page(req, ids, lambda i: self.v3_contact(a, i - cb, cb), "integrations")

    # -- maintenance windows
    def w_spec(self, a, j):
        kind = WINDOW_TYPES[j % 4]
        start = BASE_TS + 86400 * (j + 30)
        return {"id": self.wbase(a) + j, "name": "%s Window %d" % (a.prefix(j), j + 1), "kind": kind,
                "start": start, "clock": "%02d:%02d" % ((2 + j) % 24, (j * 15) % 60),
                "duration": 30 * (j % 4 + 1), "paused": a.paused(j),
                "days": {"weekly": [1 + j % 7, 1 + (j + 2) % 7], "monthly": [1, 15]}.get(kind, []),
                "auto_add": j % 5 == 4}

    def v2_window(self, a, j):
        w = self.w_spec(a, j)
        # shape: providers.md §1.2 getMWindows (Linuxfabrik MWINDOW_* maps, one MCP fixture):
        # start_time unix seconds for once, "HH:mm" otherwise; value "-"-separated days
        return {"id": w["id"], "user": 1000000 + a.seed, "type": V2_WINDOW_TYPE[w["kind"]],
                "friendly_name": w["name"], "start_time": w["start"] if w["kind"] == "once" else w["clock"],
                "duration": w["duration"], "value": "-".join(str(d) for d in sorted(set(w["days"]))),
                "status": 0 if w["paused"] else 1}

    def window_members(self, a):
        """Window j → the ids of the monitors and heartbeats that list it (windows_of), computed once
        per account and counts."""
        nm, nh, nw = a.n("monitors"), a.n("heartbeats"), a.n("maintenance")
        key = (id(a), a.seed, nm, nh, nw)
        cache = getattr(self, "_members", None)
        if cache is None or cache[0] != key:
            mb, out = self.mbase(a), [[] for _ in range(min(nw, 100_000))]
            for g in range(min(nm + nh, 1_000_000)):
                for w in self.windows_of(a, g):
                    if w < len(out):
                        out[w].append(mb + g)
            cache = self._members = (key, out)
        return cache[1]

    def v3_window(self, a, j):
        w = self.w_spec(a, j)
        # shape: official TF internal/client/maintenance_window.go MaintenanceWindow; monitorIds per the v3
        # reference's MaintenanceWindowDto (required) and the TF client since 64857f5 ("support maintenance
        # window monitor ids")
        d = {"id": w["id"], "userId": 1000000 + a.seed, "name": w["name"], "interval": w["kind"], "date": None,
             "time": w["clock"] + ":00", "duration": w["duration"], "autoAddMonitors": w["auto_add"],
             "days": sorted(set(w["days"])), "status": "paused" if w["paused"] else "active",
             "created": iso_ms(BASE_TS)}
        if a.options.get("window_monitor_ids", True) is not False:
            members = self.window_members(a)
            d["monitorIds"] = list(members[j]) if j < len(members) else []
        if w["kind"] == "once":
            d["date"], d["time"] = day(w["start"]), tsfmt(w["start"], "%H:%M:%S")
        return d

    def get_mwindows(self, req, a):
        offset, limit, err = self.paging(req)
        if err:
            return err
        n = a.n("maintenance")
        # shape: nested pagination (providers.md §1.2, M)
        return jreply(200, {"stat": "ok", "pagination": {"offset": offset, "limit": limit, "total": n},
                            "mwindows": [self.v2_window(a, j) for j in range(offset, min(n, offset + limit))]})

    def v3_mwindows(self, req, a):
        wb = self.wbase(a)
        ids = [wb + j for j in range(min(a.n("maintenance"), 100_000))]
        # shape: data + nextCursorId (official TF maintenance_window_test.go)
        return self.v3_page(req, ids, lambda i: self.v3_window(a, i - wb), "maintenance-windows", "cursor")

    # -- public status pages
    def psp_monitors(self, a, j, mb):
        total = a.n("monitors") + a.n("heartbeats")
        return [mb + (j * 5 + k) % total for k in range(min(5, total))] if total else []

    def psp(self, a, j, pb, mb):
        # shape: providers.md §1.2 getPSPs (WileESpaghetti mock, louy)
        monitors = 0 if j % 2 == 1 else self.psp_monitors(a, j, mb)   # quirk: 0 = all monitors
        return {"id": pb + j, "friendly_name": "%s Status Page %d" % (a.prefix(j), j + 1),
                "monitors": monitors, "sort": 1 + j % 4, "status": 0 if a.paused(j) else 1,
                "standard_url": "https://stats.uptimerobot.com/%s" % hid(10, self.id, a.seed, "psp", j),
                "custom_url": None if j % 2 else ""}

    def v3_psp(self, a, j, pb, mb):
        # shape: official TF internal/client/psp.go PSP, psp_test.go (status "ENABLED")
        d = {"id": pb + j, "friendlyName": "%s Status Page %d" % (a.prefix(j), j + 1),
             "customDomain": "status%d.example.com" % (j + 1) if j % 3 == 1 else None,
             "isPasswordSet": j % 3 == 2, "monitorIds": self.psp_monitors(a, j, mb),
             "status": "PAUSED" if a.paused(j) else "ENABLED",
             "urlKey": hid(10, self.id, a.seed, "psp", j), "sort": 1 + j % 4}
        d["monitorsCount"] = len(d["monitorIds"])
        return d

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

    def v3_psps(self, req, a):
        pb, mb = self.pbase(a), self.mbase(a)
        ids = [pb + j for j in range(min(a.n("status_pages"), 100_000))]
        return self.v3_page(req, ids, lambda i: self.v3_psp(a, i - pb, pb, mb), "psps")

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
