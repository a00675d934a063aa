"""Fake Atlassian Statuspage v1 for fakeprov.py: its real wire format (providers.md §8; sources cited per shape).

Source ("OpenAPI" below): the official Statuspage manage API v1 OpenAPI, as copied in
sbecker59/statuspage-api-client-go api/v1/statuspage/api/openapi.yaml (schemas Page, Component,
GroupComponent, Incident, IncidentUpdate, Subscriber, ErrorEntity; the paths' parameters), the reference
it is published as (https://developer.statuspage.io/), and providers.md §8.2, which restates it.

Generated data (every value from the page index p and the item's index, so tests can predict it;
see README.md):
* page p: `domain` status<p+1>.<prefix>.example when p is even (else null), `subdomain`
  demo-<p+1>-<id[:4]>, `url` (the company website, not the page) https://www.company<p+1>.example,
  `time_zone` TIMEZONES[p % 4], `page_description`, `headline`, audience-specific
  (`viewers_must_be_team_members`) when p % 3 == 2.
* component group g of a page: name GROUPS[g % 4] (+ " <g+1>" past 4), `components` = its members.
* component i of a page: in group i % groups unless i % 4 == 3 (no group); the list holds first
  every group's own row (`group: true`), then the components in index order.
* subscriber j of a page: `mode` MODES[j % 5]; state quarantined when j % 7 == 6, else
  unconfirmed when j % 3 == 2, else active; `components` [] (all) when j % 3 == 0, else
  components j and j+1 (mod components), and subscriber 4 also a component the page does not list
  (GHOST, one since deleted).
* incident k of a page (count "incidents"; newest first, k = 0 the newest): started 1 + 2k days
  before BASE_TS, status INCIDENT_STATUSES[k % 5], impact IMPACTS[k % 4], resolved an hour later when
  its status is resolved, three updates (INCIDENT_UPDATES, 20 minutes apart, bodies with non-ASCII
  text, listed newest first as the API does), components k and k+1 (mod components) and, for k == 1,
  GHOST too.
* maintenance m of a page (count "maintenances"): scheduled for 1 + 3m days after BASE_TS (m even:
  status scheduled, upcoming) or before it (m odd: completed, resolved at its end), two hours long,
  component m; listed by GET .../incidents (after the incidents) and, when upcoming, also by GET
  .../incidents/scheduled.
Account options: "refuse": a list among "component_groups", "components", "subscribers", "incidents",
"scheduled" (the scheduled maintenances), answered 403 as for a plan or key without them; "page_base": how `page` of components and component groups
is read: 1 (default: numbered from 1, page 0 read as page 1), 0 (numbered from 0) or "strict1"
(numbered from 1, page 0 empty) — the base is not documented (providers.md §11); "new_fields":
{name: value} adds those members to every page (fields a later version may add).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)

TIMEZONES = ("America/New_York", "Europe/Berlin", "Etc/UTC", "Asia/Tokyo")
GROUPS = ("Core API", "Web apps", "Infrastructure", "Third-party services")
STATUSES = ("operational", "operational", "degraded_performance", "operational",
            "partial_outage", "operational", "major_outage")
# shape: OpenAPI Incident.status (realtime values) and Incident.impact (its enum)
INCIDENT_STATUSES = ("resolved", "resolved", "monitoring", "identified", "investigating")
IMPACTS = ("none", "minor", "major", "critical")
# three updates of an incident: (status, body with the incident's number)
INCIDENT_UPDATES = (("investigating", "We are looking into errors on the API (nº %d) — “Überprüfung” läuft."),
                    ("identified", "The cause is found: a full disk ✓ (incident %d)."),
                    ("resolved", "Resolved. Every service is back to normal (incident %d)."))
GHOST = "ghost0000000"   # a component id the page does not list (one deleted since)


class Statuspage(Provider):
    id = "statuspage"
    kinds = {"status_pages": 1, "components": 12, "component_groups": 3, "subscribers": 6, "incidents": 4,
             "maintenances": 2}
    aliases = {"pages": "status_pages", "monitors": "components", "groups": "component_groups",
               "contacts": "subscribers"}
    required = ("api_key",)
    optional = ("page_id",)
    # shape: OpenAPI GET /pages/{page_id}/subscribers parameter `type` (its enum)
    MODES = ("email", "sms", "webhook", "slack", "integration_partner")

    # The API reference, "Rate Limiting": "Each API token is limited to 1 request / second as
    # measured on a 60 second rolling window ... Error codes 420 or 429 indicate that you have
    # exceeded the rate limit and the request has been rejected" (providers.md §8.3). Enforced by
    # default (fakeprov.State.rolling); option rolling_window shortens the window (1: any two
    # requests at least a second apart) or turns it off (0).
    rolling_default = 60

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

    # shape: 401 {"error":"Could not authenticate"} (providers.md §8.3; OpenAPI 401 "Could not authenticate")
    def bad_key(self, req):
        return jreply(401, {"error": "Could not authenticate"})

    # shape: OpenAPI 403 of GET /pages/{page_id}/subscribers, ErrorEntity {"message": ...} with its
    # description "You are not authorized to access this resource."
    def forbidden(self):
        return jreply(403, {"message": "You are not authorized to access this resource."})

    # shape: HTTP 420 "Enhance Your Calm" or 429 (providers.md §8.3)
    def rate_limited(self, req, status, retry_hdr, reset_in):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return Reply(status, obj={"error": "Rate limit exceeded"}, headers=headers,
                     reason="Enhance Your Calm" if status == 420 else None)

    def server_error(self, req, status):
        return jreply(status, {"message": "Internal Server Error"})

    # shape: OpenAPI 404 ErrorEntity {"message": ...}
    def not_found(self, req):
        return jreply(404, {"message": "Not Found"})

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        # shape: "Authorization: OAuth <key>" or ?api_key= (providers.md §8.1)
        auth = req.header("Authorization", "")
        m = re.match(r"(?i)oauth\s+(.+)$", auth.strip())
        key = m.group(1).strip() if m else req.q("api_key")
        if a is None or not key or key != a.credentials["api_key"]:
            return self.bad_key(req)
        rel = re.sub(r"\.json$", "", req.rel)
        if rel == "/v1/pages":
            # shape: OpenAPI GET /pages, a bare array of Page
            return jreply(200, [self.page(a, p) for p in range(a.n("status_pages"))])
        m = re.fullmatch(r"/v1/pages/([0-9a-z]+)/incidents/scheduled", rel)
        if m:
            p = self.page_index(a, m.group(1))
            return jreply(404, {"message": "Page not found"}) if p is None else self.handle_scheduled(req, a, p)
        m = re.fullmatch(r"/v1/pages/([0-9a-z]+)(?:/([a-z-]+))?", rel)
        if not m:
            return self.not_found(req)
        p = self.page_index(a, m.group(1))
        if p is None:
            return jreply(404, {"message": "Page not found"})
        sub = m.group(2)
        if sub is None:
            return jreply(200, self.page(a, p))
        if sub in ("component-groups", "components"):
            kind = sub.replace("-", "_")
            if self.refused(a, kind):
                return self.forbidden()
            rows = self.groups(a, p) if sub == "component-groups" else self.component_rows(a, p)
            return jreply(200, self.paged(a, req, rows))
        if sub == "subscribers":
            return self.forbidden() if self.refused(a, "subscribers") else self.list_subscribers(req, a, p)
        if sub == "incidents":
            if self.refused(a, "incidents"):
                return self.forbidden()
            # shape: OpenAPI GET /pages/{page_id}/incidents: a bare array of Incident, `page` ("page offset
            # to fetch", base not stated: read as components) and `limit` (default and max 100)
            rows = self.incidents(a, p) + [self.maintenance(a, p, m) for m in range(a.n("maintenances"))]
            return jreply(200, self.paged(a, req, rows, size="limit"))
        return self.not_found(req)

    def handle_scheduled(self, req, a, p):
        # shape: OpenAPI GET /pages/{page_id}/incidents/scheduled: a bare array of Incident, `page`
        # (default 1) and `per_page` (default 100): the maintenances still to come
        if self.refused(a, "scheduled"):
            return self.forbidden()
        rows = [self.maintenance(a, p, m) for m in range(a.n("maintenances")) if m % 2 == 0]
        return jreply(200, self.paged(a, req, rows))

    def paged(self, a, req, rows, size="per_page"):
        """components, component groups and incidents: `page` and `per_page` (`limit` for incidents;
        default and max 100, OpenAPI); the base of `page` is not documented, see the option page_base."""
        base = str(a.options.get("page_base", 1))
        page = to_int(req.q("page"), 1 if base != "0" else 0)
        per = to_int(req.q(size), 100)
        per = 100 if per is None or per < 1 else min(per, 100)
        if page is None or page < 0:
            page = 0
        if base == "0":
            start = page * per
        elif page == 0 and base == "strict1":
            return []
        else:
            start = (max(page, 1) - 1) * per
        return rows[start:start + per]

    def list_subscribers(self, req, a, p):
        # shape: OpenAPI GET /pages/{page_id}/subscribers: `page` from 0 (skips page * limit),
        # `limit` (100), `type` (MODES), `state` active (default) / unconfirmed / quarantined / all
        page, limit = page_params(req.q("page"), req.q("limit"), 100, 100, first=0)
        state = req.q("state", "active")
        mode = req.q("type")
        if state not in ("active", "unconfirmed", "quarantined", "all") or (mode and mode not in self.MODES):
            return jreply(400, {"message": "Bad request"})
        sel = [j for j in range(min(a.n("subscribers"), 1_000_000))
               if (state == "all" or self.sub_state(j) == state)
               and (not mode or self.MODES[j % len(self.MODES)] == mode)]
        return jreply(200, [self.subscriber(a, p, j) for j in sel[page * limit:(page + 1) * limit]])

    def page_index(self, a, pid):
        for p in range(min(a.n("status_pages"), 100_000)):
            if self.page_id(a, p) == pid:
                return p
        return None

    # shape: OpenAPI schema Page (every property it lists)
    def page(self, a, p):
        pid = self.page_id(a, p)
        sub = "demo-%d-%s" % (p + 1, pid[:4])
        d = {"id": pid, "created_at": iso_ms(a.created(p)), "updated_at": iso_ms(a.updated(p)),
             "name": "%s Status Page %d" % (a.prefix(p), p + 1),
             "page_description": "Live status of the services of company %d" % (p + 1),
             "headline": "Company %d status" % (p + 1), "branding": "premium" if p % 2 else "basic",
             "subdomain": sub,
             "domain": "status%d.%s.example" % (p + 1, re.sub(r"[^a-z0-9-]", "", a.name_prefix.lower()) or "demo")
             if p % 2 == 0 else None,
             "url": "https://www.company%d.example" % (p + 1), "support_url": "https://help.company%d.example" % (p + 1),
             "hidden_from_search": p % 2 == 1,
             "allow_page_subscribers": True, "allow_incident_subscribers": True,
             "allow_email_subscribers": True, "allow_sms_subscribers": True,
             "allow_rss_atom_feeds": True, "allow_webhook_subscribers": True,
             "notifications_from_email": None, "notifications_email_footer": None,
             "activity_score": 0, "twitter_username": None, "viewers_must_be_team_members": p % 3 == 2,
             "ip_restrictions": None, "city": None, "state": None, "country": None,
             "time_zone": TIMEZONES[p % len(TIMEZONES)], "css_body_background_color": "#ffffff",
             "css_font_color": "#333333", "css_light_font_color": "#757575",
             "css_greens": "#2fcc66", "css_yellows": "#f1c40f", "css_oranges": "#e67e22",
             "css_blues": "#3498db", "css_reds": "#e74c3c", "css_border_color": "#ecf0f1",
             "css_graph_color": "#3498db", "css_link_color": "#3498db", "css_no_data": "#b3bac5",
             "favicon_logo": None, "transactional_logo": None, "hero_cover": None,
             "email_logo": None, "twitter_logo": None}
        if a.options.get("new_fields"):
            # fields a later Statuspage version may add, which no table of ours knows: providers add
            # fields over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])
        return d

    def group_of(self, a, i):
        ng = a.n("component_groups")
        return None if ng == 0 or i % 4 == 3 else i % ng

    def group_name(self, g):
        return GROUPS[g % len(GROUPS)] + ("" if g < len(GROUPS) else " %d" % (g + 1))

    # shape: OpenAPI schema GroupComponent; `components` is an array of ids as providers.md §8.2
    # shows (the schema types it as a string holding that array)
    def groups(self, a, p):
        ng, nc = min(a.n("component_groups"), 10_000), min(a.n("components"), 1_000_000)
        members = {g: [] for g in range(ng)}
        for i in range(nc):
            g = self.group_of(a, i)
            if g is not None:
                members[g].append(self.ext_id(a, "components", i, p))
        return [{"id": self.ext_id(a, "component_groups", g, p), "page_id": self.page_id(a, p),
                 "name": self.group_name(g), "description": "Group %d of page %d" % (g + 1, p + 1),
                 "components": members[g], "position": g + 1,
                 "created_at": iso_ms(a.created(g)), "updated_at": iso_ms(a.updated(g))}
                for g in range(ng)]

    def component_rows(self, a, p):
        ng, nc = min(a.n("component_groups"), 10_000), min(a.n("components"), 1_000_000)
        return ([self.group_row(a, p, g) for g in range(ng)] +
                [self.component(a, p, i) for i in range(nc)])

    # shape: OpenAPI schema Component with `group: true`: a group's own row (providers.md §8.2)
    def group_row(self, a, p, g):
        gid = self.ext_id(a, "component_groups", g, p)
        return {"id": gid, "page_id": self.page_id(a, p), "group_id": None,
                "created_at": iso_ms(a.created(g)), "updated_at": iso_ms(a.updated(g)), "group": True,
                "name": self.group_name(g), "description": None, "position": g + 1,
                "status": "operational", "showcase": False, "only_show_if_degraded": False,
                "automation_email": "component+%s@notifications.statuspage.io" % gid,
                "start_date": day(a.created(g))}

    # shape: OpenAPI schema Component
    def component(self, a, p, i):
        cid = self.ext_id(a, "components", i, p)
        g = self.group_of(a, i)
        status = "under_maintenance" if a.paused(i) else STATUSES[i % len(STATUSES)]
        return {"id": cid, "page_id": self.page_id(a, p),
                "group_id": self.ext_id(a, "component_groups", g, p) if g is not None else None,
                "created_at": iso_ms(a.created(i)), "updated_at": iso_ms(a.updated(i)), "group": False,
                "name": "%s Component %d" % (a.prefix(i), i + 1),
                "description": None if i % 2 else "Component %d of page %d" % (i + 1, p + 1),
                "position": a.n("component_groups") + i + 1, "status": status, "showcase": i % 5 != 4,
                "only_show_if_degraded": i % 5 == 4,
                "automation_email": "component+%s@notifications.statuspage.io" % cid,
                "start_date": day(a.created(i))}

    # ---- incidents and maintenances

    def incidents(self, a, p):
        return [self.incident(a, p, k) for k in range(min(a.n("incidents"), 100_000))]

    def incident_components(self, a, p, ks):
        nc = a.n("components")
        comps = [self.component(a, p, k % nc) for k in ks] if nc else []
        return comps

    # shape: OpenAPI schema Incident (every property it lists; `started_at` as the API sends it beside
    # them), its example values (shortlink "http://stspg.io/803310a12", metadata {"jira": {...}})
    def incident_base(self, a, p, iid, name, status, impact, created, resolved, comps, updates):
        return {"id": iid, "components": comps, "created_at": iso_ms(created), "impact": impact,
                "impact_override": None, "incident_updates": updates, "metadata": {},
                "monitoring_at": None, "name": name, "page_id": self.page_id(a, p),
                "postmortem_body": None, "postmortem_body_last_updated_at": None, "postmortem_ignored": False,
                "postmortem_notified_subscribers": False, "postmortem_notified_twitter": False,
                "postmortem_published_at": None, "resolved_at": iso_ms(resolved) if resolved else None,
                "scheduled_auto_completed": False, "scheduled_auto_in_progress": False,
                "scheduled_for": None, "auto_transition_deliver_notifications_at_end": False,
                "auto_transition_deliver_notifications_at_start": False,
                "auto_transition_to_maintenance_state": False, "auto_transition_to_operational_state": False,
                "scheduled_remind_prior": False, "scheduled_reminded_at": None, "scheduled_until": None,
                "shortlink": "http://stspg.io/%s" % iid[:9], "status": status, "updated_at": iso_ms(created + 7200),
                "started_at": iso_ms(created)}

    # shape: OpenAPI schema IncidentUpdate (every property it lists; affected_components {code, name,
    # old_status, new_status})
    def update(self, a, p, iid, j, status, body, at, comps):
        return {"id": hid(12, self.id, a.seed, "upd", iid, j), "incident_id": iid,
                "affected_components": [{"code": c["id"], "name": c["name"], "old_status": "operational",
                                         "new_status": "operational" if status in ("resolved", "completed")
                                         else "major_outage"} for c in comps],
                "body": body, "created_at": iso_ms(at), "custom_tweet": None, "deliver_notifications": True,
                "display_at": iso_ms(at), "status": status, "tweet_id": None, "twitter_updated_at": None,
                "updated_at": iso_ms(at), "wants_twitter_update": False}

    def incident(self, a, p, k):
        iid = self.ext_id(a, "incidents", k, p)
        started = BASE_TS - (1 + 2 * k) * 86400
        status = INCIDENT_STATUSES[k % len(INCIDENT_STATUSES)]
        comps = self.incident_components(a, p, (k, k + 1))
        if k == 1 and comps:
            comps = comps + [dict(comps[0], id=GHOST, name="Retired component")]
        updates = [self.update(a, p, iid, j, st, body % (k + 1), started + j * 1200, comps)
                   for j, (st, body) in enumerate(INCIDENT_UPDATES) if j == 0 or st != "resolved" or status == "resolved"]
        d = self.incident_base(a, p, iid, "%s Incident %d" % (a.prefix(k), k + 1), status, IMPACTS[k % len(IMPACTS)],
                               started, started + 3600 if status == "resolved" else None, comps,
                               list(reversed(updates)))
        return d

    def maintenance(self, a, p, m):
        iid = self.ext_id(a, "maintenances", m, p)
        upcoming = m % 2 == 0
        start = BASE_TS + (1 + 3 * m) * 86400 if upcoming else BASE_TS - (1 + 3 * m) * 86400
        status = "scheduled" if upcoming else "completed"
        comps = self.incident_components(a, p, (m,))
        updates = [self.update(a, p, iid, 0, "scheduled", "Planned work on the database %d." % (m + 1),
                               start - 86400, comps)]
        if not upcoming:
            updates.append(self.update(a, p, iid, 1, "completed", "The work is done.", start + 7200, comps))
        d = self.incident_base(a, p, iid, "%s Maintenance %d" % (a.prefix(m), m + 1), status, "maintenance",
                               start - 86400, None if upcoming else start + 7200, comps, list(reversed(updates)))
        d.update({"scheduled_for": iso_ms(start), "scheduled_until": iso_ms(start + 7200),
                  "scheduled_remind_prior": True, "started_at": iso_ms(start)})
        return d

    @staticmethod
    def sub_state(j):
        return "quarantined" if j % 7 == 6 else "unconfirmed" if j % 3 == 2 else "active"

    # shape: OpenAPI schema Subscriber (its example values: display_phone_number "+1 (202) 555-0105",
    # obfuscated_channel_name "#*******an", workspace_name "Atlassian")
    def subscriber(self, a, p, j):
        mode = self.MODES[j % len(self.MODES)]
        nco = a.n("components")
        comps = [] if j % 3 == 0 or nco == 0 else sorted({self.ext_id(a, "components", j % nco, p),
                                                          self.ext_id(a, "components", (j + 1) % nco, p)})
        if j == 4 and comps:
            comps.append(GHOST)
        d = {"id": self.ext_id(a, "subscribers", j, p), "skip_confirmation_notification": False,
             "mode": mode, "email": None, "endpoint": None, "phone_number": None, "phone_country": None,
             "display_phone_number": None, "obfuscated_channel_name": None, "workspace_name": None,
             "quarantined_at": None, "purge_at": None, "components": comps,
             "page_access_user_id": None, "created_at": iso_ms(a.created(j))}
        if self.sub_state(j) == "quarantined":
            d["quarantined_at"] = iso_ms(a.updated(j))
            d["purge_at"] = iso_ms(a.updated(j) + 30 * 86400)
        if mode == "email":
            d["email"] = "reader%d@customer%d.example" % (j + 1, p + 1)
        elif mode == "sms":
            d.update({"phone_number": "202-555-%04d" % (j % 10000), "phone_country": "US",
                      "display_phone_number": "+1 (202) 555-%04d" % (j % 10000)})
        elif mode == "webhook":
            d["endpoint"] = "https://hooks.customer%d.example/statuspage/%d" % (p + 1, j + 1)
            d["email"] = "ops%d@customer%d.example" % (j + 1, p + 1)
        elif mode == "slack":
            d.update({"obfuscated_channel_name": "#*****-%d" % (j + 1), "workspace_name": "Customer %d" % (p + 1)})
        return d
