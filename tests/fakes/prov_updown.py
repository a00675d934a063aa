"""Fake updown.io for fakeprov.py: its real wire format (providers.md §5; sources cited per shape).

Sources: updown.io/api (the published API reference, cited "docs"); essentialkaos/updown updown.go
(Check, Recipient, StatusPage structs, cited "ek"); Nastaliss/terraform-provider-updown
internal/updown/{checks,recipients,status_pages}.go and docs/resources/pulse.md (cited "tf").

Generated data (every value from the item's index, so tests can predict it; see README.md):
check i (kind "monitors") has form FORMS[i % 6] (see check()); it alerts recipient i % contacts and,
when i % 3 == 0, also (i + 1) % contacts; disabled_locations are ["sin","tok"] when i % 4 == 1, ["lan"]
when i % 4 == 3, else []; mute_until is mute_until(a, i). Pulse j (kind "heartbeats") follows the checks in the list: type "pulse",
period PULSE_PERIODS[j % 3], recipient j % contacts, url redacted. Recipient j has type
RTYPES[j % 7]. Status page j lists the 5 checks from 5j on (mod checks) and pulse j (mod pulses).
Account option "refuse": a list of kinds among "recipients", "status_pages" answered with 401;
"new_fields": {name: value} adds those members to every check and pulse (fields a later version may add).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)

# shape: ek Check.http_verb / docs "http_verb" (GET/HEAD is the default)
FORMS = ("https", "keyword_post", "http_port", "tcp", "icmp", "tcps")
# shape: tf RecipientType constants + UI-only integrations without value (providers.md §5, M)
RTYPES = ("email", "sms", "webhook", "slack_compatible", "msteams", "slack", "telegram")
PULSE_PERIODS = (300, 86400, 90000)
# shape: docs "mute_until": "Mute notifications until a time (ISO8601), or 'recovery', or 'forever'"
# (updown.io/doc/how-to-automate-check-disable: "a specific time or 'recovery' ... or 'forever'"); how a
# GET shows the last two is unconfirmed: here as they are set
MUTE_FORMS = {2: "time", 3: "recovery", 4: "forever"}   # by i % 5; else null


class Updown(Provider):
    id = "updown"
    kinds = {"monitors": 12, "heartbeats": 2, "contacts": 3, "status_pages": 1}
    aliases = {"checks": "monitors", "pulses": "heartbeats", "recipients": "contacts"}
    required = ("api_key",)
    gzip_ok = True
    PERIODS = (60, 300, 30, 600, 3600, 15, 120, 1800)

    def tbase(self, a):
        return self.base(a, "checks", 36 ** 3 * 2, 100, 1_000_000)

    def pbase(self, a):
        return self.base(a, "pulses", 36 ** 6, 100, 1_000_000)   # apart from the checks

    def rbase(self, a):
        return self.base(a, "recipients", 1_000_000_000, 100, 10_000_000)

    def sbase(self, a):
        return self.base(a, "status_pages", 36 ** 4, 100, 100_000)

    def ext_id(self, a, kind, i):
        if kind == "monitors":
            return b36(self.tbase(a) + i)
        if kind == "heartbeats":
            return b36(self.pbase(a) + i)
        if kind == "contacts":
            return "%s:%d" % (RTYPES[i % len(RTYPES)], self.rbase(a) + i)
        return b36(self.sbase(a) + i)

    # shape: docs error answers {"error": "..."} (status unconfirmed, providers.md §5.3 L)
    def bad_key(self, req, missing=False):
        return jreply(401, {"error": "Missing API key" if missing else "Invalid API key"})

    def handle(self, req, a):
        if req.method != "GET":
            return self.method_not_allowed(req)
        key = req.header("X-API-KEY") or req.q("api-key")
        if not key:
            return self.bad_key(req, missing=True)
        if a is None or key != a.credentials["api_key"]:
            return self.bad_key(req)
        rel = req.rel
        if rel == "/api/checks":
            return jreply(200, [self.check(a, i) for i in range(a.n("monitors"))]
                          + [self.pulse(a, j) for j in range(a.n("heartbeats"))])
        m = re.fullmatch(r"/api/checks/([0-9a-z]+)", rel)
        if m:
            return self.one_check(a, m.group(1))
        if rel == "/api/recipients":
            if self.refused(a, "recipients"):
                return self.bad_key(req)
            return jreply(200, [self.recipient(a, j) for j in range(a.n("contacts"))])
        # shape: tf status_pages.go path "status_pages"; ek uses "status-pages" (providers.md §5: both)
        if rel in ("/api/status_pages", "/api/status-pages"):
            if self.refused(a, "status_pages"):
                return self.bad_key(req)
            return jreply(200, [self.status_page(a, j) for j in range(a.n("status_pages"))])
        return self.not_found(req)

    def one_check(self, a, token):
        for kind, fn in (("monitors", self.check), ("heartbeats", self.pulse)):
            i = int(token, 36) - (self.tbase(a) if kind == "monitors" else self.pbase(a))
            if 0 <= i < a.n(kind):
                return jreply(200, fn(a, i))
        return jreply(404, {"error": "Check not found"})

    def recipients_of(self, a, i):
        nc = a.n("contacts")
        if not nc:
            return []
        out = [self.ext_id(a, "contacts", i % nc)]
        if i % 3 == 0 and nc > 1:
            out.append(self.ext_id(a, "contacts", (i + 1) % nc))
        return out

    def target(self, i):
        """(type, url, string_match, http_verb, http_body, custom_headers) of check i."""
        form, n = FORMS[i % len(FORMS)], i + 1
        if form == "https":
            return "https", "https://m%d.example.com/" % n, "", "GET/HEAD", "", {}
        if form == "keyword_post":
            return ("https", "https://m%d.example.com/api/health?deep=1" % n, "All systems go", "POST",
                    '{"probe":%d}' % n, {"X-Env": "prod", "X-Check": str(n)})
        if form == "http_port":
            return ("http", "http://m%d.example.com:8080/status?full=true" % n, "", "GET/HEAD", "",
                    {"Accept-Language": "en"})
        if form == "tcp":
            return "tcp", "tcp://db%d.example.com:5432" % n, "", "GET/HEAD", "", {}
        if form == "icmp":
            return "icmp", "icmp://router%d.example.com" % n, "", "GET/HEAD", "", {}
        return "tcps", "tcps://mail%d.example.com:993" % n, "", "GET/HEAD", "", {}

    def check(self, a, i):
        # shape: docs "GET /api/checks" example; fields of ek Check (http_verb, http_body,
        # custom_headers, disabled_locations, recipients) and tf Check ("type"). The url never holds a
        # basic-auth login: "URLs returned here will not include basic auth credentials if any" (docs)
        enabled = not a.paused(i)
        down = enabled and i % 7 == 6
        typ, url, match, verb, body, headers = self.target(i)
        d = {"token": self.ext_id(a, "monitors", i), "type": typ, "url": url,
             "alias": "%s Monitor %d" % (a.prefix(i), i + 1),
             "last_status": 500 if down else 200, "uptime": 99.5 if down else 100, "down": down,
             "down_since": tsfmt(a.updated(i)) if down else None,
             "up_since": None if down else tsfmt(a.created(i) + 3600),
             "error": "500 Internal Server Error" if down else None,
             "period": self.PERIODS[i % len(self.PERIODS)], "apdex_t": 0.5,
             "string_match": match, "enabled": enabled, "published": i % 2 == 0,
             "disabled_locations": (["sin", "tok"] if i % 4 == 1 else ["lan"] if i % 4 == 3 else []),
             "recipients": self.recipients_of(a, i),
             "last_check_at": tsfmt(a.updated(i)), "next_check_at": tsfmt(a.updated(i) + 60),
             "created_at": tsfmt(a.created(i)), "mute_until": None,
             "favicon_url": "https://m%d.example.com/favicon.ico" % (i + 1), "custom_headers": headers,
             "http_verb": verb, "http_body": body}
        if url.startswith("https"):
            # shape: ek SSLStatus {tested_at, expires_at, valid, error}
            d["ssl"] = {"tested_at": tsfmt(a.updated(i)), "expires_at": tsfmt(a.updated(i) + 90 * 86400),
                        "valid": True, "error": None}
        d["mute_until"] = self.mute_until(a, i)   # shape: ek Check.MuteUntil, docs "mute_until"
        self.add_new_fields(a, d)
        return d

    @staticmethod
    def mute_until(a, i):
        form = MUTE_FORMS.get(i % 5)
        if form == "time":
            return tsfmt(a.updated(i) + 86400)
        return form

    @staticmethod
    def add_new_fields(a, d):
        if a.options.get("new_fields"):
            # fields a later updown version may add, which no table of ours knows: providers add fields
            # over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])

    def pulse(self, a, j):
        # shape: tf docs/resources/pulse.md (type pulse, period 15..2678400, alias, enabled, recipients);
        # the url is redacted in every GET (updown.io/doc/how-pulse-cron-monitoring-works); its exact
        # redacted form is unconfirmed (providers.md §11), this one is a stand-in
        tok = self.ext_id(a, "heartbeats", j)
        d = {"token": tok, "type": "pulse", "url": "https://pulse.updown.io/%s/[redacted]" % tok,
             "alias": "%s Heartbeat %d" % (a.prefix(j), j + 1), "last_status": None,
             "uptime": 100, "down": False, "down_since": None, "error": None,
             "period": PULSE_PERIODS[j % len(PULSE_PERIODS)], "apdex_t": 0.5, "string_match": "",
             "enabled": not a.paused(j), "published": False, "disabled_locations": [],
             "recipients": self.recipients_of(a, j)[:1], "created_at": tsfmt(a.created(j)),
             "mute_until": None, "custom_headers": {}, "http_verb": "GET/HEAD", "http_body": ""}
        self.add_new_fields(a, d)
        return d

    def recipient(self, a, j):
        # shape: docs "GET /api/recipients" {"id","type","name","value"} (ek Recipient)
        t = RTYPES[j % len(RTYPES)]
        name = "%s Contact %d" % (a.prefix(j), j + 1)
        d = {"id": self.ext_id(a, "contacts", j), "type": t, "name": name}
        if t == "email":
            d["value"] = "%s <contact%d@example.com>" % (name, j + 1)
        elif t == "sms":
            d["value"] = "+1555%07d" % j
        elif t == "webhook":
            d["value"] = "https://hooks.example.com/ud/%d" % (j + 1)
        elif t == "slack_compatible":
            d["value"] = "https://hooks.slack.com/services/T000/B%03d/xyz" % (j + 1)
        elif t == "msteams":
            d["value"] = "https://example.webhook.office.com/webhookb2/%d" % (j + 1)
        return d                        # no value for the UI-only slack / telegram

    def status_page(self, a, j):
        # shape: docs "GET /api/status_pages" (ek StatusPage: token, url, name, description,
        # visibility public|protected|private, access_key, checks)
        tok = self.ext_id(a, "status_pages", j)
        nm, npl = a.n("monitors"), a.n("heartbeats")
        vis = ("public", "protected", "private")[j % 3]
        checks = [self.ext_id(a, "monitors", (j * 5 + k) % nm) for k in range(min(5, nm))]
        if npl:
            checks.append(self.ext_id(a, "heartbeats", j % npl))
        return {"token": tok, "url": "https://updown.io/p/%s" % tok,
                "name": "%s Status Page %d" % (a.prefix(j), j + 1), "description": "Generated status page",
                "visibility": vis, "access_key": hid(8, self.id, a.seed, "ak", j) if vis == "protected" else None,
                "checks": checks}
