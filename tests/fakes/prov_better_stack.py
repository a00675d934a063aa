"""Fake Better Stack Uptime (JSON:API) for fakeprov.py: its real wire format (providers.md §4; sources cited per shape).

Sources: betterstack.com/docs/uptime/api (pagination, monitors, heartbeats, status pages and their
sections/resources, on-call-calendar-api-response-params, policies) and the official Terraform provider
BetterStackHQ/terraform-provider-better-uptime internal/provider/*.go (the structs named below).

Generated data is rich and deterministic from the index (see the attrs_* functions):
monitor i has type MTYPES[i % 12], alert flags, team_wait (None, 180, 300)[i % 3], a policy for
i % 4 == 3, a maintenance window for i % 3 == 0, confirmation_period CONFIRM[i % 4], recovery_period
RECOVER[i % 3], and a basic-auth login when it is an HTTP check with i % 4 in (1, 2); users j are the
people and the whole team (on call on the default calendar: the first `on_call` of them, default 2; on
the Secondary calendar: the last user when there are more); policy p's steps notify, at 0 s, a user by
id and the default calendar's on-call users, 600 s later a user by e-mail, a Slack integration and the
Secondary calendar's on-call users, 300 s after that the entire team; status page k has two sections
with monitors, a heartbeat and a manually tracked item, and `reports` status reports (count "reports",
default 3; report r started 1 + 2r days before BASE_TS, listed oldest first): REPORT_TYPES[r % 3],
resolved two hours later except the newest, affecting its page's first resource (and, for r == 1, a
resource id the page does not show), each with two status updates (three for a maintenance; bodies with
non-ASCII text) listed newest first. Account options: "refuse": list of endpoint kinds ("heartbeats",
"on-calls", "team-members", "policies", "status-pages", "sections", "resources", "status-reports",
"status-updates") answered with 403; "new_fields": {name: value} adds those members to the attributes
of every monitor (fields a later version may add).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


class BetterStack(Provider):
    id = "better_stack"
    kinds = {"monitors": 12, "heartbeats": 2, "status_pages": 1, "users": 3, "policies": 1, "reports": 3}
    # shape: report_type, status-page-reports-api-response-params ("manual, automatic or maintenance")
    REPORT_TYPES = ("manual", "maintenance", "automatic")
    aliases = {"contacts": "users"}
    required = ("api_token",)
    optional = ("team_name",)
    rl_default = 1000
    # shape: monitor_type values, TF resource_monitor.go monitorTypes
    MTYPES = ("status", "expected_status_code", "keyword", "keyword_absence", "ping", "tcp", "udp", "smtp",
              "pop", "imap", "dns", "playwright")
    # port strings per type, TF resource_monitor.go "port" description ("25,465,587" for smtp)
    PORTS = {"tcp": "5432", "udp": "53", "smtp": "25,465,587", "pop": "110,995", "imap": "993"}
    METHODS = ("get", "head", "post", "put", "patch")
    ZONES = ("Amsterdam", "Eastern Time (US & Canada)", "UTC", "Prague")   # Rails TimeZone names
    FIRST = ("Ann", "Bob", "Cleo", "Dan", "Eva", "Finn")
    LAST = ("Lee", "Novak", "Ortiz", "Berg", "Kim", "Haas")
    REFUSABLE = ("heartbeats", "on-calls", "team-members", "policies", "status-pages", "sections", "resources",
                 "status-reports", "status-updates")
    CONFIRM = (0, 60, 120, 300)   # confirmation_period, s (docs monitor example: 120)
    RECOVER = (180, 0, 300)       # recovery_period, s (docs monitor example: 0)
    # path segment -> (kind, JSON:API type, id base lo)
    LISTS = {"monitors": ("monitors", "monitor", 100_000),
             "heartbeats": ("heartbeats", "heartbeat", 200_000),
             "status-pages": ("status_pages", "status_page", 300_000)}
    BASES = {"monitors": 100_000, "heartbeats": 200_000, "status_pages": 300_000, "users": 400_000,
             "policies": 500_000, "calendars": 600_000}
    INVALID = ("Invalid Team API token. How to find your Team API token: https://betterstack.com/docs/"
               "uptime/api/getting-started-with-uptime-api#obtaining-an-uptime-api-token")

    def demo_credentials(self):
        return {"api_token": DEMO_KEY}

    def kbase(self, a, kind):
        # one disjoint range of 10^8 per kind, so ids never collide across kinds
        return self.base(a, kind, self.BASES[kind] * 1000, 90, 1_000_000)

    def ext_id(self, a, kind, i):
        if kind == "reports":   # of the first status page
            return str(self.report_base(a, 0) + i)
        return str(self.kbase(a, kind) + i)

    def team(self, a):
        return a.options.get("team_name") or a.credentials.get("team_name") or "Demo team"

    def on_call(self, a):
        n = to_int(a.options.get("on_call"), 2)
        return max(0, min(n if n is not None else 2, a.n("users")))

    # shape: 401 body, providers.md §4.3 (errors is a string)
    def bad_key(self, req):
        return jreply(401, {"errors": self.INVALID})

    # shape: 403 for a list the key may not read; unconfirmed in the docs (providers.md §11): the same
    # "errors" string form as the 401
    def forbidden(self, req):
        return jreply(403, {"errors": "You are not allowed to access this resource with this API token."})

    # shape: 429 with Retry-After and no limit headers: the limits are not published and the
    # official Terraform provider retries a 429 after its Retry-After (providers.md §4.3)
    def rate_limited(self, req, status, retry_hdr, reset_in):
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
        if req.rel == "/api/v2/on-calls":
            return self.forbidden(req) if self.refused(a, "on-calls") else self.on_calls(req, a)
        if req.rel == "/api/v2/team-members":
            return self.forbidden(req) if self.refused(a, "team-members") else self.team_members(req, a)
        if req.rel == "/api/v3/policies":
            if self.refused(a, "policies"):
                return self.forbidden(req)
            n, b = a.n("policies"), self.kbase(a, "policies")
            return self.paged(req, n, lambda p: self.policy(a, p, b))
        m = re.fullmatch(r"/api/v2/status-pages/(\d+)/status-reports(?:/(\d+)/(status-updates))?", req.rel)
        if m:
            return self.history(req, a, m)
        m = re.fullmatch(r"/api/v2/([a-z-]+)(?:/(\d+)(?:/(sections|resources))?)?", req.rel)
        if not m or m.group(1) not in self.LISTS:
            return self.not_found(req)
        if self.refused(a, m.group(3) or m.group(1)):
            return self.forbidden(req)
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
            secs = self.sections(b, i)
            return self.paged(req, len(secs), lambda k: secs[k])
        refs = self.page_resources(a, i)
        return self.paged(req, len(refs), lambda k: self.resource(a, b * 10 + i, refs[k], k))

    # shape: pagination {first,last,prev,next} absolute URLs, per_page default 50 max 250
    # (betterstack.com/docs/uptime/api/pagination)
    def paged(self, req, n, build, extra=None):
        page, per_page = page_params(req.q("page"), req.q("per_page"), 50, 250)
        last = max(1, (n + per_page - 1) // per_page)
        base = "http://%s/%s%s" % (req.host, self.id, req.rel)
        keep = [(k, v) for k, vs in req.query.items() if k != "page" for v in vs]

        def link(p):
            return base + "?" + urlencode([("page", p)] + keep)

        data = [build(i) for i in range((page - 1) * per_page, min(n, page * per_page))]
        body = {"data": data}
        if extra is not None:
            body["included"] = extra(data)
        body["pagination"] = {
            "first": link(1), "last": link(last),
            "prev": link(min(page - 1, last)) if page > 1 else None,
            "next": link(page + 1) if page < last else None}
        return jreply(200, body)

    # ---- people: users, on-call calendars, policies

    def user(self, a, j):
        return {"id": str(self.kbase(a, "users") + j), "first_name": self.FIRST[j % 6],
                "last_name": "%s%s" % (self.LAST[j % 6], "" if j < 6 else " %d" % (j + 1)),
                "email": "user%d@example.com" % (j + 1),
                "phone_numbers": ["+4206%08d" % (j + 1)] if j % 2 == 0 else []}

    # shape: on-call calendar list, docs on-call-calendar-api-response-params (included type on_call_user,
    # relationships.on_call_users.data[] {id, type user, meta.email}); TF data_on_call_calendar.go
    # onCallCalendarsPageHTTPResponse
    def on_calls(self, req, a):
        cb, nu = self.kbase(a, "calendars"), a.n("users")
        oncall = [self.user(a, j) for j in range(self.on_call(a))]
        other = [self.user(a, nu - 1)] if nu > self.on_call(a) else []
        cals = [("Secondary", False, other, cb + 1), ("Primary", True, oncall, cb)]

        def cal(k):
            name, default, users, cid = cals[k]
            return {"id": str(cid), "type": "on_call_calendar",
                    "attributes": {"name": name, "default_calendar": default, "team_name": self.team(a)},
                    "relationships": {"on_call_users": {"data": [
                        {"id": u["id"], "type": "user", "meta": {"email": u["email"]}} for u in users]}}}

        def included(data):
            seen, out = set(), []
            for c in data:
                for r in c["relationships"]["on_call_users"]["data"]:
                    if r["id"] not in seen:
                        seen.add(r["id"])
                        u = next(x for x in oncall + other if x["id"] == r["id"])
                        out.append({"id": u["id"], "type": "on_call_user", "attributes": {
                            k: u[k] for k in ("first_name", "last_name", "email", "phone_numbers")}})
            return out

        return self.paged(req, len(cals), cal, included)

    # shape: team members, docs team-members/list (GET https://betterstack.com/api/v2/team-members: data[]
    # of team_member {email, first_name, last_name, created_at, role, mobile_app_platforms}, and
    # team_member_invitation {email, invited_at, role} for a pending invitation); TF resource_team_member.go
    def team_members(self, req, a):
        nu = a.n("users")

        def member(j):
            if j == nu:
                return {"id": str(self.kbase(a, "users") + 900 + j), "type": "team_member_invitation",
                        "attributes": {"email": "invited%d@example.com" % (j + 1),
                                       "invited_at": iso_ms(a.created(j)), "role": "member"}}
            u = self.user(a, j)
            return {"id": u["id"], "type": "team_member", "attributes": {
                "email": u["email"], "first_name": u["first_name"], "last_name": u["last_name"],
                "created_at": iso_ms(a.created(j)), "role": ("admin", "responder", "member")[j % 3],
                "mobile_app_platforms": ["ios"] if j % 2 == 0 else []}}

        return self.paged(req, nu + 1, member)

    # shape: escalation policy, docs create-escalation-policy / policies; TF resource_policy.go policy,
    # policyStep (wait_before: "since previous step"), policyStepMember (type; id: the user, or the on-call
    # calendar of current_on_call, none for the default one; or email for a user)
    def policy(self, a, p, b):
        nu = max(1, a.n("users"))
        u1, u2 = self.user(a, p % nu), self.user(a, (p + 1) % nu)
        return {"id": str(b + p), "type": "policy", "attributes": {
            "name": "%s Policy %d" % (a.prefix(p), p + 1), "repeat_count": 3, "repeat_delay": 1800,
            "incident_token": hid(12, self.id, a.seed, "pol", p), "policy_group_id": None,
            "team_name": self.team(a),
            "steps": [
                {"type": "escalation", "wait_before": 0, "urgency_id": 123456,
                 "step_members": [{"type": "user", "id": int(u1["id"])}, {"type": "current_on_call"}]},
                {"type": "escalation", "wait_before": 600, "urgency_id": 123456,
                 "step_members": [{"type": "user", "email": u2["email"]},
                                  {"type": "slack_integration", "id": 7700 + p},
                                  {"type": "current_on_call", "id": self.kbase(a, "calendars") + 1}]},
                {"type": "escalation", "wait_before": 300, "urgency_id": 123456,
                 "step_members": [{"type": "entire_team"}]},
                {"type": "time_branching", "wait_before": 0, "timezone": "Prague", "days": ["sat", "sun"],
                 "time_from": "18:00", "time_to": "08:00", "policy_id": None}]}}

    # ---- monitors, heartbeats

    def alerting(self, a, i, with_policy):
        pol = None
        if with_policy and a.n("policies"):
            pol = str(self.kbase(a, "policies") + (i // 4) % a.n("policies"))
        return {"call": i % 3 == 0, "sms": i % 2 == 0, "email": True, "push": i % 2 == 1,
                "critical_alert": i % 5 == 0, "team_wait": (None, 180, 300)[i % 3], "policy_id": pol}

    def maintenance(self, i, on):
        if not on:
            return {"maintenance_from": None, "maintenance_to": None, "maintenance_timezone": "UTC",
                    "maintenance_days": []}
        overnight = (i // 3) % 2 == 1
        return {"maintenance_from": "23:00:00" if overnight else "01:00:00",
                "maintenance_to": "02:30:00" if overnight else "03:00:00",
                "maintenance_timezone": self.ZONES[i % 4],
                "maintenance_days": [] if overnight else ["sat", "sun"]}

    def item(self, a, kind, jtype, i, b, req):
        fn = getattr(self, "attrs_" + kind)
        return {"id": str(b + i), "type": jtype, "attributes": fn(a, i, req)}

    def common_times(self, a, i, paused=False):
        return {"paused_at": iso_ms(a.updated(i)) if paused else None,
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i))}

    def monitor_url(self, t, i):
        host = "m%d.example.com" % (i + 1)
        if t in ("ping", "tcp", "udp", "smtp", "pop", "imap"):
            return host
        if t == "dns":
            return "9.9.9.9"   # the DNS server asked (TF resource.tf example: url "1.1.1.1")
        port = ":8443" if i % 3 == 1 else ""
        return "https://%s%s/health/%d?probe=migrator&n=%d" % (host, port, i + 1, i)

    def login(self, a, i):
        """The basic-auth user name and password of monitor i, or None."""
        t = self.MTYPES[i % len(self.MTYPES)]
        if t not in ("status", "expected_status_code", "keyword", "keyword_absence") or i % 4 not in (1, 2):
            return None
        return "probe-%d" % (i + 1), "s3cret-%d-%s-ü/+=" % (i, hid(10, self.id, a.seed, "pw", i))

    # shape: monitor attributes, docs monitors API + TF resource_monitor.go monitor struct
    def attrs_monitors(self, a, i, req):
        t = self.MTYPES[i % len(self.MTYPES)]
        http = t in ("status", "expected_status_code", "keyword", "keyword_absence")
        method = self.METHODS[i % 5] if http else "get"
        paused = a.paused(i)
        d = {"url": self.monitor_url(t, i), "pronounceable_name": "%s Monitor %d" % (a.prefix(i), i + 1),
             # basic auth (docs create-a-new-monitor auth_username/auth_password; TF: Sensitive)
             "auth_username": self.login(a, i)[0] if self.login(a, i) else "",
             "auth_password": self.login(a, i)[1] if self.login(a, i) else "",
             "monitor_type": t, "monitor_group_id": None, "last_checked_at": iso_ms(a.updated(i)),
             "status": "paused" if paused else ("down" if i % 7 == 6 else "up"),
             "expiration_policy_id": None, "team_name": self.team(a),
             "required_keyword": {"keyword": "All systems go %d" % (i + 1), "keyword_absence": "Error %d" % (i + 1),
                                  "udp": "pong"}.get(t),
             "verify_ssl": i % 3 != 2, "check_frequency": (30, 60, 180, 300)[i % 4],
             "http_method": method,
             # request_timeout: seconds for HTTP checks, milliseconds for server/port checks (TF description)
             "request_timeout": (2, 3, 5, 10, 15, 30, 45, 60)[i % 8] if http or t == "playwright"
             else (500, 1000, 2000, 3000, 5000)[i % 5],
             "recovery_period": self.RECOVER[i % 3],
             "request_headers": [{"id": str(900 + i), "name": "X-Probe", "value": "m%d" % (i + 1)},
                                 {"id": str(1900 + i), "name": "Accept", "value": "application/json"}] if http else [],
             "request_body": ('{"probe":%d}' % i if method in ("post", "put", "patch") else "") if http
             # dns: the domain to query the DNS server with (docs create-a-new-monitor, monitor_type dns)
             else ("m%d.example.com" % (i + 1) if t == "dns" else ""),
             "follow_redirects": i % 2 == 0, "remember_cookies": True, "confirmation_period": self.CONFIRM[i % 4],
             "regions": (["us", "eu"], ["eu", "as", "au"], ["us", "eu", "as", "au"])[i % 3],
             "port": self.PORTS.get(t),
             "ssl_expiration": (7, 14, 30)[i % 3] if http else None, "domain_expiration": None,
             # numbers as strings: the odd expected_status_code monitors send them as text
             "expected_status_codes": ([200, 204] if i % 2 == 0 else ["200", "301"]) if t == "expected_status_code" else [],
             "ip_version": None}
        if t == "playwright":
            # shape: playwright_script, scenario_name (TF resource_monitor.go monitor struct)
            d["playwright_script"] = "test('home', async ({ page }) => { await page.goto('https://m%d.example.com'); });" % (i + 1)
            d["scenario_name"] = "Home page %d" % (i + 1)
        d.update(self.alerting(a, i, i % 4 == 3))
        d.update(self.maintenance(i, i % 3 == 0))
        d.update(self.common_times(a, i, paused))
        if a.options.get("new_fields"):
            # fields a later Better Stack version may add, which no table of ours knows: providers add
            # fields over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])
        return d

    # shape: heartbeat attributes, docs heartbeats API + TF resource_heartbeat.go heartbeat struct
    def attrs_heartbeats(self, a, i, req):
        paused = a.paused(i)
        d = {"url": "https://uptime.betterstack.com/api/v1/heartbeat/%s" % hid(12, self.id, a.seed, "hb", i),
             "name": "%s Heartbeat %d" % (a.prefix(i), i + 1), "period": (300, 3600, 86400)[i % 3],
             "grace": (60, 300, 3600)[i % 3], "heartbeat_group_id": None, "team_name": self.team(a),
             "sort_index": None, "status": "paused" if paused else ("down" if i % 7 == 6 else "up")}
        d.update(self.alerting(a, i + 1, i % 3 == 2))
        d.update(self.maintenance(i, i % 2 == 1))
        d.update(self.common_times(a, i, paused))
        return d

    # ---- status pages

    # shape: status page attributes, docs status pages API + TF resource_status_page.go statusPage struct
    def attrs_status_pages(self, a, i, req):
        return {"company_name": "%s Status Page %d" % (a.prefix(i), i + 1),
                "company_url": "https://www.example.com", "contact_url": "mailto:support@example.com",
                "logo_url": None, "timezone": ("Prague", "Eastern Time (US & Canada)")[i % 2],
                "subdomain": "demo-status-%d-%s" % (i + 1, hid(4, self.id, a.seed, i)),
                "custom_domain": "status%d.example.com" % (i + 1) if i % 2 == 1 else None,
                "custom_css": None, "google_analytics_id": None,
                "min_incident_length": 0, "announcement": None, "announcement_embed_visible": False,
                "announcement_embed_link": None, "subscribable": i % 2 == 0,
                "hide_from_search_engines": False, "password_enabled": i % 3 == 2, "history": 90,
                "aggregate_state": "operational", "design": "v2", "theme": "light", "layout": "vertical",
                "status_page_group_id": None, "team_name": self.team(a),
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i))}

    # ---- status reports (a page's history)

    def history(self, req, a, m):
        if self.refused(a, m.group(3) or "status-reports"):
            return self.forbidden(req)
        b = self.kbase(a, "status_pages")
        j = int(m.group(1)) - b
        if not 0 <= j < a.n("status_pages"):
            return jreply(404, {"errors": "Resource type StatusPage with id = %s was not found" % m.group(1)})
        n = min(a.n("reports"), 10_000)
        if m.group(2) is None:
            return self.paged(req, n, lambda r: self.report(a, j, r))
        r = int(m.group(2)) - self.report_base(a, j)
        if not 0 <= r < n:
            return jreply(404, {"errors": "Resource type StatusReport with id = %s was not found" % m.group(2)})
        ups = self.report_updates(a, j, r)
        return self.paged(req, len(ups), lambda k: ups[k])

    def report_base(self, a, j):
        return self.kbase(a, "status_pages") * 100 + j * 10_000

    # shape: status report, docs list-existing-reports-on-a-status-page and
    # status-page-reports-api-response-params (https://betterstack.com/docs/uptime/api/
    # list-existing-reports-on-a-status-page/): id, type status_report, attributes {title, report_type,
    # starts_at, ends_at, status_page_id, affected_resources [{status_page_resource_id, status}],
    # aggregate_state}, relationships.status_updates.data [{id, type}]; listed oldest first
    def report(self, a, j, r):
        n = a.n("reports")
        k = n - 1 - r                        # listed oldest first: k = 0 is the newest
        rtype = self.REPORT_TYPES[k % 3]
        start = BASE_TS - (1 + 2 * k) * 86400
        b = self.kbase(a, "status_pages")
        first = str((b * 10 + j) * 100 + 0)  # the page's first resource (resource position 0)
        aff = [{"status_page_resource_id": first, "status": "maintenance" if rtype == "maintenance" else "downtime"}]
        if k == 1:
            aff.append({"status_page_resource_id": "999999999", "status": "degraded"})
        rid = self.report_base(a, j) + r
        return {"id": str(rid), "type": "status_report",
                "attributes": {"title": "%s Report %d" % (a.prefix(k), k + 1), "report_type": rtype,
                               "starts_at": iso_ms(start), "ends_at": iso_ms(start + 7200) if k > 0 else None,
                               "status_page_id": b + j, "affected_resources": aff,
                               "aggregate_state": "maintenance" if rtype == "maintenance" else
                               ("downtime" if k % 2 == 0 else "degraded")},
                "relationships": {"status_updates": {"data": [
                    {"id": u["id"], "type": "status_update"} for u in self.report_updates(a, j, r)]}}}

    # shape: status update, docs list-all-existing-status-updates-for-a-status-page-report
    # (https://betterstack.com/docs/uptime/api/list-all-existing-status-updates-for-a-status-page-report/):
    # attributes {message, published_at, status_report_id, affected_resources}; listed newest first
    def report_updates(self, a, j, r):
        n = a.n("reports")
        k = n - 1 - r
        start = BASE_TS - (1 + 2 * k) * 86400
        msgs = ["We see errors on report %d — “Überprüfung” läuft." % (k + 1), "Fixed ✓ (report %d)." % (k + 1)]
        if self.REPORT_TYPES[k % 3] == "maintenance":
            msgs.insert(1, "Half way through report %d." % (k + 1))
        rid = self.report_base(a, j) + r
        ups = [{"id": str(rid * 10 + u), "type": "status_update",
                "attributes": {"message": msg, "published_at": iso_ms(start + u * 1800), "status_report_id": rid,
                               "affected_resources": [], "notify_subscribers": u == 0}}
               for u, msg in enumerate(msgs)]
        return list(reversed(ups))

    # shape: status page section, docs status-page-sections + TF resource_status_page_section.go
    # (type string "status_page_section" unconfirmed, providers.md §4.2 L); listed newest first
    def sections(self, b, j):
        return [{"id": str(b * 10 + j * 2 + k), "type": "status_page_section",
                 "attributes": {"name": name, "position": k}}
                for k, name in ((1, "Background jobs"), (0, "Services"))]

    def page_resources(self, a, j):
        refs = []
        nm, nh = a.n("monitors"), a.n("heartbeats")
        for k in range(min(5, nm)):
            refs.append(("Monitor", (j * 5 + k) % nm, 0))
        if nh:
            refs.append(("Heartbeat", j % nh, 1))
        refs.append(("ManuallyTrackedItem", None, 1))
        return refs

    # shape: status page resource, docs status-page-resources + TF resource_status_page_resource.go
    # (resource_type Monitor/Heartbeat/ManuallyTrackedItem, status_page_section_id, public_name, position);
    # listed in reverse position order so clients must sort
    def resource(self, a, section_base, ref, pos):
        rtype, i, sec = ref
        j = section_base - self.kbase(a, "status_pages") * 10
        sid = self.kbase(a, "status_pages") * 10 + j * 2 + sec
        if rtype == "ManuallyTrackedItem":
            rid, public = 10_000 + j, "Office network"
        else:
            kind = "monitors" if rtype == "Monitor" else "heartbeats"
            rid = self.kbase(a, kind) + i
            public = "%s %s %d" % (a.prefix(i), "Monitor" if rtype == "Monitor" else "Heartbeat", i + 1)
        return {"id": str(section_base * 100 + pos), "type": "status_page_resource",
                "attributes": {"status_page_section_id": sid, "resource_id": rid,
                               "resource_type": rtype, "public_name": public,
                               "explanation": "", "history": True, "widget_type": "history",
                               "position": 10 - pos, "availability": 1.0}}
