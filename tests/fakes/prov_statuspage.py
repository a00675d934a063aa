"""Fake Atlassian Statuspage v1 for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


class Statuspage(Provider):
    id = "statuspage"
    kinds = {"status_pages": 1, "components": 12, "subscribers": 3}
    aliases = {"pages": "status_pages", "monitors": "components", "contacts": "subscribers"}
    required = ("api_key",)
    optional = ("page_id",)
    STATUSES = ("operational", "operational", "degraded_performance", "operational",
                "partial_outage", "operational", "major_outage")
    MODES = ("email", "sms", "webhook", "slack")

    def rate_limit_status(self, a):
        return (a.options.get("rate_limit_status") if a else None) or 420

    def page_id(self, a, p):
        return hid(12, self.id, a.seed, "page", p)

    def ext_id(self, a, kind, i, p=0):
        if kind == "status_pages":
            return self.page_id(a, i)
        return hid(12, self.id, a.seed, kind, p, i)

    def summary_extra(self, a):
        pages = [self.page_id(a, p) for p in range(min(a.n("status_pages"), 1000))]
        return {"page_ids": pages}

    def bad_key(self, req):
        return jreply(401, {"error": "Could not authenticate"})

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return Reply(status, obj={"error": "Rate limit exceeded"}, headers=headers,
                     reason="Enhance Your Calm" if status == 420 else None)

    def server_error(self, req, status):
        return jreply(status, {"message": "Internal Server Error"})

    def not_found(self, req):
        return jreply(404, {"message": "Not Found"})

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        auth = req.header("Authorization", "")
        m = re.match(r"(?i)oauth\s+(.+)$", auth.strip())
        key = m.group(1).strip() if m else req.q("api_key")
        if a is None or not key or key != a.credentials["api_key"]:
            return self.bad_key(req)
        rel = re.sub(r"\.json$", "", req.rel)
        if rel == "/v1/pages":
            return jreply(200, [self.page(a, p) for p in range(a.n("status_pages"))])
        m = re.fullmatch(r"/v1/pages/([0-9a-z]+)(?:/([a-z-]+))?", rel)
        if not m:
            return self.not_found(req)
        p = self.page_index(a, m.group(1))
        if p is None:
            return jreply(404, {"message": "Page not found"})
        sub = m.group(2)
        if sub is None:
            return jreply(200, self.page(a, p))
        if sub == "components":
            page, per = page_params(req.q("page"), req.q("per_page"), 100, 100)
            n = a.n("components")
            idx = range((page - 1) * per, min(n, page * per))
            return jreply(200, [self.component(a, p, i) for i in idx])
        if sub == "subscribers":
            page, limit = page_params(req.q("page"), req.q("limit"), 100, 100, first=0)
            n = a.n("subscribers")
            state = req.q("state", "active")
            mode = req.q("type")
            if state not in ("active", "all") or (mode and mode not in self.MODES):
                sel = []
            elif mode:
                sel = [j for j in range(n) if self.MODES[j % len(self.MODES)] == mode]
            else:
                sel = range(n)
            idx = sel[page * limit:(page + 1) * limit]
            return jreply(200, [self.subscriber(a, p, j) for j in idx])
        if sub in ("component-groups", "incidents"):
            return jreply(200, [])
        return self.not_found(req)

    def page_index(self, a, pid):
        for p in range(min(a.n("status_pages"), 100_000)):
            if self.page_id(a, p) == pid:
                return p
        return None

    def page(self, a, p):
        pid = self.page_id(a, p)
        sub = "demo-%d-%s" % (p + 1, pid[:4])
        return {"id": pid, "created_at": iso_ms(a.created(p)), "updated_at": iso_ms(a.updated(p)),
                "name": "%s Status Page %d" % (a.prefix(p), p + 1), "page_description": None,
                "headline": None, "branding": "basic", "subdomain": sub, "domain": None,
                "url": "https://%s.statuspage.io" % sub, "support_url": None, "hidden_from_search": False,
                "allow_page_subscribers": True, "allow_incident_subscribers": True,
                "allow_email_subscribers": True, "allow_sms_subscribers": True,
                "allow_rss_atom_feeds": True, "allow_webhook_subscribers": True,
                "notifications_from_email": None, "notifications_email_footer": None,
                "activity_score": 0, "twitter_username": None, "viewers_must_be_team_members": p % 3 == 2,
                "ip_restrictions": None, "city": None, "state": None, "country": None,
                "time_zone": "Etc/UTC", "css_body_background_color": "#ffffff",
                "css_font_color": "#333333", "css_light_font_color": "#757575",
                "css_greens": "#2fcc66", "css_yellows": "#f1c40f", "css_oranges": "#e67e22",
                "css_blues": "#3498db", "css_reds": "#e74c3c", "css_border_color": "#ecf0f1",
                "css_graph_color": "#3498db", "css_link_color": "#3498db", "css_no_data": "#b3bac5",
                "favicon_logo": None, "transactional_logo": None, "hero_cover": None,
                "email_logo": None, "twitter_logo": None}

    def component(self, a, p, i):
        cid = self.ext_id(a, "components", i, p)
        status = "under_maintenance" if a.paused(i) else self.STATUSES[i % len(self.STATUSES)]
        return {"id": cid, "page_id": self.page_id(a, p), "group_id": None,
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i)), "group": False,
                "name": "%s Component %d" % (a.prefix(i), i + 1), "description": None if i % 2 else "Generated",
                "position": i + 1, "status": status, "showcase": True, "only_show_if_degraded": False,
                "automation_email": "component+%s@notifications.statuspage.io" % cid,
                "start_date": day(a.created(i))}

    def subscriber(self, a, p, j):
        mode = self.MODES[j % len(self.MODES)]
        nco = a.n("components")
        d = {"id": self.ext_id(a, "subscribers", j, p), "skip_confirmation_notification": False,
             "mode": mode, "email": None, "endpoint": None, "phone_number": None, "phone_country": None,
             "display_phone_number": None, "obfuscated_channel_name": None, "workspace_name": None,
             "quarantined_at": None, "purge_at": None,
             "components": [self.ext_id(a, "components", j % nco, p)] if nco and j % 2 else [],
             "page_access_user_id": None, "created_at": iso_ms(a.created(j))}
        if mode == "email":
            d["email"] = "subscriber%d@example.com" % (j + 1)
        elif mode == "sms":
            d.update({"phone_number": "555%07d" % j, "phone_country": "US",
                      "display_phone_number": "+1 555-%03d-%04d" % (j // 10000 % 1000, j % 10000)})
        elif mode == "webhook":
            d["endpoint"] = "https://hooks.example.com/sp/%d" % (j + 1)
            d["email"] = "owner%d@example.com" % (j + 1)
        else:
            d.update({"obfuscated_channel_name": "#a***s-%d" % (j + 1), "workspace_name": "Demo"})
        return d
