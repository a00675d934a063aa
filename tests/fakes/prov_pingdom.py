"""Fake Pingdom 3.1 for fakeprov.py: its real wire format (providers.md §2; sources cited per shape).

Sources: the official OpenAPI description "API_3.1.yaml" (copy in karlderkaefer/pingdom-golang-client
hack/API_3.1.yaml, cited below as "spec") and russellcardullo/go-pingdom (pingdom/api_responses.go,
pingdom/check_test.go), cited as "go-pingdom".

Generated data (every value from the item's index, so tests can predict it; see README.md):
check i has type TYPES[i % 12]; HTTP settings come from http_settings(i); check i alerts contact
i % contacts and, when i is even, team i % teams; team t has the members contact 2t and 2t+1
(mod contacts); maintenance window k covers the checks 3k, 3k+1, 3k+2 (mod checks).
Check i also logs in to its target (type.http username and password) when it is an http check with
i % 4 == 3, and has a custom_message when i % 3 == 1. Its detail alerts after
sendnotificationwhendown = 1 + i % 4 down results and again every notifyagainevery =
NOTIFY_AGAIN[i % 4] results (0: never); a dns check expects 192.0.2.(1 + i % 250) from ns1.example.com,
or 2001:db8::(i + 1) in hex when i % 2 == 1.
Account options: "refuse": a list of kinds among "checks", "contacts", "teams", "maintenance"
answered with Pingdom's 403 envelope (a token whose access does not cover them); "new_fields":
{name: value} adds those members to every check, in the list and its detail (fields a later version
may add).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)

PINGDOM_UA = "Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)"
REGIONS = ("EU", "NA", "APAC", "LATAM")
RECURRENCES = ("none", "week", "day", "month")
NOTIFY_AGAIN = (0, 3, 1, 10)


class Pingdom(Provider):
    id = "pingdom"
    kinds = {"monitors": 12, "contacts": 3, "teams": 1, "maintenance": 2}
    aliases = {"checks": "monitors", "maintenance_windows": "maintenance"}
    required = ("api_token",)
    gzip_ok = True
    rl_default = 100000
    TYPES = ("http", "http", "httpcustom", "tcp", "ping", "dns", "smtp", "http", "udp", "pop3", "imap",
             "http")

    def demo_credentials(self):
        return {"api_token": DEMO_KEY}

    def cbase(self, a):
        return self.base(a, "checks", 1_000_000, 100, 10_000_000)

    def ubase(self, a):
        return self.base(a, "contacts", 10_000_000, 100, 100_000)

    def tbase(self, a):
        return self.base(a, "teams", 100_000, 100, 1_000)

    def mbase(self, a):
        return self.base(a, "maintenance", 500_000, 100, 1_000)

    def ext_id(self, a, kind, i):
        bases = {"monitors": self.cbase, "contacts": self.ubase, "teams": self.tbase, "maintenance": self.mbase}
        return bases[kind](a) + i

    # shape: spec "Error" responses / providers.md §2.3 {"error":{"statuscode","statusdesc","errormessage"}}
    def envelope(self, status, desc, msg, headers=None):
        return jreply(status, {"error": {"statuscode": status, "statusdesc": desc, "errormessage": msg}},
                      headers)

    def bad_key(self, req, missing=False):
        if missing:
            return self.envelope(401, "Unauthorized", "No credentials provided")
        return self.envelope(401, "Unauthorized", "Invalid credentials")

    def forbidden(self):
        return self.envelope(403, "Forbidden", "Access to this resource is not allowed for this token")

    # shape: 429 whose Req-Limit-Short / Req-Limit-Long say no request is left until the reset
    # (providers.md §2.3: on every response, "Remaining: 394 Time until reset: 3589")
    def rate_limited(self, req, status, retry_hdr, reset_in):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        headers += [("Req-Limit-Short", "Remaining: 0 Time until reset: %d" % reset_in),
                    ("Req-Limit-Long", "Remaining: 0 Time until reset: %d" % reset_in)]
        return self.envelope(status, "Too Many Requests", "Request limit exceeded, try again later", headers)

    def server_error(self, req, status):
        return self.envelope(status, "Internal Server Error", "Internal error")

    def not_found(self, req):
        return self.envelope(404, "Not Found", "Resource not found")

    def method_not_allowed(self, req):
        return self.envelope(405, "Method Not Allowed", "Method not allowed")

    # shape: Req-Limit-Short / Req-Limit-Long "Remaining: N Time until reset: S" (providers.md §2.3)
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
        routes = {"/api/3.1/checks": ("checks", self.list_checks),
                  "/api/3.1/alerting/contacts": ("contacts", self.contacts),
                  "/api/3.1/alerting/teams": ("teams", self.teams),
                  "/api/3.1/maintenance": ("maintenance", self.maintenance)}
        kind, fn = routes.get(rel, (None, None))
        m = re.fullmatch(r"/api/3\.1/checks/(\d+)", rel)
        if m:
            kind, fn = "checks", lambda req, a: self.check_detail(req, a, int(m.group(1)))
        if fn is None:
            return self.not_found(req)
        if self.refused(a, kind):
            return self.forbidden()
        return fn(req, a)

    # ---- checks

    def check(self, a, i, cb, req):
        # shape: spec CheckWithStringType (GET /checks "checks" items); providers.md §2.2 list item
        t = self.TYPES[i % len(self.TYPES)]
        status = "paused" if a.paused(i) else ("down" if i % 7 == 6 else "up")
        d = {"id": cb + i, "created": a.created(i), "name": "%s Monitor %d" % (a.prefix(i), i + 1),
             "hostname": "m%d.example.com" % (i + 1), "resolution": (1, 5, 15)[i % 3], "type": t,
             "ipv6": False, "status": status,
             "lasterrortime": a.created(i) + 600, "lasttesttime": a.updated(i),
             "lastresponsetime": 100 + i % 400}
        if truthy(req.q("include_tags", "false")):
            d["tags"] = self.tags(a, i)
        if truthy(req.q("include_severity", "false")):
            d["severity_level"] = "HIGH" if i % 2 == 0 else "LOW"
        if a.options.get("new_fields"):
            # fields a later Pingdom version may add, which no table of ours knows: providers add
            # fields over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])
        return d

    def tags(self, a, i):
        # shape: spec Tag {name, type ("a" auto | "u" user), count}
        return [{"name": "demo", "type": "u", "count": a.n("monitors")},
                {"name": "tier-%d" % (i % 3), "type": "u", "count": 1}]

    def list_checks(self, req, a):
        # shape: spec "Checks" {checks: [...], counts: {total, limited, filtered}}; limit max 25000
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

    @staticmethod
    def http_settings(i, custom=False):
        """The type object of an http/httpcustom check i."""
        tls = i % 2 == 0
        port = (8443 if tls else 8080) if i % 3 == 0 else (443 if tls else 80)
        # shape: spec HttpAttributesGet (url, encryption, port, shouldcontain | shouldnotcontain,
        # postdata, requestheaders as a name -> value object in answers, per go-pingdom
        # CheckResponseHTTPDetails.RequestHeaders map[string]string), HttpCertificateAttributes
        # (verify_certificate, ssl_down_days_before: present only when verifying and >= 1)
        if custom:
            # shape: spec HttpCustomAttributes (url, encryption, port, additionalurls)
            return {"url": "/status-%d.xml" % (i + 1), "encryption": tls, "port": port,
                    "additionalurls": "https://m%d.example.com/extra.xml" % (i + 1),
                    "verify_certificate": True}
        t = {"url": "/health/%d?probe=pingdom&v=%d" % (i + 1, i % 3), "encryption": tls, "port": port,
             "requestheaders": {"User-Agent": PINGDOM_UA, "X-Check": "c%d" % (i + 1)},
             "verify_certificate": i % 6 != 5}
        if i % 4 == 0:
            t["shouldcontain"] = "OK-%d" % (i + 1)
        elif i % 4 == 1:
            t["shouldnotcontain"] = "Error %d" % (i + 1)
            t["postdata"] = "user=demo%d&remember=1" % (i + 1)
        if i % 5 == 2:
            t["requestheaders"]["User-Agent"] = "DemoAgent/%d" % (i + 1)
        if tls and t["verify_certificate"]:
            t["ssl_down_days_before"] = 7 + i % 3
        if i % 4 == 3:
            # shape: spec HttpAttributesGet username, password (the target's HTTP login, in answers)
            t["username"], t["password"] = "monitor%d" % (i + 1), "s3cret-pd-%d" % (i + 1)
        return t

    def type_settings(self, t, i):
        if t in ("http", "httpcustom"):
            return self.http_settings(i, t == "httpcustom")
        if t in ("tcp", "udp"):
            # shape: spec TcpAttributes / UdpAttributes (port, stringtosend, stringtoexpect)
            return {"port": 8000 + i % 1000, "stringtosend": "PING %d" % (i + 1),
                    "stringtoexpect": "PONG %d" % (i + 1)}
        if t == "dns":
            # shape: spec DnsAttributes (nameserver "DNS server to use", expectedip "Expected IP", one
            # address as a string; the spec's example is IPv4, and ipv6 "Use ipv6 instead of ipv4")
            return {"nameserver": "ns1.example.com",
                    "expectedip": "2001:db8::%x" % (i + 1) if i % 2 == 1 else "192.0.2.%d" % (1 + i % 250)}
        if t == "smtp":
            # shape: spec SmtpAttributesGet (port, encryption, stringtoexpect, username, password)
            return {"port": 587, "encryption": True, "stringtoexpect": "220 m%d" % (i + 1)}
        if t in ("pop3", "imap"):
            # shape: spec Pop3Attributes / ImapAttributes (port, stringtoexpect)
            return {"port": 995 if t == "pop3" else 993, "stringtoexpect": "+OK" if t == "pop3" else "* OK"}
        return {}

    def check_detail(self, req, a, cid):
        # shape: spec DetailedCheck ({"check": {..., "type": {<type>: {...}}}}: type is an object
        # keyed by the type here, a string in the list) + DetailedCheckAttributes; go-pingdom
        # TestCheckServiceRead (userids, teams only with include_teams=true; teamids never returned)
        n, cb = a.n("monitors"), self.cbase(a)
        i = cid - cb
        if not 0 <= i < n:
            return self.envelope(404, "Not Found", "Check not found")
        d = self.check(a, i, cb, req)
        t = d.pop("type")
        nc, ub = a.n("contacts"), self.ubase(a)
        nt, tb = a.n("teams"), self.tbase(a)
        # shape: spec DetailedCheckAttributes sendnotificationwhendown ("Send notification when down X
        # times", default 2) and notifyagainevery ("Notify again every n result. 0 means that no extra
        # notifications will be sent", default 0), integers
        d.update({"type": {t: self.type_settings(t, i)}, "sendnotificationwhendown": 1 + i % 4,
                  "notifyagainevery": NOTIFY_AGAIN[i % 4], "notifywhenbackup": True,
                  "responsetime_threshold": 5000 + 1500 * (i % 10),
                  # shape: spec DetailedCheckAttributes custom_message (text added to the alerts)
                  "custom_message": "Call the on-call DBA" if i % 3 == 1 else "",
                  "integrationids": [700000 + i] if i % 5 == 4 else [],
                  "probe_filters": [] if i % 3 == 2 else ["region: %s" % REGIONS[i % 4]],
                  "tags": self.tags(a, i),
                  "userids": [ub + i % nc] if nc else []})
        if truthy(req.q("include_teams", "false")):
            d["teams"] = ([{"id": tb + i % nt, "name": "%s Team %d" % (a.name_prefix, i % nt + 1)}]
                          if nt and i % 2 == 0 else [])
        return jreply(200, {"check": d})

    # ---- alerting

    def contacts(self, req, a):
        # shape: spec GET /alerting/contacts example (providers.md §2.2 "Contacts"):
        # notification_targets {email: [{severity, address}], sms: [{severity, country_code,
        # number, provider}], apns: [{apns_device, device_name, severity}]}
        nc, ub = a.n("contacts"), self.ubase(a)
        nt, tb = a.n("teams"), self.tbase(a)
        out = []
        for j in range(nc):
            targets = {"email": [{"severity": "HIGH", "address": "contact%d@example.com" % (j + 1)}]}
            if j % 2 == 1:
                targets["sms"] = [{"severity": "HIGH", "country_code": "1", "number": "555%07d" % j,
                                   "provider": "nexmo"}]
            if j % 4 == 3:
                targets["apns"] = [{"severity": "LOW", "apns_device": "%064x" % (j + 1),
                                    "device_name": "iPhone %d" % (j + 1)}]
            teams = [{"id": tb + t, "name": "%s Team %d" % (a.name_prefix, t + 1)}
                     for t in range(nt) if j in self.team_members(t, nc)][:5]
            out.append({"id": ub + j, "name": "%s Contact %d" % (a.prefix(j), j + 1), "paused": a.paused(j),
                        "type": "user" if j == 0 else "contact", "owner": j == 0,
                        "notification_targets": targets, "teams": teams})
        return jreply(200, {"contacts": out})

    @staticmethod
    def team_members(t, nc):
        return sorted({(2 * t) % nc, (2 * t + 1) % nc}) if nc else []

    def teams(self, req, a):
        # shape: spec AlertingTeams (GET /alerting/teams): {"teams": [{id, name, members: [{id, name,
        # type "user" | "contact"}]}]}; member ids are /alerting/contacts ids
        nc, ub = a.n("contacts"), self.ubase(a)
        nt, tb = a.n("teams"), self.tbase(a)
        out = [{"id": tb + t, "name": "%s Team %d" % (a.name_prefix, t + 1),
                "members": [{"id": ub + j, "name": "%s Contact %d" % (a.prefix(j), j + 1),
                             "type": "user" if j == 0 else "contact"} for j in self.team_members(t, nc)]}
               for t in range(nt)]
        return jreply(200, {"teams": out})

    # ---- maintenance windows

    def window(self, a, k):
        # shape: spec maintenance_resp_attrs items / go-pingdom MaintenanceResponse: {id, description,
        # from, to (unix seconds), recurrencetype none|day|week|month, repeatevery, effectiveto,
        # checks: {uptime: [...], tms: [...]}}
        n, cb = a.n("monitors"), self.cbase(a)
        rt = RECURRENCES[k % 4]
        start = BASE_TS + 86400 * (k + 1) + 7200
        end = start + 3600 * (1 + k % 3)
        uptime = sorted({cb + (3 * k + j) % n for j in range(3)}) if n else []
        return {"id": self.mbase(a) + k, "description": "%s Maintenance %d" % (a.prefix(k), k + 1),
                "from": start, "to": end, "recurrencetype": rt, "repeatevery": 0 if rt == "none" else 1,
                "effectiveto": end if rt == "none" else start + 90 * 86400,
                "checks": {"uptime": uptime, "tms": []}}

    def maintenance(self, req, a):
        # GET /maintenance?limit=&offset= (spec maintenance_limit / maintenance_offset; no counts)
        n = a.n("maintenance")
        limit = to_int(req.q("limit"), n)
        offset = to_int(req.q("offset"), 0)
        if limit is None or offset is None or limit < 0 or offset < 0:
            return self.envelope(400, "Bad Request", "Invalid parameter value for limit/offset")
        idx = range(offset, min(n, offset + (limit or n)))
        return jreply(200, {"maintenance": [self.window(a, k) for k in idx]})
