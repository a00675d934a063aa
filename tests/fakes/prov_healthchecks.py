"""Fake Healthchecks.io v3 for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


class Healthchecks(Provider):
    id = "healthchecks"
    kinds = {"heartbeats": 2, "contacts": 3}
    aliases = {"checks": "heartbeats", "channels": "contacts"}
    required = ("api_key",)
    optional = ("base_url", "api_key_readonly")
    KINDS = ("email", "slack", "webhook", "sms", "telegram", "pd")

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

    def handle(self, req, a):
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
            if readonly or m.group(2):
                return self.bad_key(req) if readonly else self.not_found(req)
            return jreply(200, {"channels": [self.channel(a, j) for j in range(a.n("contacts"))]})
        n = a.n("heartbeats")
        if m.group(2):
            for i in range(n):
                if self.ext_id(a, "heartbeats", i) == m.group(2):
                    return jreply(200, self.check(a, i, req, readonly))
            return jreply(404, {"error": "not found"})
        return jreply(200, {"checks": [self.check(a, i, req, readonly) for i in range(n)]})

    def check(self, a, i, req, readonly):
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
             "tags": "demo prod" if i % 2 == 0 else "demo", "desc": "", "grace": (300, 60, 3600)[i % 3],
             "n_pings": 0 if status == "new" else 10 + i, "status": status, "started": False,
             "last_ping": last, "next_ping": None if last is None or status == "paused"
             else tsfmt(a.updated(i) + 3600, "%Y-%m-%dT%H:%M:%S+00:00"),
             "manual_resume": False, "methods": "", "subject": "", "subject_fail": "",
             "start_kw": "", "success_kw": "", "failure_kw": "", "filter_subject": False,
             "filter_body": False, "filter_http_body": False, "filter_default_fail": False,
             "badge_url": "https://healthchecks.io/b/2/%s.svg" % hid(12, self.id, a.seed, "badge", i)}
        if i % 4 == 1:
            d["last_duration"] = 12
        if i % 3 == 2:
            d["schedule"], d["tz"] = "*/5 * * * *", "UTC"
        else:
            d["timeout"] = (3600, 86400)[i % 2]
        if readonly:
            d["unique_key"] = hashlib.sha1(cid.encode()).hexdigest()
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
        return {"id": self.ext_id(a, "contacts", j), "name": "%s Contact %d" % (a.prefix(j), j + 1),
                "kind": self.KINDS[j % len(self.KINDS)]}
