"""Fake StatusCake v1 for fakeprov.py: its real wire format (providers.md §3; sources cited per shape).

Sources: StatusCakeDev/statuscake-go, generated from StatusCake's OpenAPI document (api_*.go for the
paths and query parameters, model_*.go for the bodies), and developers.statuscake.com guides.

Account options: "refuse": [kind, ...] answers those lists (and their /{id}) with 403; "new_fields":
{name: value} adds those members to every uptime check, its list entry and its detail (fields a later
StatusCake version may add).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)

# shape: statuscake-go model_monitoring_location.go (MonitoringLocation: description, region, region_code,
# status; ipv4/ipv6 optional)
REGIONS = (("London, UK", "London", "london"), ("Frankfurt, DE", "Frankfurt", "frankfurt"),
           ("New York, US", "New York", "newyork"), ("Sydney, AU", "Sydney", "sydney"))
# shape: statuscake-go model_maintenance_window_repeat_interval.go / _state.go
REPEATS = ("1w", "never", "1d", "2w", "1m")
MW_STATES = ("pending", "active", "paused")
MW_ZONES = ("Europe/London", "America/New_York", "UTC", "Asia/Tokyo")
# The kinds an account may refuse (options.refuse) and the path of each list.
PATHS = {"uptime": "monitors", "heartbeat": "heartbeats", "contact-groups": "contacts", "ssl": "ssl",
         "maintenance-windows": "maintenance"}


class StatusCake(Provider):
    id = "statuscake"
    kinds = {"monitors": 12, "heartbeats": 2, "contacts": 3, "ssl": 2, "maintenance": 2}
    aliases = {"uptime": "monitors", "contact_groups": "contacts", "ssl_checks": "ssl",
               "maintenance_windows": "maintenance"}
    required = ("api_token",)
    rl_default = 1000
    # shape: statuscake-go model_uptime_test_type.go (DNS HEAD HTTP PING SMTP SSH TCP)
    TYPES = ("HTTP", "HTTP", "HEAD", "PING", "TCP", "DNS", "SSH", "SMTP")
    # shape: statuscake-go model_uptime_test_check_rate.go (0 = constant, 30 ... 86400)
    RATES = (300, 60, 0, 1800, 30, 3600, 900, 86400)

    def demo_credentials(self):
        return {"api_token": DEMO_KEY}

    def bases(self, a):
        return {"monitors": self.base(a, "uptime", 5_000_000, 100, 100_000),
                "heartbeats": self.base(a, "heartbeat", 20_000_000, 100, 100_000),
                "contacts": self.base(a, "contact-groups", 100_000, 100, 10_000),
                "ssl": self.base(a, "ssl", 40_000_000, 100, 100_000),
                "maintenance": self.base(a, "maintenance-windows", 60_000_000, 100, 100_000)}

    def ext_id(self, a, kind, i):
        return str(self.bases(a)[kind] + i)

    # shape: statuscake-go error.go / providers.md §3.3: {"message": ..., "errors": {field: [...]}}
    def bad_key(self, req):
        return jreply(401, {"message": "Unauthorised", "errors": {}})

    def forbidden(self, req):
        return jreply(403, {"message": "Forbidden", "errors": {}})

    # shape: 429 with x-ratelimit-limit / -remaining 0 / -reset in seconds (providers.md §3.3; the
    # StatusCake API guide "Ratelimiting": 60 requests a minute on a free plan, bursts of 5 a second)
    def rate_limited(self, req, status, retry_hdr, reset_in):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        headers += [("x-ratelimit-limit", "5, 60;w=60, 5;w=1"), ("x-ratelimit-remaining", "0"),
                    ("x-ratelimit-reset", str(reset_in))]
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
        # paths: statuscake-go api_uptime.go, api_heartbeat.go, api_contact_groups.go, api_ssl.go,
        # api_maintenance_windows_.go ("/uptime", "/uptime/{test_id}", ...)
        m = re.fullmatch(r"/v1/(uptime|heartbeat|contact-groups|ssl|maintenance-windows)(?:/([^/]+))?", req.rel)
        if not m:
            return self.not_found(req)
        kind = PATHS[m.group(1)]
        if self.refused(a, kind):
            return self.forbidden(req)
        build = {"monitors": self.uptime, "heartbeats": self.heartbeat, "contacts": self.group,
                 "ssl": self.ssl, "maintenance": self.window}[kind]
        b = self.bases(a)[kind]
        n = a.n(kind)
        if m.group(2) is not None:
            # shape: {"data": {...}} (statuscake-go model_*_response.go)
            i = (to_int(m.group(2), -1) or 0) - b
            if not 0 <= i < n:
                return self.not_found(req)
            return jreply(200, {"data": build(a, i, b, detail=True)})
        return self.listing(req, a, kind, build, b, n)

    def listing(self, req, a, kind, build, b, n):
        # params: statuscake-go api_uptime.go ListUptimeTests (status, page, limit, tags, matchany)
        page, limit = to_int(req.q("page"), 1), to_int(req.q("limit"), 25)
        errors = {}
        if page is None or page < 1:
            errors["page"] = ["The page must be at least 1"]
        if limit is None or not 1 <= limit <= 100:
            errors["limit"] = ["The limit must be between 1 and 100"]
        if errors:
            return jreply(400, {"message": "The provided parameters are invalid. Check the errors output "
                                           "for detailed information.", "errors": errors})
        sel = range(n)
        status = req.q("status")
        if status in ("up", "down") and kind in ("monitors", "heartbeats"):
            sel = [i for i in sel if self.status_of(a, i) == status]
        tags = [t for t in (req.q("tags") or "").split(",") if t]
        if tags and kind in ("monitors", "heartbeats"):
            anyof = truthy(req.q("matchany"))
            tag_of = self.tags_of if kind == "monitors" else self.hb_tags
            sel = [i for i in sel if (any if anyof else all)(t in tag_of(a, i) for t in tags)]
        total = len(sel)
        idx = sel[(page - 1) * limit: page * limit]
        # shape: statuscake-go model_uptime_tests.go etc.: {"data": [...], "metadata": model_metadata.go /
        # model_pagination.go {page, per_page, page_count, total_count}}
        return jreply(200, {"data": [build(a, i, b) for i in idx],
                            "metadata": {"page": page, "per_page": limit,
                                         "page_count": (total + limit - 1) // limit, "total_count": total}})

    # ---- generated data (deterministic in the index) ----

    def status_of(self, a, i):
        return "down" if i % 7 == 6 else "up"

    def group_ids(self, a, i):
        nc = a.n("contacts")
        if not nc:
            return []
        g = self.bases(a)["contacts"]
        out = [str(g + i % nc)]
        if i % 5 == 0 and nc > 1:
            out.append(str(g + (i + 1) % nc))
        return out

    def tags_of(self, a, i):
        return ["demo", "team-%d" % (i % 3)] + (["prod"] if i % 2 == 0 else [])

    def hb_tags(self, a, i):
        return ["demo", "cron"] + (["nightly"] if i % 2 == 0 else [])

    def uptime_url(self, i):
        t, n = self.TYPES[i % len(self.TYPES)], i + 1
        if t not in ("HTTP", "HEAD"):
            return "m%d.example.com" % n
        port = (None, 8443, None, 8080)[i % 4]
        scheme = "http" if port == 8080 else "https"
        return "%s://m%d.example.com%s/health/%d?probe=%d&env=prod" % (scheme, n, ":%d" % port if port else "", n, i)

    def uptime(self, a, i, b, detail=False):
        t = self.TYPES[i % len(self.TYPES)]
        # shape: statuscake-go model_uptime_test_overview.go (the list entry)
        d = {"id": str(b + i), "name": "%s Monitor %d" % (a.prefix(i), i + 1), "website_url": self.uptime_url(i),
             "test_type": t, "check_rate": self.RATES[i % len(self.RATES)],
             "contact_groups": self.group_ids(a, i), "paused": a.paused(i), "status": self.status_of(a, i),
             "tags": self.tags_of(a, i), "uptime": 100 if i % 7 != 6 else 97.5}
        if detail:
            # shape: statuscake-go model_uptime_test_.go (GET /uptime/{id}); providers.md §3 example
            d.update(self.uptime_detail(a, i, t))
        if a.options.get("new_fields"):
            # fields a later StatusCake version may add, which no table of ours knows: providers add
            # fields over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])
        return d

    def uptime_detail(self, a, i, t):
        http = t in ("HTTP", "HEAD")
        find, dnf = None, False
        if i % 16 == 0:
            find = "Welcome %d" % (i + 1)
        elif i % 16 in (2, 8):
            find, dnf = "Maintenance", True
        post_body = '{"probe":%d,"deep":true}' % i if i % 16 == 1 else None
        post_raw = "check=deep&probe=%d" % i if i % 16 == 9 else None
        headers = None if i % 3 == 2 or not http else json.dumps({"X-Env": "prod", "X-Check": str(i + 1)})
        port = {"TCP": 8000 + i % 1000, "SSH": 2222, "SMTP": 587}.get(t)
        servers = [{"description": REGIONS[(i + k) % 4][0], "region": REGIONS[(i + k) % 4][1],
                    "region_code": REGIONS[(i + k) % 4][2], "status": "up"} for k in range(1 + i % 3)]
        # shape: model_uptime_test_.go confirmation ("Number of confirmation servers to confirm downtime
        # before an alert is triggered", int32), trigger_rate ("The number of minutes to wait before
        # sending an alert", int32), dns_ips ("List of IP addresses to compare against returned DNS
        # records", [] when none), dns_server ("FQDN or IP address of the nameserver to query", omitempty)
        dns_ips = (["2001:db8::%x" % (i + 1), "2001:db8::1"] if i % 16 == 13 else ["192.0.2.%d" % ((i + 1) % 250)])
        return {"confirmation": i % 4, "custom_header": headers,
                "dns_ips": dns_ips if t == "DNS" else [],
                "dns_server": "1.1.1.1" if t == "DNS" else None,
                "do_not_find": dnf, "enable_ssl_alert": http and i % 3 != 1 and self.uptime_url(i).startswith("https"),
                "find_string": find if http else None, "follow_redirects": i % 2 == 0,
                "include_header": i % 16 == 8, "host": "", "paused": a.paused(i), "port": port,
                "post_body": post_body if http else None, "post_raw": post_raw if http else None,
                "processing": False, "servers": servers,
                "status_codes": ["500", "502", "503", "504"] + (["404"] if i % 3 == 0 else []) if http else [],
                "timeout": 10 + i % 21, "trigger_rate": i % 6, "use_jar": False,
                "user_agent": "MigratorProbe/%d" % (i + 1) if http and i % 2 == 0 else None,
                "last_tested_at": iso_ms(a.updated(i)).replace(".000Z", "+00:00")}

    def heartbeat(self, a, i, b, detail=False):
        # shape: statuscake-go model_heartbeat_test_overview.go / model_heartbeat_test_.go (url = push URL)
        d = {"id": str(b + i), "name": "%s Heartbeat %d" % (a.prefix(i), i + 1),
             "url": "https://push.statuscake.com/?PK=%s&TestID=%d&time=0" % (hid(12, self.id, a.seed, "pk", i), b + i),
             "period": (1800, 300, 3600, 86400)[i % 4], "contact_groups": self.group_ids(a, i + 1),
             "paused": a.paused(i), "status": self.status_of(a, i), "tags": self.hb_tags(a, i),
             "uptime": 100}
        if detail:
            d.update({"host": "", "last_tested_at": iso_ms(a.updated(i)).replace(".000Z", "+00:00")})
        return d

    def group(self, a, i, b, detail=False):
        # shape: statuscake-go model_contact_group.go; ping_url is optional (omitempty)
        n = i + 1
        d = {"id": str(b + i), "name": "%s Contact %d" % (a.prefix(i), n),
             "email_addresses": ["ops%d@example.com" % n] + (["oncall%d@example.com" % n] if i % 2 == 0 else []),
             "integrations": [str(900 + i)] if i % 3 == 2 else [],
             "mobile_numbers": ["+4477009%05d" % n] if i % 3 != 1 else []}
        if i % 3 == 0:
            d["ping_url"] = "https://hooks.example.com/sc/%d" % n
        return d

    def ssl(self, a, i, b, detail=False):
        # shape: statuscake-go model_ssl_test_.go (+ model_ssl_test_flags.go); providers.md §3 example
        n = i + 1
        return {"id": str(b + i), "website_url": "https://secure%d.example.com" % n,
                "check_rate": (86400, 3600, 2073600)[i % 3],
                "alert_at": [7, 14, 30] if i % 2 == 0 else [1, 10, 60],
                "alert_broken": i % 2 == 0, "alert_expiry": i % 4 != 3, "alert_mixed": i % 3 == 0,
                "alert_reminder": True, "certificate_score": 95, "certificate_status": "CERT_OK",
                "cipher": "TLS_AES_128_GCM_SHA256", "cipher_score": 100,
                "contact_groups": self.group_ids(a, i + 2),
                "issuer_common_name": "R3",
                "flags": {"follow_redirects": i % 2 == 1, "has_mixed": False, "has_pfs": True, "is_broken": False,
                          "is_expired": False, "is_extended": False, "is_missing": False, "is_revoked": False},
                "follow_redirects": i % 2 == 1, "hostname": "secure%d.example.com" % n, "mixed_content": [],
                "paused": a.paused(i), "updated_at": tsfmt(a.updated(i)),
                "user_agent": "CertProbe/%d" % n if i % 2 == 0 else None,
                "valid_from": tsfmt(BASE_TS), "valid_until": tsfmt(BASE_TS + 400 * 86400)}

    def window_times(self, i):
        start = BASE_TS + 86400 * (i + 1) - BASE_TS % 86400 + 3600 * (1 + i % 5)
        return start, start + 60 * (30 + 30 * (i % 4))

    def window(self, a, i, b, detail=False):
        # shape: statuscake-go model_maintenance_window.go (start_at/end_at RFC 3339, repeat_interval, state,
        # tags = checks so tagged, tests = check ids, timezone)
        nm, ub = a.n("monitors"), self.bases(a)["monitors"]
        start, end = self.window_times(i)
        tests = sorted({str(ub + (2 * i) % nm), str(ub + (2 * i + 1) % nm)}) if nm else []
        return {"id": str(b + i), "name": "%s Window %d" % (a.prefix(i), i + 1),
                "start_at": tsfmt(start), "end_at": tsfmt(end), "repeat_interval": REPEATS[i % len(REPEATS)],
                "state": MW_STATES[i % len(MW_STATES)], "timezone": MW_ZONES[i % len(MW_ZONES)],
                "tags": ["team-%d" % (i % 3)] if i % 2 == 1 else [], "tests": tests}
