"""Fake Healthchecks.io v3 for fakeprov.py: its real wire format (providers.md §6; sources cited per shape).

Sources: healthchecks/healthchecks hc/api/models.py (Check.to_dict, Channel.to_dict, CHANNEL_KINDS),
hc/api/decorators.py (the 401 answers), templates/docs/api.md (the documented examples), and Django's
CommonMiddleware APPEND_SLASH (hc/settings.py keeps the default).

Generated data (every value from the item's index, so tests can predict it; see README.md):
check i has tags TAGS[i % 4]; every 3rd check (i % 3 == 2) is a cron check with schedule
SCHEDULES[(i // 3) % 3] and tz TZS[(i // 3) % 3], the others simple checks with timeout
(3600, 86400)[i % 2]; grace (300, 60, 3600)[i % 3]; it alerts channel i % contacts and, when i % 3 == 0,
also (i + 1) % contacts. Channel j has kind KINDS[j % 8].
Account options: "refuse": ["channels"] answers /channels/ with the read-only key's 401
{"error":"wrong api key"}; "append_slash": true answers a path without its trailing slash with a 301 to
the same path with it (Django's APPEND_SLASH); "moved_from": "/old" answers every path under
/healthchecks/old/... with a 301 to the same path without /old (a self-hosted instance that moved);
"new_fields": {name: value} adds those members to every check (fields a later version may add).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


class Healthchecks(Provider):
    id = "healthchecks"
    kinds = {"heartbeats": 3, "contacts": 3}
    aliases = {"checks": "heartbeats", "channels": "contacts"}
    required = ("api_key",)
    optional = ("base_url", "api_key_readonly")
    # shape: CHANNEL_KINDS of hc/api/models.py ("signal" has no equivalent in migrator)
    KINDS = ("email", "slack", "webhook", "sms", "telegram", "pd", "msteams", "signal")
    TAGS = ("prod backup", "prod", "batch  nightly ops", "")
    # shape: Check.schedule (cron, or OnCalendar on newer versions) + Check.tz (IANA)
    SCHEDULES = ("*/5 * * * *", "15 3 * * 1-5", "Mon..Fri *-*-* 09:00:00")
    TZS = ("Europe/Riga", "America/New_York", "UTC")

    def demo_credentials(self):
        return {"api_key": DEMO_HC_KEY}

    def check_credentials(self, creds):
        err = Provider.check_credentials(self, creds)
        if err:
            return err
        for f in ("api_key", "api_key_readonly"):
            if f in creds and len(creds[f]) != 32:
                return "healthchecks credentials.%s must be exactly 32 characters" % f
        return None

    def ext_id(self, a, kind, i):
        return huuid(self.id, a.seed, "check" if kind == "heartbeats" else "channel", i)

    def bad_key(self, req, missing=False):
        return jreply(401, {"error": "missing api key" if missing else "wrong api key"})

    def redirect(self, req, a):
        """The 301 of a moved instance or of Django's APPEND_SLASH, else None."""
        moved = a.options.get("moved_from") if a else None
        if moved and (req.rel + "/").startswith(moved.rstrip("/") + "/"):
            rel = req.rel[len(moved.rstrip("/")):] or "/"
            return Reply(301, body=b"", headers=[("Location", "/%s%s" % (self.id, rel))], ctype="text/html")
        if a and a.options.get("append_slash") and re.fullmatch(r"/api/v[123]/(checks|channels)(/[0-9a-f-]{36})?",
                                                                  req.rel):
            # shape: Django CommonMiddleware: HttpResponsePermanentRedirect to the path + "/"
            return Reply(301, body=b"", headers=[("Location", req.raw_path + "/")], ctype="text/html")
        return None

    def handle(self, req, a):
        r = self.redirect(req, a)
        if r is not None:
            return r
        if req.method not in ("GET", "POST"):
            return self.method_not_allowed(req)
        key = req.header("X-Api-Key")
        if key is None and isinstance(req.json, dict):
            key = req.json.get("api_key")
        if not key or len(key) != 32:
            return self.bad_key(req, missing=True)
        readonly = False
        if a is None:
            return self.bad_key(req)
        if key != a.credentials["api_key"]:
            if key != a.credentials.get("api_key_readonly"):
                return self.bad_key(req)
            readonly = True
        m = re.fullmatch(r"/api/v[123]/(checks|channels)/?(?:([0-9a-f-]{36})/?)?", req.rel)
        if not m or req.method != "GET":
            return self.not_found(req)
        if m.group(1) == "channels":
            # shape: hc/api/views.py channels() is @authorize (read-write keys only): a read-only
            # key gets decorators.py's 401 {"error":"wrong api key"}
            if readonly or self.refused(a, "channels"):
                return self.bad_key(req)
            if m.group(2):
                return self.not_found(req)
            return jreply(200, {"channels": [self.channel(a, j) for j in range(a.n("contacts"))]})
        n = a.n("heartbeats")
        if m.group(2):
            for i in range(n):
                if self.ext_id(a, "heartbeats", i) == m.group(2):
                    return jreply(200, self.check(a, i, req, readonly))
            return jreply(404, {"error": "not found"})
        return jreply(200, {"checks": [self.check(a, i, req, readonly) for i in range(n)]})

    def check(self, a, i, req, readonly):
        # shape: Check.to_dict(readonly) of hc/api/models.py; the example of templates/docs/api.md
        cid = self.ext_id(a, "heartbeats", i)
        root = "http://%s/%s" % (req.host, self.id)
        name = "%s Heartbeat %d" % (a.prefix(i), i + 1)
        if a.paused(i):
            status = "paused"
        elif i % 7 == 6:
            status = "down"
        elif i % 5 == 3:
            status = "new"
        else:
            status = "up"
        last = None if status == "new" else tsfmt(a.updated(i), "%Y-%m-%dT%H:%M:%S+00:00")
        nc = a.n("contacts")
        d = {"name": name, "slug": re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"),
             "tags": self.TAGS[i % 4], "desc": "", "grace": (300, 60, 3600)[i % 3],
             "n_pings": 0 if status == "new" else 10 + i, "status": status, "started": False,
             "last_ping": last, "next_ping": None if last is None or status == "paused"
             else tsfmt(a.updated(i) + 3600, "%Y-%m-%dT%H:%M:%S+00:00"),
             "manual_resume": False, "methods": "", "subject": "", "subject_fail": "",
             "start_kw": "", "success_kw": "", "failure_kw": "", "filter_subject": False,
             "filter_body": False, "filter_http_body": False, "filter_default_fail": False,
             "badge_url": "https://healthchecks.io/b/2/%s.svg" % hid(12, self.id, a.seed, "badge", i)}
        if i % 4 == 1:
            d["last_duration"] = 12
        if i % 4 == 2:
            d["desc"] = "Runs after the nightly backup"  # desc: free text (templates/docs/api.md example)
        if a.options.get("new_fields"):
            # fields a later Healthchecks version may add, which no table of ours knows: providers add
            # fields over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])
        if i % 3 == 2:
            d["schedule"], d["tz"] = self.SCHEDULES[(i // 3) % 3], self.TZS[(i // 3) % 3]
        else:
            d["timeout"] = (3600, 86400)[i % 2]
        if readonly:
            d["unique_key"] = hashlib.sha1(uuid.UUID(cid).hex[:16].encode()).hexdigest()  # Check.unique_key
        else:
            d.update({"uuid": cid, "ping_url": "https://hc-ping.com/%s" % cid,
                      "update_url": "%s/api/v3/checks/%s" % (root, cid),
                      "pause_url": "%s/api/v3/checks/%s/pause" % (root, cid),
                      "resume_url": "%s/api/v3/checks/%s/resume" % (root, cid),
                      "channels": self.ext_id(a, "contacts", i % nc) if nc else ""})
            if nc > 1 and i % 3 == 0:
                d["channels"] += "," + self.ext_id(a, "contacts", (i + 1) % nc)
        return d

    def channel(self, a, j):
        # shape: Channel.to_dict of hc/api/models.py: id, name, kind only (never the target)
        return {"id": self.ext_id(a, "contacts", j), "name": "%s Contact %d" % (a.prefix(j), j + 1),
                "kind": self.KINDS[j % len(self.KINDS)]}
