"""Fake Better Stack Uptime v2 (JSON:API) for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


class BetterStack(Provider):
    id = "better_stack"
    kinds = {"monitors": 12, "heartbeats": 2, "status_pages": 1,
             "email_integrations": 1, "slack_integrations": 1, "outgoing_webhooks": 1}
    required = ("api_token",)
    optional = ("team_name",)
    rl_default = 1000
    MTYPES = ("status", "expected_status_code", "keyword", "ping", "tcp", "keyword_absence", "dns")
    # path segment -> (kind, JSON:API type, id base lo)
    LISTS = {"monitors": ("monitors", "monitor", 100_000),
             "heartbeats": ("heartbeats", "heartbeat", 200_000),
             "status-pages": ("status_pages", "status_page", 300_000),
             "email-integrations": ("email_integrations", "email_integration", 400_000),
             "slack-integrations": ("slack_integrations", "slack_integration", 500_000),
             "outgoing-webhooks": ("outgoing_webhooks", "outgoing_webhook", 600_000)}
    INVALID = ("Invalid Team API token. How to find your Team API token: https://betterstack.com/docs/"
               "uptime/api/getting-started-with-uptime-api#obtaining-an-uptime-api-token")

    def demo_credentials(self):
        return {"api_token": DEMO_KEY}

    def expand_counts(self, counts):
        counts = dict(counts) if isinstance(counts, dict) else counts
        if isinstance(counts, dict) and "contacts" in counts:
            n = to_int(counts.pop("contacts"))
            if n is None or n < 0 or n > MAX_COUNT:
                raise ValueError("counts.contacts must be an integer 0..%d" % MAX_COUNT)
            for kind, share in (("email_integrations", (n + 2) // 3), ("slack_integrations", (n + 1) // 3),
                                ("outgoing_webhooks", n // 3)):
                counts.setdefault(kind, share)
        return Provider.expand_counts(self, counts)

    def kbase(self, a, kind):
        # one disjoint range of 10^8 per kind, so ids never collide across kinds
        lo = {k: lo for k, _, lo in self.LISTS.values()}[kind]
        return self.base(a, kind, lo * 1000, 90, 1_000_000)

    def ext_id(self, a, kind, i):
        return str(self.kbase(a, kind) + i)

    def team(self, a):
        return a.options.get("team_name") or a.credentials.get("team_name") or "Demo team"

    def bad_key(self, req):
        return jreply(401, {"errors": self.INVALID})

    def rate_limited(self, req, status, retry_hdr):
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
        m = re.fullmatch(r"/api/v2/([a-z-]+)(?:/(\d+)(?:/(sections|resources))?)?", req.rel)
        if not m or m.group(1) not in self.LISTS:
            return self.not_found(req)
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
            sec = {"id": str(b * 10 + i), "type": "status_page_section",
                   "attributes": {"name": "Services", "position": 0}}
            return self.paged(req, 1, lambda k: sec)
        refs = self.page_resources(a, i)
        return self.paged(req, len(refs), lambda k: self.resource(a, b * 10 + i, refs[k], k))

    def paged(self, req, n, build):
        page, per_page = page_params(req.q("page"), req.q("per_page"), 50, 250)
        last = max(1, (n + per_page - 1) // per_page)
        base = "http://%s/%s%s" % (req.host, self.id, req.rel)
        keep = [(k, v) for k, vs in req.query.items() if k != "page" for v in vs]

        def link(p):
            return base + "?" + urlencode([("page", p)] + keep)

        data = [build(i) for i in range((page - 1) * per_page, min(n, page * per_page))]
        return jreply(200, {"data": data, "pagination": {
            "first": link(1), "last": link(last),
            "prev": link(min(page - 1, last)) if page > 1 else None,
            "next": link(page + 1) if page < last else None}})

    def page_resources(self, a, j):
        refs = []
        nm, nh = a.n("monitors"), a.n("heartbeats")
        for k in range(min(5, nm)):
            refs.append(("Monitor", (j * 5 + k) % nm))
        if nh:
            refs.append(("Heartbeat", j % nh))
        return refs

    def resource(self, a, section_id, ref, pos):
        rtype, i = ref
        kind = "monitors" if rtype == "Monitor" else "heartbeats"
        label = "Monitor" if rtype == "Monitor" else "Heartbeat"
        rid = self.kbase(a, kind) + i
        return {"id": str(section_id * 100 + pos), "type": "status_page_resource",
                "attributes": {"status_page_section_id": section_id, "resource_id": rid,
                               "resource_type": rtype, "public_name": "%s %s %d" % (a.prefix(i), label, i + 1),
                               "explanation": "", "history": True, "widget_type": "history",
                               "position": pos, "availability": 1.0}}

    def item(self, a, kind, jtype, i, b, req):
        fn = getattr(self, "attrs_" + kind)
        return {"id": str(b + i), "type": jtype, "attributes": fn(a, i, req)}

    def common_times(self, a, i, paused=False):
        return {"paused_at": iso_ms(a.updated(i)) if paused else None,
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i))}

    def attrs_monitors(self, a, i, req):
        t = self.MTYPES[i % len(self.MTYPES)]
        host = "m%d.example.com" % (i + 1)
        url = host if t in ("ping", "tcp", "dns") else "https://%s/" % host
        paused = a.paused(i)
        d = {"url": url, "pronounceable_name": "%s Monitor %d" % (a.prefix(i), i + 1), "auth_username": "",
             "auth_password": "", "monitor_type": t, "monitor_group_id": None,
             "last_checked_at": iso_ms(a.updated(i)),
             "status": "paused" if paused else ("down" if i % 7 == 6 else "up"), "policy_id": None,
             "expiration_policy_id": None, "team_name": self.team(a),
             "required_keyword": "OK" if t.startswith("keyword") else None, "verify_ssl": True,
             "check_frequency": (180, 60, 30, 300)[i % 4], "call": False, "sms": False, "email": True,
             "push": True, "critical_alert": False, "team_wait": None, "http_method": "get",
             "request_timeout": 30, "recovery_period": 180, "request_headers": [], "request_body": "",
             "follow_redirects": True, "remember_cookies": True, "confirmation_period": 0,
             "regions": ["us", "eu", "as", "au"], "port": "443" if t == "tcp" else None,
             "maintenance_from": None, "maintenance_to": None, "maintenance_timezone": "UTC",
             "maintenance_days": [], "expected_status_codes": [200] if t == "expected_status_code" else []}
        d.update(self.common_times(a, i, paused))
        return d

    def attrs_heartbeats(self, a, i, req):
        paused = a.paused(i)
        d = {"url": "https://uptime.betterstack.com/api/v1/heartbeat/%s" % hid(12, self.id, a.seed, "hb", i),
             "name": "%s Heartbeat %d" % (a.prefix(i), i + 1), "period": (300, 3600, 86400)[i % 3],
             "grace": (60, 300, 3600)[i % 3], "call": False, "sms": False, "email": True, "push": True,
             "critical_alert": False, "team_wait": None, "heartbeat_group_id": None,
             "team_name": self.team(a), "sort_index": None, "maintenance_from": None,
             "maintenance_to": None, "maintenance_timezone": "UTC", "maintenance_days": [],
             "policy_id": None, "status": "paused" if paused else ("down" if i % 7 == 6 else "up")}
        d.update(self.common_times(a, i, paused))
        return d

    def attrs_status_pages(self, a, i, req):
        return {"company_name": "%s Status Page %d" % (a.prefix(i), i + 1),
                "company_url": "https://www.example.com", "contact_url": "mailto:support@example.com",
                "logo_url": None, "timezone": "UTC", "subdomain": "demo-status-%d-%s" % (i + 1, hid(4, self.id, a.seed, i)),
                "custom_domain": None, "custom_css": None, "google_analytics_id": None,
                "min_incident_length": 0, "announcement": None, "announcement_embed_visible": False,
                "announcement_embed_link": None, "subscribable": i % 2 == 0,
                "hide_from_search_engines": False, "password_enabled": i % 3 == 2, "history": 90,
                "aggregate_state": "operational", "design": "v2", "theme": "light", "layout": "vertical",
                "status_page_group_id": None, "team_name": self.team(a),
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i))}

    def attrs_email_integrations(self, a, i, req):
        return {"name": "%s Email %d" % (a.prefix(i), i + 1),
                "email_address": "contact%d.%s@betteruptime.com" % (i + 1, hid(6, self.id, a.seed, "em", i)),
                "policy_id": None, "call": False, "sms": False, "email": True, "push": True,
                "critical_alert": False, "team_wait": None, "recovery_period": 0, "paused": a.paused(i),
                "started_rule_type": "unused", "acknowledged_rule_type": "unused",
                "resolved_rule_type": "unused", "started_rules": [], "acknowledged_rules": [],
                "resolved_rules": [], "team_name": self.team(a),
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i))}

    def attrs_slack_integrations(self, a, i, req):
        return {"slack_team_id": "T0DEMO%04d" % a.seed, "slack_team_name": "%s Workspace" % a.prefix(i),
                "slack_channel_id": "C%s" % hid(8, self.id, a.seed, "ch", i).upper(),
                "slack_channel_name": "#%s-alerts-%d" % (a.prefix(i).lower().replace(" ", "-"), i + 1),
                "slack_status": "active", "integration_type": "verbose", "on_call_notifications": False,
                "notify_on_pause": True, "notify_on_resolve": True}

    def attrs_outgoing_webhooks(self, a, i, req):
        return {"name": "%s Webhook %d" % (a.prefix(i), i + 1),
                "url": "https://hooks.example.com/bs/%d" % (i + 1),
                "trigger_type": ("incident_change", "monitor_change", "on_call_change")[i % 3],
                "on_incident_started": i % 3 == 0, "on_incident_acknowledged": False,
                "on_incident_resolved": i % 3 == 0, "on_incident_reopened": False,
                "on_incident_comment": False, "notify_alongside_primary_responder": True,
                "custom_webhook_template_attributes": None, "team_name": self.team(a)}
