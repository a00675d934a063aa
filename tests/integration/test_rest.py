"""REST integration tests for /api/v1, written from /work/shared/spec/api-v1.md
and design.md (§3 tokens/flag/check order, §4 states, §6 HTTP conventions).

Classes are named after the spec section they check; each test name states
the rule. Fixtures in states other than `pending` are written directly into
the database (harness.Stack.insert_*). Everything runs on one stack whose
request limit is raised; the Limits tests start extra web servers (same
database) whose config leaves [limits] at the defaults.
"""

import concurrent.futures
import datetime
import json
import re
import time
import urllib.parse
import uuid

import harness
from harness import (ACCOUNT_SCOPES, ALL_SCOPES, CREDENTIAL_FIELDS, HIDDEN_KEYS, LOG_FIELDS,
                     PROVIDERS, RESOURCE_FIELDS, RESOURCE_STATES, RUN_FIELDS, RUN_STATES,
                     ApiTestCase, q, shipped_csp, wait_for_window)

API = "/api/v1"
MIG = API + "/migrations"
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$")
CANCELLABLE = ["pending", "discovering", "awaiting_review", "executing", "paused_conflicts"]
FINAL = ["completed", "completed_with_errors", "failed", "cancelled"]
MAX_BODY = 65536


# ------------------------------------------------------------------ helpers

def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def parse_ts(v):
    """'2024-01-02T03:04:05.123Z' -> naive UTC datetime (microseconds kept)."""
    m = re.match(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$", v)
    dt = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")
    if m.group(2):
        dt = dt.replace(microsecond=int(m.group(2)[:6].ljust(6, "0")))
    return dt


def utcnow():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


def find_keys(obj, keys, path="$"):
    """Paths at which any of keys occurs as an object key, anywhere in obj."""
    found = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in keys:
                found.append("%s.%s" % (path, k))
            found += find_keys(v, keys, "%s.%s" % (path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found += find_keys(v, keys, "%s[%d]" % (path, i))
    return found


def run_problems(run, where="run"):
    """Shape of a run object (design §6 / lead's decisions)."""
    if not isinstance(run, dict):
        return ["%s is not an object: %r" % (where, run)]
    p = []
    for k in RUN_FIELDS:
        if k not in run:
            p.append("%s lacks field %r" % (where, k))
    if "id" in run and not (isinstance(run["id"], str) and UUID_RE.match(run["id"])):
        p.append("%s.id is not a lowercase UUID v4/v7: %r" % (where, run["id"]))
    if "provider" in run and run["provider"] not in PROVIDERS:
        p.append("%s.provider %r is not a provider value" % (where, run["provider"]))
    if "status" in run and run["status"] not in RUN_STATES:
        p.append("%s.status %r is not a run state" % (where, run["status"]))
    if "stats" in run and not isinstance(run["stats"], dict):
        p.append("%s.stats is not an object: %r" % (where, run["stats"]))
    for k in ("total_resources", "failed_resources"):
        if k in run and not (is_int(run[k]) and run[k] >= 0):
            p.append("%s.%s is not a non-negative integer: %r" % (where, k, run[k]))
    if "error_message" in run and not (run["error_message"] is None or isinstance(run["error_message"], str)):
        p.append("%s.error_message is neither string nor null: %r" % (where, run["error_message"]))
    for k in ("started_at", "finished_at", "created_at", "updated_at"):
        if k in run:
            v = run[k]
            if v is None and k in ("created_at", "updated_at"):
                p.append("%s.%s is null" % (where, k))
            elif v is not None and not (isinstance(v, str) and TS_RE.match(v)):
                p.append("%s.%s is not ISO 8601 UTC with Z: %r" % (where, k, v))
    return p


def burst(n, fn, workers=8):
    """fn(i) for i in range(n), concurrently; results in order of i."""
    with concurrent.futures.ThreadPoolExecutor(workers) as ex:
        return list(ex.map(fn, range(n)))


def link_path(link):
    """A pagination link (relative or absolute) as path?query for request()."""
    parts = urllib.parse.urlsplit(link)
    return parts.path + ("?" + parts.query if parts.query else "")


def valid_credentials(provider, optional=False):
    req, opt = CREDENTIAL_FIELDS[provider]
    creds = {}
    for f in req + (opt if optional else []):
        if f in ("url", "base_url"):
            creds[f] = "http://127.0.0.1:9/%s" % provider
        else:
            creds[f] = "test-%s-%s" % (f, uuid.uuid4().hex[:8])
    return creds


def json_body_of_size(size, api_key="k-size"):
    """A valid start body of exactly size bytes (padded with JSON whitespace)."""
    head = '{"provider":"uptimerobot",'
    tail_ = '"credentials":{"api_key":"%s"}}' % api_key
    pad = size - len(head) - len(tail_)
    assert pad >= 0
    return (head + " " * pad + tail_).encode()


class Base(ApiTestCase):

    def run_path(self, rid, suffix=""):
        return "%s/%s%s" % (MIG, rid, suffix)

    def owner(self, scopes=None):
        return self.user(scopes)

    def assertRunShape(self, run, where="run"):
        p = run_problems(run, where)
        if p:
            self.fail("; ".join(p) + "\n  run: %r" % (run,))

    def assertNoHiddenKeys(self, r):
        found = find_keys(r.json, set(HIDDEN_KEYS))
        if found:
            self.fail("response contains hidden fields %s\n  %s" % (found, r.describe()))

    def start_pool(self):
        return StartPool(self)


class StartPool:
    """Posts start requests, switching to a fresh user every 5 attempts (the
    start limit counts every authenticated attempt, valid or not)."""

    def __init__(self, tc, per_user=5):
        self.tc = tc
        self.per_user = per_user
        self.users = []
        self.n = 0

    def post(self, body=None, raw_body=None, headers=None):
        if self.n % self.per_user == 0:
            self.users.append(self.tc.user())
        self.n += 1
        return self.users[-1].request("POST", MIG, body=body, raw_body=raw_body, headers=headers)

    def runs_created(self):
        if not self.users:
            return 0
        ids = ",".join(str(u.id) for u in self.users)
        return self.tc.stack.count("migration_runs", "user_id IN (%s)" % ids)


# ================================================================ conventions

class Conventions_HttpHeadersAndJson(Base):
    """design §6 + lead: every response JSON, nosniff, no-store, rate-limit headers."""

    def test_every_kind_of_response_is_json_with_nosniff_nostore_and_ratelimit_headers(self):
        s = self.stack
        u = self.owner()
        reader = self.user(["monitoring:read"])
        disabled = self.user()
        s.set_flag(False, disabled.id)
        big = json_body_of_size(MAX_BODY + 1)
        samples = []
        samples.append(("200 me", u.request("GET", API + "/me")))
        samples.append(("200 list", u.request("GET", MIG)))
        samples.append(("201 start", u.request("POST", MIG, body={
            "provider": "uptimerobot", "credentials": {"api_key": "k"}})))
        rid = s.insert_run(u.id, "awaiting_review")
        samples.append(("202 execute", u.request("POST", self.run_path(rid, "/execute"))))
        rid2 = s.insert_run(u.id, "completed")
        samples.append(("409 cancel", u.request("POST", self.run_path(rid2, "/cancel"))))
        samples.append(("204 delete", u.request("DELETE", self.run_path(rid2))))
        samples.append(("400 malformed", u.request("POST", MIG, raw_body='{"provider":')))
        samples.append(("401 no token", s.request("GET", MIG)))
        samples.append(("401 bad token", s.request("GET", MIG, token="1|nope")))
        samples.append(("403 forbidden", reader.request("GET", MIG)))
        samples.append(("403 feature_disabled", disabled.request("GET", MIG)))
        samples.append(("404 path", u.request("GET", API + "/nope")))
        samples.append(("404 run", u.request("GET", self.run_path(uuid.uuid4()))))
        samples.append(("405", u.request("PUT", MIG)))
        samples.append(("413", u.request("POST", MIG, raw_body=big)))
        samples.append(("415", u.request("POST", MIG, raw_body='{"provider":"uptimerobot"}',
                                         headers={"Content-Type": "text/plain"})))
        samples.append(("422", u.request("GET", MIG + "?per_page=0")))
        limited = self.user()
        wait_for_window(5)
        for _ in range(6):
            last = limited.request("POST", MIG, body={"provider": "uptimerobot", "credentials": {"api_key": "k"}})
        samples.append(("429 start limit", last))
        problems = []
        for label, r in samples:
            expect = int(label.split()[0])
            self.check(problems, r.status == expect, "%s: status %s" % (label, r.status), r)
            if r.status == 204:
                self.check(problems, r.body == b"", "%s: 204 with a body" % label, r)
            else:
                ct = r.header("Content-Type", "")
                self.check(problems, ct.split(";")[0].strip().lower() == "application/json",
                           "%s: Content-Type %r" % (label, ct), r)
                self.check(problems, isinstance(r.json, dict), "%s: body is not a JSON object" % label, r)
                if r.status >= 400 and isinstance(r.json, dict):
                    self.check(problems, isinstance(r.json.get("message"), str) and r.json.get("message"),
                               "%s: error without message" % label, r)
                    self.check(problems, isinstance(r.json.get("code"), str) and r.json.get("code"),
                               "%s: error without code" % label, r)
            self.check(problems, (r.header("X-Content-Type-Options") or "").lower() == "nosniff",
                       "%s: X-Content-Type-Options %r" % (label, r.header("X-Content-Type-Options")), r)
            self.check(problems, "no-store" in (r.header("Cache-Control") or "").lower(),
                       "%s: Cache-Control %r" % (label, r.header("Cache-Control")), r)
            lim, rem = r.header("X-RateLimit-Limit"), r.header("X-RateLimit-Remaining")
            self.check(problems, lim is not None and lim.isdigit() and int(lim) > 0,
                       "%s: X-RateLimit-Limit %r" % (label, lim), r)
            self.check(problems, rem is not None and rem.isdigit() and (not (lim or "").isdigit() or int(rem) <= int(lim)),
                       "%s: X-RateLimit-Remaining %r" % (label, rem), r)
        self.assertNoProblems(problems)

    def test_answers_json_whatever_the_accept_header(self):
        u = self.owner()
        for accept in (None, "text/html", "*/*", "application/xml"):
            r = u.request("GET", API + "/me", headers={"Accept": accept})
            self.assertStatus(r, 200, "Accept %r" % accept)
            self.assertEqual((r.header("Content-Type") or "").split(";")[0], "application/json", r.describe())
            self.assertEqual(r.json["data"]["id"], u.id, r.describe())

    def test_ratelimit_headers_show_configured_limit_and_count_down_per_request(self):
        u = self.owner()
        wait_for_window(5)
        r1 = u.request("GET", API + "/me")
        r2 = u.request("GET", MIG)
        for r in (r1, r2):
            self.assertStatus(r, 200)
            self.assertEqual(r.header("X-RateLimit-Limit"), str(self.stack.requests_per_minute), r.describe())
        self.assertEqual(int(r1.header("X-RateLimit-Remaining")), self.stack.requests_per_minute - 1, r1.describe())
        self.assertEqual(int(r2.header("X-RateLimit-Remaining")), self.stack.requests_per_minute - 2, r2.describe())

    def test_timestamps_are_iso8601_utc_with_z_or_null(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "completed", created_at="2024-01-02 03:04:05.250000",
                           updated_at="2024-01-02 04:00:00", started_at="2024-01-02 03:05:06",
                           finished_at=None)
        r = u.request("GET", self.run_path(rid))
        self.assertStatus(r, 200)
        run = r.json["data"]
        self.assertRunShape(run)
        self.assertEqual(parse_ts(run["created_at"]).replace(microsecond=0), datetime.datetime(2024, 1, 2, 3, 4, 5), run)
        self.assertEqual(parse_ts(run["updated_at"]), datetime.datetime(2024, 1, 2, 4, 0, 0), run)
        self.assertEqual(parse_ts(run["started_at"]), datetime.datetime(2024, 1, 2, 3, 5, 6), run)
        self.assertIsNone(run["finished_at"], run)

    def test_timestamps_written_by_the_service_are_utc_whatever_the_host_zone(self):
        # The stack runs with TZ=Asia/Kolkata (+05:30): a run started now must say now in UTC.
        u = self.owner()
        before = utcnow()
        r = u.request("POST", MIG, body={"provider": "uptimerobot", "credentials": {"api_key": "k"}})
        self.assertStatus(r, 201)
        run = r.json["data"]
        self.assertRunShape(run)
        created = parse_ts(run["created_at"])
        self.assertLess(abs((created - before).total_seconds()), 120,
                        "created_at %s is not the current UTC time %s (host TZ %s)" % (
                            run["created_at"], before.isoformat(), self.stack.tz))
        r = u.request("GET", self.run_path(run["id"]))
        self.assertStatus(r, 200)
        self.assertLess(abs((parse_ts(r.json["data"]["updated_at"]) - before).total_seconds()), 120, r.describe())

    def test_stats_is_an_object_even_when_unset_and_round_trips_when_set(self):
        s = self.stack
        u = self.owner()
        empty = s.insert_run(u.id, "pending")
        stats = {"discovered": {"monitor": 3}, "planned": {"create": 3}, "imported": 1, "skipped": 0,
                 "failed": 2, "progress": 0.5}
        full = s.insert_run(u.id, "executing", stats=json.dumps(stats))
        r = u.request("GET", self.run_path(empty))
        self.assertStatus(r, 200)
        self.assertIsInstance(r.json["data"]["stats"], dict, r.describe())
        r = u.request("GET", self.run_path(full))
        self.assertStatus(r, 200)
        self.assertEqual(r.json["data"]["stats"], stats, r.describe())


# ============================================================ authentication

class Authentication_Tokens(Base):
    """spec Authentication 1-3, design §3."""

    def test_missing_authorization_is_401_unauthenticated_with_message(self):
        for path in (API + "/me", MIG):
            r = self.req("GET", path)
            self.assertError(r, 401, "unauthenticated")

    def test_invalid_tokens_are_401(self):
        u = self.owner()
        other = self.owner()
        secret = u.token.split("|", 1)[1]
        bad = {
            "garbage": "Bearer garbage",
            "no secret": "Bearer %s|" % u.token_id,
            "wrong secret": "Bearer %s|%s" % (u.token_id, "A" * len(secret)),
            "unknown id": "Bearer 987654321|%s" % secret,
            "non-numeric id": "Bearer abc|%s" % secret,
            "other token's secret": "Bearer %s|%s" % (u.token_id, other.token.split("|", 1)[1]),
            "secret truncated": "Bearer %s" % u.token[:-1],
            "secret extended": "Bearer %sX" % u.token,
            "secret only": "Bearer %s" % secret,
            "empty bearer": "Bearer ",
            "basic scheme": "Basic %s" % u.token,
            "token without scheme": u.token,
        }
        problems = []
        for label, value in bad.items():
            r = self.req("GET", API + "/me", headers={"Authorization": value})
            self.check(problems, r.status == 401 and isinstance(r.json, dict) and r.json.get("code") == "unauthenticated"
                       and isinstance(r.json.get("message"), str), label, r)
        self.assertNoProblems(problems)
        self.assertStatus(u.request("GET", API + "/me"), 200)

    def test_401_does_not_reveal_whether_the_token_id_exists(self):
        s = self.stack
        u = self.owner()
        revoked = self.owner()
        s.ctl("token", "revoke", "--id", revoked.token_id)
        secret = "Z" * 48
        variants = {
            "existing id, wrong secret": "%s|%s" % (u.token_id, secret),
            "unknown id": "%d|%s" % (int(u.token_id) + 100000, secret),
            "revoked token": revoked.token,
            "malformed": "not-a-token",
        }
        bodies = {}
        for label, tok in variants.items():
            r = s.request("GET", MIG, token=tok)
            self.assertError(r, 401, "unauthenticated", msg=label)
            bodies[label] = r.json
        ref = bodies["existing id, wrong secret"]
        for label, b in bodies.items():
            self.assertEqual(b, ref, "401 body for %r differs from the one for an existing id" % label)
        # Nor do the rate-limit headers: all of these count against the one per-IP bucket.
        wait_for_window(3)
        rs = [s.request("GET", MIG, token=variants[k]) for k in
              ("existing id, wrong secret", "unknown id", "existing id, wrong secret", "revoked token")]
        lims = {r.header("X-RateLimit-Limit") for r in rs}
        rems = [int(r.header("X-RateLimit-Remaining") or -1) for r in rs]
        self.assertEqual(len(lims), 1, [r.describe() for r in rs])
        self.assertEqual(rems, [rems[0] - i for i in range(4)],
                         "X-RateLimit-Remaining of 401s does not count down one per-IP bucket: %s" % rems)

    def test_revocation_takes_effect_on_the_next_request_in_every_process(self):
        s = self.stack
        u = self.owner()
        spare = u.new_token()
        rs = burst(8, lambda i: u.request("GET", API + "/me"))
        self.assertEqual([r.status for r in rs], [200] * 8, rs[0].describe())
        s.ctl("token", "revoke", "--id", u.token_id)
        rs = burst(8, lambda i: u.request("GET", MIG))
        bad = [r for r in rs if r.status != 401]
        self.assertFalse(bad, "revoked token still accepted: %s" % (bad[:1],))
        self.assertStatus(s.request("GET", API + "/me", token=spare), 200, "other token of the same user")

    def test_tokens_of_a_deleted_user_are_401_in_every_process_and_on_the_tool_interface(self):
        s = self.stack
        u = self.owner(["account:read", "account:write", "mcp:use"])
        rid = s.insert_run(u.id, "awaiting_review")
        rs = burst(8, lambda i: u.request("GET", MIG))
        self.assertEqual([r.status for r in rs], [200] * 8, rs[0].describe())
        s.sql("DELETE FROM users WHERE id = %d" % u.id)  # as the host application removes an account
        rs = burst(8, lambda i: u.request("GET", self.run_path(rid)))
        self.assertEqual([r.status for r in rs], [401] * 8, rs[0].describe())
        r = u.request("POST", "/mcp", body={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                      headers={"Accept": "application/json, text/event-stream"})
        self.assertEqual(r.status, 401, r.describe())
        self.assertEqual(s.count("migration_runs", "user_id=%d" % u.id), 0)

    def test_without_valid_token_unknown_paths_wrong_methods_and_bad_bodies_are_401(self):
        s = self.stack
        cases = [
            ("GET", API + "/nope", {}),
            ("GET", API, {}),
            ("GET", "%s/%s" % (MIG, uuid.uuid4()), {}),
            ("GET", MIG + "/not-a-uuid", {}),
            ("PUT", MIG, {}),
            ("DELETE", API + "/me", {}),
            ("GET", MIG + "?per_page=0", {}),
            ("POST", MIG, {"raw_body": '{"provider":'}),
            ("POST", MIG, {"raw_body": "x", "headers": {"Content-Type": "text/plain"}}),
        ]
        problems = []
        for tok in (None, "1|" + "x" * 48):
            for method, path, kw in cases:
                r = s.request(method, path, token=tok, **kw)
                self.check(problems, r.status == 401 and isinstance(r.json, dict)
                           and r.json.get("code") == "unauthenticated",
                           "%s %s (token %r)" % (method, path, tok), r)
        self.assertNoProblems(problems)

    def test_scopes_are_the_12_account_scopes_plus_mcp_use_and_me_lists_them(self):
        u = self.owner(ALL_SCOPES)
        r = u.request("GET", API + "/me")
        self.assertStatus(r, 200)
        self.assertEqual(sorted(r.json["data"]["scopes"]), sorted(ALL_SCOPES), r.describe())
        self.assertEqual(len(ACCOUNT_SCOPES), 12)

    def test_wildcard_or_unknown_scope_grants_nothing(self):
        s = self.stack
        u = self.owner(["monitoring:read"])
        problems = []
        for scope in ("*", "account:*", "account", "admin"):
            rc, out, err = s.ctl("token", "create", "--user", u.id, "--name", "w", "--scopes", scope, check=False)
            if rc != 0:
                continue  # refused by migratorctl: fine
            tok = out.strip().splitlines()[-1]
            r = s.request("GET", MIG, token=tok)
            self.check(problems, r.status in (401, 403), "token with scope %r may list runs" % scope, r)
            r = s.request("DELETE", "%s/%s" % (MIG, uuid.uuid4()), token=tok)
            self.check(problems, r.status in (401, 403), "token with scope %r passes the delete scope check" % scope, r)
        self.assertNoProblems(problems)


# ============================================================== feature flag

def module_requests(tc, user, make_run):
    """(label, method, path, kwargs) for every migration endpoint; make_run(status) -> id."""
    return [
        ("list", "GET", MIG, {}),
        ("detail", "GET", tc.run_path(make_run("awaiting_review")), {}),
        ("logs", "GET", tc.run_path(make_run("awaiting_review"), "/logs"), {}),
        ("start", "POST", MIG, {"body": {"provider": "uptimerobot", "credentials": {"api_key": "k"}}}),
        ("execute", "POST", tc.run_path(make_run("awaiting_review"), "/execute"), {}),
        ("retry-failed", "POST", tc.run_path(make_run("completed_with_errors"), "/retry-failed"), {}),
        ("cancel", "POST", tc.run_path(make_run("pending"), "/cancel"), {}),
        ("resolve-conflicts", "POST", tc.run_path(make_run("paused_conflicts"), "/resolve-conflicts"),
         {"body": {"strategy": "skip"}}),
        ("delete", "DELETE", tc.run_path(make_run("completed")), {}),
        ("resources", "GET", tc.run_path(make_run("awaiting_review"), "/resources"), {}),
        ("exclude", "POST", tc.run_path(make_run("awaiting_review"), "/resources/exclude"), {"body": {"ids": [1]}}),
        ("include", "POST", tc.run_path(make_run("awaiting_review"), "/resources/include"), {"body": {"ids": [1]}}),
    ]


class Authentication_FeatureFlag(Base):
    """spec rule 3 and Authentication 4; design §3: off -> 403 feature_disabled on
    every module endpoint, no token unlocks it, /api/v1/me keeps working."""

    def _fixture(self, user):
        s = self.stack
        runs = []

        def make_run(status):
            rid = s.insert_run(user.id, status)
            if status in ("completed_with_errors", "paused_conflicts"):
                s.insert_resources(rid, 1, status="failed" if status == "completed_with_errors" else "conflict",
                                   action="conflict" if status == "paused_conflicts" else "create")
            runs.append((rid, status))
            return rid
        return make_run, runs

    def _assert_all_disabled(self, user, label):
        s = self.stack
        make_run, runs = self._fixture(user)
        reqs = module_requests(self, user, make_run)
        before = s.count("migration_runs", "user_id=%d" % user.id)
        problems = []
        for name, method, path, kw in reqs:
            r = user.request(method, path, **kw)
            self.check(problems, r.status == 403 and isinstance(r.json, dict)
                       and r.json.get("code") == "feature_disabled" and isinstance(r.json.get("message"), str),
                       "%s: %s" % (label, name), r)
        after = s.count("migration_runs", "user_id=%d" % user.id)
        self.check(problems, after == before, "%s: runs changed while disabled (%d -> %d)" % (label, before, after))
        for rid, status in runs:
            self.check(problems, s.run_status(rid) == status,
                       "%s: run in %s changed to %s while disabled" % (label, status, s.run_status(rid)))
        r = user.request("GET", API + "/me")
        self.check(problems, r.status == 200, "%s: /api/v1/me must keep working" % label, r)
        return problems

    def test_flag_off_globally_every_module_endpoint_is_403_feature_disabled_and_me_works(self):
        s = self.stack
        u = self.owner(ALL_SCOPES)
        s.set_flag(False)
        try:
            problems = self._assert_all_disabled(u, "global off")
            rs = burst(8, lambda i: u.request("GET", MIG))
            self.check(problems, all(r.status == 403 for r in rs),
                       "global off: not every process answers 403", rs[0])
        finally:
            s.set_flag(True)
        self.assertNoProblems(problems)
        self.assertStatus(u.request("GET", MIG), 200, "after switching the flag back on")

    def test_per_user_flag_off_overrides_global_on(self):
        s = self.stack
        off = self.owner()
        on = self.owner()
        rs = burst(8, lambda i: off.request("GET", MIG))  # warm every process
        self.assertTrue(all(r.status == 200 for r in rs), rs[0].describe())
        s.set_flag(False, off.id)
        problems = self._assert_all_disabled(off, "user override off")
        rs = burst(8, lambda i: off.request("GET", MIG))
        self.check(problems, all(r.status == 403 for r in rs), "flag change not seen by every process", rs[0])
        self.assertNoProblems(problems)
        self.assertStatus(on.request("GET", MIG), 200, "another user is unaffected")

    def test_per_user_flag_on_overrides_global_off(self):
        s = self.stack
        special = self.owner()
        other = self.owner()
        s.set_flag(True, special.id)
        s.set_flag(False)
        try:
            r_special = special.request("GET", MIG)
            r_other = other.request("GET", MIG)
        finally:
            s.set_flag(True)
        self.assertStatus(r_special, 200, "user with override on, global off")
        self.assertError(r_other, 403, "feature_disabled", msg="user without override, global off")

    def test_config_default_applies_when_no_flag_row_exists(self):
        # The stack's config says [features] migrator = off.
        s = self.stack
        u = self.owner()
        saved = s.sql_dicts("SELECT name, user_id, enabled FROM feature_flags WHERE user_id=0")
        s.sql("DELETE FROM feature_flags WHERE user_id=0")
        try:
            r = u.request("GET", MIG)
            me = u.request("GET", API + "/me")
        finally:
            s.set_flag(True)
        self.assertTrue(saved, "flag set migrator on wrote no global row in feature_flags")
        self.assertError(r, 403, "feature_disabled", msg="config default off, no rows")
        self.assertStatus(me, 200)


# ==================================================================== scopes

class Authentication_Scopes(Base):
    """spec Authentication 4-6: account:read list/detail/logs; account:write
    start/execute/retry (+cancel/resolve, design §4); account:delete delete."""

    def test_each_endpoint_requires_its_scope_and_nothing_else(self):
        s = self.stack
        base = self.owner(["monitoring:read"])
        tok = {}
        for scope in ("account:read", "account:write", "account:delete"):
            tok["only " + scope] = base.new_token([scope])
            tok["all but " + scope] = base.new_token([x for x in ALL_SCOPES if x != scope])
        uid = base.id

        def mk(status, res=None):
            rid = s.insert_run(uid, status)
            if res:
                s.insert_resources(rid, 1, status=res, action="conflict" if res == "conflict" else "create")
            return rid

        table = [
            ("list", "account:read", "GET", lambda: MIG, {}, 200),
            ("detail", "account:read", "GET", lambda: self.run_path(mk("awaiting_review")), {}, 200),
            ("logs", "account:read", "GET", lambda: self.run_path(mk("awaiting_review"), "/logs"), {}, 200),
            ("start", "account:write", "POST", lambda: MIG,
             {"body": {"provider": "uptimerobot", "credentials": {"api_key": "k"}}}, 201),
            ("execute", "account:write", "POST", lambda: self.run_path(mk("awaiting_review"), "/execute"), {}, 202),
            ("retry-failed", "account:write", "POST",
             lambda: self.run_path(mk("completed_with_errors", "failed"), "/retry-failed"), {}, 202),
            ("cancel", "account:write", "POST", lambda: self.run_path(mk("pending"), "/cancel"), {}, 200),
            ("resolve-conflicts", "account:write", "POST",
             lambda: self.run_path(mk("paused_conflicts", "conflict"), "/resolve-conflicts"),
             {"body": {"strategy": "skip"}}, 200),
            ("delete", "account:delete", "DELETE", lambda: self.run_path(mk("completed")), {}, 204),
            ("resources", "account:read", "GET", lambda: self.run_path(mk("awaiting_review", "pending"), "/resources"),
             {}, 200),
        ]
        for name, res_status in (("exclude", "pending"), ("include", "excluded")):
            rid = mk("awaiting_review")
            ids = s.insert_resources(rid, 1, status=res_status)
            table.append((name, "account:write", "POST", lambda rid=rid, name=name: self.run_path(
                rid, "/resources/" + name), {"body": {"ids": ids}}, 200))
        problems = []
        for name, scope, method, path_fn, kw, ok in table:
            path = path_fn()
            runs_before = s.count("migration_runs", "user_id=%d" % uid)
            statuses_before = dict(s.sql("SELECT id, status FROM migration_runs WHERE user_id=%d" % uid))
            r = s.request(method, path, token=tok["all but " + scope], **kw)
            self.check(problems, r.status == 403 and isinstance(r.json, dict) and r.json.get("code") == "forbidden",
                       "%s without %s: expected 403 forbidden" % (name, scope), r)
            statuses_after = dict(s.sql("SELECT id, status FROM migration_runs WHERE user_id=%d" % uid))
            self.check(problems, statuses_after == statuses_before and
                       s.count("migration_runs", "user_id=%d" % uid) == runs_before,
                       "%s without %s changed runs" % (name, scope))
            r = s.request(method, path, token=tok["only " + scope], **kw)
            self.check(problems, r.status == ok, "%s with only %s: expected %d" % (name, scope, ok), r)
        self.assertNoProblems(problems)

    def test_me_needs_only_a_valid_token(self):
        u = self.owner(["monitoring:read"])
        r = u.request("GET", API + "/me")
        self.assertStatus(r, 200)
        self.assertEqual(r.json["data"]["scopes"], ["monitoring:read"], r.describe())

    def test_mcp_use_and_other_groups_grant_no_migration_access(self):
        others = [x for x in ALL_SCOPES if not x.startswith("account:")]
        u = self.owner(others)
        rid = self.stack.insert_run(u.id, "awaiting_review")
        for method, path in (("GET", MIG), ("GET", self.run_path(rid)), ("POST", self.run_path(rid, "/execute")),
                             ("DELETE", self.run_path(rid))):
            self.assertError(u.request(method, path), 403, "forbidden", msg="%s %s" % (method, path))
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")


# =============================================================== check order

class Authentication_CheckOrder(Base):
    """design §3: token (401) -> flag (403) -> scope (403) -> rate limit (429) ->
    route/validation (404/405/422). (Rate-limit ordering: Limits_RequestRate.)"""

    def test_token_is_checked_before_the_flag(self):
        s = self.stack
        s.set_flag(False)
        try:
            r1 = s.request("GET", MIG)
            r2 = s.request("GET", MIG, token="1|" + "q" * 48)
        finally:
            s.set_flag(True)
        self.assertError(r1, 401, "unauthenticated")
        self.assertError(r2, 401, "unauthenticated")

    def test_flag_is_checked_before_scope_route_and_validation(self):
        s = self.stack
        u = self.owner(["monitoring:read"])
        full = u.new_token(ALL_SCOPES)
        s.set_flag(False, u.id)
        cases = [
            ("no scope, list", u.token, "GET", MIG, {}),
            ("no scope, start", u.token, "POST", MIG, {"body": {"provider": "uptimerobot"}}),
            ("unknown run", full, "GET", "%s/%s" % (MIG, uuid.uuid4()), {}),
            ("malformed id", full, "GET", MIG + "/not-a-uuid", {}),
            ("invalid per_page", full, "GET", MIG + "?per_page=0", {}),
            ("malformed JSON", full, "POST", MIG, {"raw_body": '{"provider":'}),
            ("invalid body", full, "POST", MIG, {"body": {"provider": "bogus"}}),
            ("execute unknown run", full, "POST", "%s/%s/execute" % (MIG, uuid.uuid4()), {}),
        ]
        problems = []
        for label, tok, method, path, kw in cases:
            r = s.request(method, path, token=tok, **kw)
            self.check(problems, r.status == 403 and isinstance(r.json, dict) and r.json.get("code") == "feature_disabled",
                       label, r)
        self.assertNoProblems(problems)

    def test_scope_is_checked_before_route_and_validation(self):
        s = self.stack
        u = self.owner(["monitoring:read"])
        cases = [
            ("GET", "%s/%s" % (MIG, uuid.uuid4()), {}),
            ("GET", MIG + "/not-a-uuid", {}),
            ("GET", MIG + "?per_page=0", {}),
            ("GET", "%s/%s/logs?errors_only=maybe" % (MIG, uuid.uuid4()), {}),
            ("POST", MIG, {"raw_body": '{"provider":'}),
            ("POST", MIG, {"body": {"provider": "bogus"}}),
            ("POST", MIG, {"raw_body": MAX_BODY * b" " + b"{}"}),
            ("POST", MIG, {"raw_body": "provider=x", "headers": {"Content-Type": "application/x-www-form-urlencoded"}}),
            ("POST", "%s/%s/execute" % (MIG, uuid.uuid4()), {}),
            ("POST", "%s/%s/resolve-conflicts" % (MIG, uuid.uuid4()), {"body": {"strategy": "bogus"}}),
            ("DELETE", "%s/%s" % (MIG, uuid.uuid4()), {}),
        ]
        problems = []
        for method, path, kw in cases:
            r = u.request(method, path, **kw)
            self.check(problems, r.status == 403 and isinstance(r.json, dict) and r.json.get("code") == "forbidden",
                       "%s %s" % (method, path), r)
        self.assertNoProblems(problems)
        self.assertEqual(s.count("migration_runs", "user_id=%d" % u.id), 0)


# ==================================================================== errors

class Errors_StatusCodes(Base):
    """spec Errors + design §6: JSON for 400/404/405/413/415/422/500."""

    def test_unknown_paths_under_api_v1_are_404_not_found_json(self):
        u = self.owner()
        rid = self.stack.insert_run(u.id, "awaiting_review")
        paths = [API + "/nope", API, API + "/", API + "/migrationsx", API + "/me/extra",
                 MIG + "/%s/nope" % rid, MIG + "/%s/logs/extra" % rid, MIG + "/%s/execute/x" % rid,
                 API + "/v2/migrations", API + "/migrations/%s/%s" % (rid, rid)]
        problems = []
        for p in paths:
            r = u.request("GET", p)
            self.check(problems, r.status == 404 and isinstance(r.json, dict) and r.json.get("code") == "not_found"
                       and isinstance(r.json.get("message"), str), p, r)
        self.assertNoProblems(problems)

    def test_wrong_method_on_a_known_path_is_405_with_allow(self):
        u = self.owner()
        rid = self.stack.insert_run(u.id, "awaiting_review")
        run = self.run_path(rid)
        cases = [
            ("PUT", MIG, {"GET", "POST"}),
            ("DELETE", MIG, {"GET", "POST"}),
            ("PATCH", MIG, {"GET", "POST"}),
            ("DELETE", API + "/me", {"GET"}),
            ("POST", API + "/me", {"GET"}),
            ("PUT", run, {"GET", "DELETE"}),
            ("PATCH", run, {"GET", "DELETE"}),
            ("POST", run, {"GET", "DELETE"}),
            ("GET", run + "/execute", {"POST"}),
            ("DELETE", run + "/retry-failed", {"POST"}),
            ("GET", run + "/cancel", {"POST"}),
            ("PUT", run + "/resolve-conflicts", {"POST"}),
            ("POST", run + "/logs", {"GET"}),
        ]
        problems = []
        for method, path, allowed in cases:
            r = u.request(method, path)
            ok = r.status == 405 and isinstance(r.json, dict) and r.json.get("code") == "method_not_allowed"
            allow = {m.strip().upper() for m in (r.header("Allow") or "").split(",") if m.strip()}
            self.check(problems, ok, "%s %s: expected 405 method_not_allowed" % (method, path), r)
            self.check(problems, allowed <= allow and method not in allow,
                       "%s %s: Allow %r should list %s" % (method, path, r.header("Allow"), sorted(allowed)), r)
        self.assertNoProblems(problems)
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")

    def test_malformed_json_is_400_malformed_json(self):
        pool = self.start_pool()
        bodies = ['{"provider":', "{", '{"provider": "uptimerobot",}', "{'provider': 'uptimerobot'}",
                  '{"provider": "uptimerobot"} x', '{"provider":"uptimerobot"}{"provider":"pingdom"}',
                  '{"provider": uptimerobot}', "nul", '{"provider":"uptimerobot","credentials":{"api_key":"k}}']
        problems = []
        for b in bodies:
            r = pool.post(raw_body=b)
            self.check(problems, r.status == 400 and isinstance(r.json, dict) and r.json.get("code") == "malformed_json"
                       and isinstance(r.json.get("message"), str), "body %r" % b, r)
        u = self.owner()
        rid = self.stack.insert_run(u.id, "paused_conflicts")
        r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), raw_body='{"strategy":')
        self.check(problems, r.status == 400 and isinstance(r.json, dict) and r.json.get("code") == "malformed_json",
                   "resolve-conflicts with malformed JSON", r)
        self.assertNoProblems(problems)
        self.assertEqual(pool.runs_created(), 0)

    def test_deeply_nested_or_invalid_utf8_json_is_rejected_cleanly(self):
        pool = self.start_pool()
        problems = []
        deep = '{"provider":"uptimerobot","credentials":' + "[" * 20000 + "]" * 20000 + "}"
        r = pool.post(raw_body=deep)
        self.check(problems, r.status in (400, 422) and isinstance(r.json, dict), "20000-deep JSON", r)
        r = pool.post(raw_body=b'{"provider":"uptimerobot","credentials":{"api_key":"\xff\xfe"}}')
        self.check(problems, r.status in (400, 422) and isinstance(r.json, dict), "invalid UTF-8 in a string", r)
        r = pool.post(raw_body=b'{"provider":"uptime\x00robot","credentials":{"api_key":"k"}}')
        self.check(problems, r.status in (400, 422) and isinstance(r.json, dict), "raw NUL in a string", r)
        self.check(problems, pool.runs_created() == 0, "a run was created from a rejected body")
        r = pool.post(body={"provider": "uptimerobot", "credentials": {"api_key": "k"}})
        self.check(problems, r.status == 201, "service still works afterwards", r)
        self.assertNoProblems(problems)

    def test_body_over_max_body_is_413_payload_too_large(self):
        pool = self.start_pool()
        r = pool.post(raw_body=json_body_of_size(MAX_BODY + 1))
        self.assertError(r, 413, "payload_too_large")
        r = pool.post(raw_body=json_body_of_size(4 * MAX_BODY))
        self.assertError(r, 413, "payload_too_large")
        u = self.owner()
        rid = self.stack.insert_run(u.id, "paused_conflicts")
        body = ('{"strategy":"skip"' + " " * MAX_BODY + "}").encode()
        r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), raw_body=body)
        self.assertError(r, 413, "payload_too_large", msg="resolve-conflicts")
        self.assertEqual(pool.runs_created(), 0)
        self.assertEqual(self.stack.run_status(rid), "paused_conflicts")

    def test_chunked_bodies_are_read_and_limited_like_any_body(self):
        u = self.owner()
        r = u.request("POST", MIG, chunks=[b'{"provider":"uptimerobot",', b'"credentials":{"api_key":"k"}}'])
        self.assertStatus(r, 201, "chunked valid body")
        r = u.request("POST", MIG, chunks=[b'{"provider":"uptimerobot",'] + [b" " * 8192] * 9
                      + [b'"credentials":{"api_key":"k"}}'])
        self.assertError(r, 413, "payload_too_large", msg="chunked body over max_body")
        self.assertEqual(self.stack.count("migration_runs", "user_id=%d" % u.id), 1)

    def test_body_of_exactly_max_body_bytes_is_accepted(self):
        u = self.owner()
        body = json_body_of_size(MAX_BODY)
        self.assertEqual(len(body), MAX_BODY)
        r = u.request("POST", MIG, raw_body=body)
        self.assertStatus(r, 201)

    def test_body_with_non_json_content_type_is_415_unsupported_media_type(self):
        pool = self.start_pool()
        body = json.dumps({"provider": "uptimerobot", "credentials": {"api_key": "k"}})
        problems = []
        for ct in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                   "application/xml", "text/json-not"):
            r = pool.post(raw_body=body, headers={"Content-Type": ct})
            self.check(problems, r.status == 415 and isinstance(r.json, dict)
                       and r.json.get("code") == "unsupported_media_type", "Content-Type %s" % ct, r)
        u = self.owner()
        rid = self.stack.insert_run(u.id, "paused_conflicts")
        self.stack.insert_resources(rid, 1, status="conflict", action="conflict")
        r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), raw_body='{"strategy":"skip"}',
                      headers={"Content-Type": "text/plain"})
        self.check(problems, r.status == 415 and isinstance(r.json, dict)
                   and r.json.get("code") == "unsupported_media_type", "resolve-conflicts text/plain", r)
        self.assertNoProblems(problems)
        self.assertEqual(pool.runs_created(), 0)
        self.assertEqual(self.stack.run_status(rid), "paused_conflicts")

    def test_json_content_type_with_charset_parameter_is_accepted(self):
        u = self.owner()
        r = u.request("POST", MIG, raw_body=json.dumps({"provider": "pingdom", "credentials": {"api_token": "t"}}),
                      headers={"Content-Type": "application/json; charset=utf-8"})
        self.assertStatus(r, 201)

    def test_internal_error_is_500_internal_error_without_internals_and_service_recovers(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "awaiting_review")
        s.insert_logs(rid, [("info", "hello", None, "2024-01-01 00:00:00")])
        s.sql("RENAME TABLE migration_run_logs TO migration_run_logs_away")
        try:
            r = u.request("GET", self.run_path(rid, "/logs"))
        finally:
            s.sql("RENAME TABLE migration_run_logs_away TO migration_run_logs")
        self.assertError(r, 500, "internal_error")
        low = r.text.lower()
        for leak in ("migration_run_logs", "exist", "mariadb", "mysql", "select ", ".c:"):
            self.assertNotIn(leak, low, "500 body leaks internals (%r)\n  %s" % (leak, r.describe()))
        self.assertEqual((r.header("Content-Type") or "").split(";")[0], "application/json", r.describe())
        self.assertEqual(r.header("X-Content-Type-Options"), "nosniff", r.describe())
        self.assertIn("no-store", r.header("Cache-Control") or "", r.describe())
        self.assertIsNotNone(r.header("X-RateLimit-Limit"), r.describe())
        self.assertIsNotNone(r.header("X-RateLimit-Remaining"), r.describe())
        rs = burst(4, lambda i: u.request("GET", self.run_path(rid, "/logs")))
        self.assertTrue(all(x.status == 200 for x in rs), "no recovery after the table is back: %s" % rs[0].describe())


# ==================================================================== list

class Endpoints_ListMigrations(Base):
    """GET /api/v1/migrations."""

    def _runs(self, user, n, start="2024-05-01 10:00:00", **row):
        t0 = datetime.datetime.strptime(start, "%Y-%m-%d %H:%M:%S")
        rows = [dict(row, created_at=(t0 + datetime.timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S"))
                for i in range(n)]
        return self.stack.insert_runs(user.id, rows)  # ids oldest first

    def test_new_user_gets_an_empty_list(self):
        u = self.owner()
        r = u.request("GET", MIG)
        self.assertStatus(r, 200)
        body = self.assertJsonObject(r)
        self.assertEqual(body.get("data"), [], r.describe())
        meta = body.get("meta", {})
        self.assertEqual(meta.get("total"), 0, r.describe())
        self.assertEqual(meta.get("current_page"), 1, r.describe())
        self.assertEqual(meta.get("per_page"), 20, r.describe())
        self.assertIn(meta.get("from"), (None, 0), r.describe())
        self.assertIn(meta.get("to"), (None, 0), r.describe())
        for k in ("first", "last", "prev", "next"):
            self.assertIn(k, body.get("links", {}), r.describe())
        self.assertIsNone(body["links"]["prev"], r.describe())
        self.assertIsNone(body["links"]["next"], r.describe())

    def test_lists_only_own_runs_newest_first(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        mine = self._runs(u, 5, start="2024-05-01 10:00:00")
        self._runs(other, 5, start="2024-05-01 09:59:58")
        s.insert_run(other.id, "pending")
        r = u.request("GET", MIG)
        self.assertStatus(r, 200)
        self.assertEqual([x["id"] for x in r.json["data"]], list(reversed(mine)), r.describe())
        self.assertEqual(r.json["meta"]["total"], 5, r.describe())

    def test_list_rows_are_run_objects_with_resource_counts(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "completed_with_errors", provider="whmcs", error_message="2 failed")
        s.insert_resources(rid, 4, status="imported")
        s.insert_resources(rid, 2, status="failed", error_message="boom")
        s.insert_resources(rid, 1, status="skipped", action="skip")
        r = u.request("GET", MIG)
        self.assertStatus(r, 200)
        self.assertEqual(len(r.json["data"]), 1, r.describe())
        row = r.json["data"][0]
        self.assertRunShape(row)
        self.assertEqual((row["id"], row["provider"], row["status"], row["error_message"]),
                         (rid, "whmcs", "completed_with_errors", "2 failed"), row)
        self.assertEqual((row["total_resources"], row["failed_resources"]), (7, 2), row)
        self.assertNoHiddenKeys(r)

    def test_default_per_page_is_20_with_full_pagination_meta_and_links(self):
        u = self.owner()
        ids = list(reversed(self._runs(u, 25)))  # newest first
        r = u.request("GET", MIG)
        self.assertStatus(r, 200)
        b = r.json
        self.assertEqual([x["id"] for x in b["data"]], ids[:20], r.describe())
        self.assertEqual({k: b["meta"].get(k) for k in ("current_page", "last_page", "per_page", "total", "from", "to")},
                         {"current_page": 1, "last_page": 2, "per_page": 20, "total": 25, "from": 1, "to": 20})
        self.assertIsNone(b["links"]["prev"])
        for k in ("first", "last", "next"):
            self.assertIsInstance(b["links"][k], str, b["links"])
        r2 = u.request("GET", link_path(b["links"]["next"]))
        self.assertStatus(r2, 200, "following links.next")
        self.assertEqual([x["id"] for x in r2.json["data"]], ids[20:], r2.describe())
        self.assertEqual((r2.json["meta"]["current_page"], r2.json["meta"]["from"], r2.json["meta"]["to"]),
                         (2, 21, 25), r2.describe())
        self.assertIsNone(r2.json["links"]["next"], r2.describe())
        self.assertIsInstance(r2.json["links"]["prev"], str, r2.describe())
        r3 = u.request("GET", link_path(b["links"]["last"]))
        self.assertEqual(r3.json["meta"]["current_page"], 2, r3.describe())
        r4 = u.request("GET", link_path(r2.json["links"]["first"]))
        self.assertEqual([x["id"] for x in r4.json["data"]], ids[:20], r4.describe())

    def test_pages_partition_the_runs_and_links_keep_per_page_and_filters(self):
        s = self.stack
        u = self.owner()
        ids = list(reversed(self._runs(u, 12, status="failed", provider="pingdom")))
        self._runs(u, 3, start="2024-06-01 00:00:00", status="completed", provider="pingdom")
        seen = []
        path = MIG + "?status=failed&per_page=5"
        pages = 0
        while path and pages < 10:
            r = u.request("GET", path)
            self.assertStatus(r, 200)
            pages += 1
            self.assertEqual(r.json["meta"]["per_page"], 5, r.describe())
            self.assertEqual(r.json["meta"]["total"], 12, r.describe())
            self.assertEqual(r.json["meta"]["last_page"], 3, r.describe())
            self.assertTrue(all(x["status"] == "failed" for x in r.json["data"]), r.describe())
            seen += [x["id"] for x in r.json["data"]]
            nxt = r.json["links"]["next"]
            path = link_path(nxt) if nxt else None
        self.assertEqual(pages, 3)
        self.assertEqual(seen, ids, "pages (following links.next) do not partition the filtered runs")

    def test_page_beyond_the_last_is_empty(self):
        u = self.owner()
        self._runs(u, 3)
        r = u.request("GET", MIG + "?page=5&per_page=2")
        self.assertStatus(r, 200)
        self.assertEqual(r.json["data"], [], r.describe())
        self.assertEqual((r.json["meta"]["total"], r.json["meta"]["last_page"], r.json["meta"]["current_page"]),
                         (3, 2, 5), r.describe())

    def test_per_page_accepts_1_to_100(self):
        u = self.owner()
        ids = list(reversed(self._runs(u, 101)))
        for pp, n in ((1, 1), (100, 100), (37, 37)):
            r = u.request("GET", MIG + "?per_page=%d" % pp)
            self.assertStatus(r, 200)
            self.assertEqual([x["id"] for x in r.json["data"]], ids[:n], r.describe())
            self.assertEqual(r.json["meta"]["per_page"], pp, r.describe())
        r = u.request("GET", MIG + "?per_page=100&page=2")
        self.assertEqual([x["id"] for x in r.json["data"]], ids[100:], r.describe())

    def test_per_page_outside_1_to_100_or_not_an_integer_is_422_on_per_page(self):
        u = self.owner()
        problems = []
        for v in ("0", "101", "-1", "abc", "1.5", "10abc", "99999999999999999999", "1e1", "0x10", " 5"):
            r = u.request("GET", MIG + "?per_page=" + urllib.parse.quote(v))
            self.check(problems, r.status == 422 and isinstance(r.json, dict) and r.json.get("code") == "validation_failed"
                       and isinstance(r.json.get("errors"), dict) and "per_page" in r.json["errors"],
                       "per_page=%r" % v, r)
        self.assertNoProblems(problems)

    def test_page_below_1_or_not_an_integer_is_422_on_page(self):
        u = self.owner()
        problems = []
        for v in ("0", "-1", "abc", "1.5", "2x"):
            r = u.request("GET", MIG + "?page=" + urllib.parse.quote(v))
            self.check(problems, r.status == 422 and isinstance(r.json, dict) and r.json.get("code") == "validation_failed"
                       and isinstance(r.json.get("errors"), dict) and "page" in r.json["errors"],
                       "page=%r" % v, r)
        self.assertNoProblems(problems)

    def test_filters_by_status_and_provider(self):
        s = self.stack
        u = self.owner()
        a = s.insert_run(u.id, "failed", provider="uptimerobot", created_at="2024-01-01 00:00:01")
        b = s.insert_run(u.id, "failed", provider="pingdom", created_at="2024-01-01 00:00:02")
        c = s.insert_run(u.id, "completed", provider="uptimerobot", created_at="2024-01-01 00:00:03")
        d = s.insert_run(u.id, "awaiting_review", provider="whmcs", created_at="2024-01-01 00:00:04")
        other = self.owner()
        s.insert_run(other.id, "failed", provider="uptimerobot")
        cases = {"status=failed": [b, a], "provider=uptimerobot": [c, a], "status=failed&provider=pingdom": [b],
                 "status=awaiting_review": [d], "provider=statuscake": [], "status=cancelled&provider=whmcs": []}
        problems = []
        for qs, expect in cases.items():
            r = u.request("GET", MIG + "?" + qs)
            got = [x["id"] for x in r.json["data"]] if r.status == 200 and isinstance(r.json, dict) else None
            self.check(problems, got == expect and r.json["meta"]["total"] == len(expect), qs, r)
        self.assertNoProblems(problems)

    def test_every_status_and_provider_value_is_accepted_as_filter(self):
        u = self.owner()
        problems = []
        for st in RUN_STATES:
            r = u.request("GET", MIG + "?status=" + st)
            self.check(problems, r.status == 200, "status=" + st, r)
        for p in PROVIDERS:
            r = u.request("GET", MIG + "?provider=" + p)
            self.check(problems, r.status == 200, "provider=" + p, r)
        self.assertNoProblems(problems)

    def test_unknown_status_or_provider_filter_is_422_on_that_field(self):
        u = self.owner()
        problems = []
        for field, v in (("status", "bogus"), ("status", "FAILED"), ("status", "' OR 1=1 -- "),
                         ("provider", "bogus"), ("provider", "UptimeRobot"), ("provider", "uptimerobot%")):
            r = u.request("GET", MIG + "?%s=%s" % (field, urllib.parse.quote(v)))
            self.check(problems, r.status == 422 and isinstance(r.json, dict)
                       and r.json.get("code") == "validation_failed"
                       and field in (r.json.get("errors") or {}), "%s=%r" % (field, v), r)
        self.assertNoProblems(problems)


# =================================================================== detail

class Endpoints_RunDetail(Base):
    """GET /api/v1/migrations/{run}."""

    def test_detail_has_run_fields_resources_and_resource_counts(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "paused_conflicts", provider="statuspage", error_message=None,
                           started_at="2024-02-02 02:02:02")
        imported = s.insert_resources(rid, 2, status="imported", resource_type="monitor", attempts=1)
        failed = s.insert_resources(rid, 1, status="failed", resource_type="contact", attempts=3,
                                    error_message="provider said no")
        conflict = s.insert_resources(rid, 3, status="conflict", action="conflict", resource_type="status_page")
        r = u.request("GET", self.run_path(rid))
        self.assertStatus(r, 200)
        d = r.json["data"]
        self.assertRunShape(d)
        self.assertEqual((d["id"], d["provider"], d["status"]), (rid, "statuspage", "paused_conflicts"))
        self.assertEqual((d["total_resources"], d["failed_resources"]), (6, 1), d)
        res = d.get("resources")
        self.assertIsInstance(res, list, r.describe())
        self.assertEqual([x.get("id") for x in res], imported + failed + conflict, "resources in id order")
        for item in res:
            for k in RESOURCE_FIELDS:
                self.assertIn(k, item, item)
            self.assertTrue(is_int(item["attempts"]), item)
        byid = {x["id"]: x for x in res}
        f = byid[failed[0]]
        self.assertEqual((f["resource_type"], f["status"], f["attempts"], f["error_message"], f["action"]),
                         ("contact", "failed", 3, "provider said no", "create"), f)
        self.assertIsInstance(f["external_id"], str, f)
        self.assertEqual(byid[conflict[0]]["action"], "conflict")
        self.assertEqual(r.json.get("meta", {}).get("resource_counts"),
                         {"pending": 0, "running": 0, "imported": 2, "skipped": 0, "conflict": 3, "failed": 1,
                          "excluded": 0},
                         r.describe())
        self.assertNoHiddenKeys(r)

    def test_detail_lists_at_most_500_resources_in_id_order_but_counts_all(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "executing")
        ids = s.insert_resources(rid, 505, status="pending")
        ids += s.insert_resources(rid, 15, status="failed")
        r = u.request("GET", self.run_path(rid))
        self.assertStatus(r, 200)
        got = [x["id"] for x in r.json["data"]["resources"]]
        self.assertEqual(len(got), 500)
        self.assertEqual(got, sorted(ids)[:500])
        self.assertEqual(r.json["meta"]["resource_counts"]["pending"], 505)
        self.assertEqual(r.json["meta"]["resource_counts"]["failed"], 15)
        self.assertEqual((r.json["data"]["total_resources"], r.json["data"]["failed_resources"]), (520, 15))

    def test_unknown_foreign_and_malformed_ids_are_404_alike(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        mine = s.insert_run(u.id, "awaiting_review")
        foreign = s.insert_run(other.id, "awaiting_review")
        ids = {"unknown": str(uuid.uuid4()), "foreign": foreign, "not-a-uuid": "not-a-uuid",
               "encoded ../etc": "..%2Fetc", "../etc": "../etc", "sql": urllib.parse.quote("' OR '1'='1"),
               "too long": mine + "0", "too short": mine[:-1], "no dashes": mine.replace("-", ""),
               "braces": "{%s}" % mine, "zero": "0"}
        bodies = {}
        problems = []
        for label, rid in ids.items():
            r = u.request("GET", MIG + "/" + rid)
            self.check(problems, r.status == 404 and isinstance(r.json, dict) and r.json.get("code") == "not_found",
                       label, r)
            bodies[label] = r.json
        self.check(problems, bodies["unknown"] == bodies["foreign"],
                   "404 for a foreign run differs from an unknown one: %r vs %r" % (bodies["foreign"], bodies["unknown"]))
        self.assertNoProblems(problems)
        self.assertStatus(u.request("GET", MIG + "/" + mine), 200)


# ===================================================================== logs

class Endpoints_RunLogs(Base):
    """GET /api/v1/migrations/{run}/logs."""

    def _logs(self, rid):
        entries = [("info", "discovery started", {"page": 1}, "2024-03-01 10:00:00"),
                   ("error", "page 2 failed", {"http": 500}, "2024-03-01 10:00:01"),
                   ("warning", "slow provider", {"ms": 900}, "2024-03-01 10:00:02"),
                   ("error", "monitor 7 failed", {"external_id": "7"}, "2024-03-01 10:00:03.500000"),
                   ("info", "discovery finished", {"found": 12}, "2024-03-01 10:00:04")]
        ids = self.stack.insert_logs(rid, entries)
        return list(zip(ids, entries))

    def test_logs_are_newest_first_with_their_fields(self):
        u = self.owner()
        rid = self.stack.insert_run(u.id, "awaiting_review")
        logs = self._logs(rid)
        other = self.stack.insert_run(u.id, "awaiting_review")
        self.stack.insert_logs(other, [("info", "other run", None, "2024-03-01 10:00:09")])
        r = u.request("GET", self.run_path(rid, "/logs"))
        self.assertStatus(r, 200)
        data = r.json["data"]
        self.assertEqual([x["id"] for x in data], [i for i, _ in reversed(logs)], r.describe())
        for item, (lid, (level, msg, ctx, at)) in zip(data, reversed(logs)):
            for k in LOG_FIELDS:
                self.assertIn(k, item, item)
            self.assertEqual((item["level"], item["message"], item["context"]), (level, msg, ctx), item)
            self.assertRegex(item["logged_at"], TS_RE)
            self.assertEqual(parse_ts(item["logged_at"]).replace(microsecond=0),
                             datetime.datetime.strptime(at[:19], "%Y-%m-%d %H:%M:%S"), item)
        self.assertEqual(r.json["meta"]["current_page"], 1, r.describe())
        self.assertEqual(r.json["meta"]["per_page"], 20, r.describe())
        self.assertIsNone(r.json["links"]["prev"], r.describe())
        self.assertIsNone(r.json["links"]["next"], r.describe())

    def test_stored_documents_are_shown_as_objects_whatever_their_text(self):
        """A run's stats and options and a log entry's context reach the answers as stored when they
        are JSON objects (spaces and all), else as {}: the answer stays JSON whatever the row holds."""
        u = self.owner()
        rid = self.stack.insert_run(u.id, "awaiting_review")
        texts = ['{ "page": 2, "ids": ["a\\"b", 1.5e3] }', "null", "[1]", '{"cut": ', "{'a':1}", None]
        self.stack.insert_logs(rid, [("info", "m%d" % i, t, "2024-03-01 10:00:%02d" % i)
                                     for i, t in enumerate(texts)])
        r = u.request("GET", self.run_path(rid, "/logs"))
        self.assertStatus(r, 200)
        self.assertEqual([x["context"] for x in reversed(r.json["data"])],
                         [{"page": 2, "ids": ['a"b', 1500.0]}, {}, {}, {}, {}, {}], r.describe())
        for stats, options, shown in (('{"imported": 3, "x": [true]}', '{ "import_paused" : true }',
                                       ({"imported": 3, "x": [True]}, {"import_paused": True})),
                                      ('{"imported": 3', "[]", ({}, {"import_paused": False})),
                                      (None, None, ({}, {"import_paused": False}))):
            self.stack.sql("UPDATE migration_runs SET stats = %s, options = %s WHERE id = %s"
                           % (q(stats), q(options), q(rid)))
            for r in (u.request("GET", "/api/v1/migrations"), u.request("GET", self.run_path(rid))):
                self.assertStatus(r, 200)
                run = r.json["data"][0] if isinstance(r.json["data"], list) else r.json["data"]
                self.assertEqual((run["stats"], run["options"]), shown, r.describe())

    def test_errors_only_true_or_1_keeps_error_entries_false_or_0_keeps_all(self):
        u = self.owner()
        rid = self.stack.insert_run(u.id, "failed")
        logs = self._logs(rid)
        errors = [i for i, e in reversed(logs) if e[0] == "error"]
        everything = [i for i, _ in reversed(logs)]
        problems = []
        for v, expect in (("true", errors), ("1", errors), ("false", everything), ("0", everything)):
            r = u.request("GET", self.run_path(rid, "/logs?errors_only=" + v))
            got = [x["id"] for x in r.json["data"]] if r.status == 200 and isinstance(r.json, dict) else None
            self.check(problems, got == expect, "errors_only=%s" % v, r)
        self.assertNoProblems(problems)

    def test_errors_only_other_values_are_422(self):
        u = self.owner()
        rid = self.stack.insert_run(u.id, "failed")
        problems = []
        for v in ("yes", "2", "TRUE1", "t", "-1", "null"):
            r = u.request("GET", self.run_path(rid, "/logs?errors_only=" + v))
            self.check(problems, r.status == 422 and isinstance(r.json, dict) and r.json.get("code") == "validation_failed"
                       and "errors_only" in (r.json.get("errors") or {}), "errors_only=%s" % v, r)
        self.assertNoProblems(problems)

    def test_logs_use_simple_pagination(self):
        u = self.owner()
        rid = self.stack.insert_run(u.id, "failed")
        ids = [i for i, _ in reversed(self._logs(rid))]
        r1 = u.request("GET", self.run_path(rid, "/logs?per_page=2"))
        self.assertStatus(r1, 200)
        self.assertEqual([x["id"] for x in r1.json["data"]], ids[:2], r1.describe())
        self.assertEqual((r1.json["meta"]["current_page"], r1.json["meta"]["per_page"]), (1, 2), r1.describe())
        self.assertIsNone(r1.json["links"]["prev"])
        self.assertIsInstance(r1.json["links"]["next"], str, r1.describe())
        r2 = u.request("GET", link_path(r1.json["links"]["next"]))
        self.assertStatus(r2, 200, "following links.next")
        self.assertEqual([x["id"] for x in r2.json["data"]], ids[2:4], r2.describe())
        self.assertEqual(r2.json["meta"]["current_page"], 2, r2.describe())
        r3 = u.request("GET", self.run_path(rid, "/logs?per_page=2&page=3"))
        self.assertEqual([x["id"] for x in r3.json["data"]], ids[4:], r3.describe())
        self.assertIsNone(r3.json["links"]["next"], r3.describe())
        r4 = u.request("GET", link_path(r3.json["links"]["prev"]))
        self.assertEqual([x["id"] for x in r4.json["data"]], ids[2:4], r4.describe())
        # errors_only survives following the links
        r5 = u.request("GET", self.run_path(rid, "/logs?errors_only=true&per_page=1"))
        r6 = u.request("GET", link_path(r5.json["links"]["next"]))
        self.assertEqual([x["level"] for x in r6.json["data"]], ["error"], r6.describe())

    def test_logs_default_per_page_is_20(self):
        u = self.owner()
        rid = self.stack.insert_run(u.id, "failed")
        self.stack.sql("INSERT INTO migration_run_logs (run_id, level, message, context, logged_at) VALUES "
                       + ", ".join("(%s, 'info', 'm%d', NULL, '2024-01-01 00:00:%02d')" % (q(rid), i, i)
                                   for i in range(25)))
        r = u.request("GET", self.run_path(rid, "/logs"))
        self.assertStatus(r, 200)
        self.assertEqual(len(r.json["data"]), 20, r.describe())
        self.assertEqual(r.json["data"][0]["message"], "m24")
        r = u.request("GET", self.run_path(rid, "/logs?per_page=100"))
        self.assertEqual(len(r.json["data"]), 25, r.describe())

    def test_logs_per_page_and_page_are_validated(self):
        u = self.owner()
        rid = self.stack.insert_run(u.id, "failed")
        problems = []
        for field, v in (("per_page", "0"), ("per_page", "101"), ("per_page", "x"), ("page", "0"), ("page", "x")):
            r = u.request("GET", self.run_path(rid, "/logs?%s=%s" % (field, v)))
            self.check(problems, r.status == 422 and isinstance(r.json, dict)
                       and field in (r.json.get("errors") or {}), "%s=%s" % (field, v), r)
        self.assertNoProblems(problems)

    def test_logs_of_unknown_foreign_or_malformed_run_are_404(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        foreign = s.insert_run(other.id, "failed")
        s.insert_logs(foreign, [("error", "secret stuff", None, "2024-01-01 00:00:00")])
        for rid in (str(uuid.uuid4()), foreign, "not-a-uuid"):
            r = u.request("GET", self.run_path(rid, "/logs"))
            self.assertError(r, 404, "not_found", msg=rid)
            self.assertNotIn("secret stuff", r.text)


# ==================================================================== start

class Endpoints_StartMigration(Base):
    """POST /api/v1/migrations."""

    def test_start_creates_a_pending_run_with_location_and_queues_discovery(self):
        s = self.stack
        u = self.owner()
        r = u.request("POST", MIG, body={"provider": "uptimerobot", "credentials": {"api_key": "k-123"}})
        self.assertStatus(r, 201)
        run = r.json.get("data")
        self.assertRunShape(run)
        self.assertEqual((run["provider"], run["status"]), ("uptimerobot", "pending"), run)
        self.assertEqual((run["total_resources"], run["failed_resources"]), (0, 0), run)
        self.assertIsNone(run["finished_at"], run)
        loc = r.header("Location")
        self.assertIsNotNone(loc, "no Location header\n  " + r.describe())
        self.assertEqual(urllib.parse.urlsplit(loc).path, "%s/%s" % (MIG, run["id"]), loc)
        r2 = u.request("GET", link_path(loc))
        self.assertStatus(r2, 200, "following Location")
        self.assertEqual(r2.json["data"]["id"], run["id"])
        row = s.sql_dicts("SELECT user_id, provider, status FROM migration_runs WHERE id=%s" % q(run["id"]))
        self.assertEqual(row, [{"user_id": str(u.id), "provider": "uptimerobot", "status": "pending"}])
        jobs = s.sql("SELECT queue FROM jobs WHERE run_id=%s" % q(run["id"]))
        self.assertEqual(jobs, [("discovery",)], "expected exactly one queued discovery job")
        self.assertNoHiddenKeys(r)

    def test_every_provider_is_accepted_with_its_required_credentials(self):
        pool = self.start_pool()
        problems = []
        for p in PROVIDERS:
            r = pool.post(body={"provider": p, "credentials": valid_credentials(p)})
            self.check(problems, r.status == 201 and isinstance(r.json, dict)
                       and r.json.get("data", {}).get("provider") == p, p, r)
        self.assertNoProblems(problems)

    def test_optional_credential_fields_are_accepted(self):
        pool = self.start_pool()
        problems = []
        for p in ("better_stack", "healthchecks", "statuspage", "whmcs"):
            r = pool.post(body={"provider": p, "credentials": valid_credentials(p, optional=True)})
            self.check(problems, r.status == 201, p, r)
        self.assertNoProblems(problems)

    def test_missing_required_credential_is_422_on_credentials_field(self):
        pool = self.start_pool()
        problems = []
        for p in PROVIDERS:
            req, _ = CREDENTIAL_FIELDS[p]
            for missing in req:
                creds = valid_credentials(p, optional=True)
                del creds[missing]
                r = pool.post(body={"provider": p, "credentials": creds})
                self.check(problems, r.status == 422 and isinstance(r.json, dict)
                           and r.json.get("code") == "validation_failed"
                           and ("credentials." + missing) in (r.json.get("errors") or {}),
                           "%s without %s" % (p, missing), r)
        r = pool.post(body={"provider": "whmcs", "credentials": {}})
        errs = (r.json or {}).get("errors") or {} if isinstance(r.json, dict) else {}
        self.check(problems, r.status == 422 and all("credentials." + f in errs for f in CREDENTIAL_FIELDS["whmcs"][0]),
                   "whmcs with {} must name all three missing fields", r)
        self.assertNoProblems(problems)
        self.assertEqual(pool.runs_created(), 0)

    def test_credentials_absent_is_422(self):
        pool = self.start_pool()
        r = pool.post(body={"provider": "uptimerobot"})
        self.assertStatus(r, 422)
        errs = (r.json or {}).get("errors") or {}
        self.assertTrue("credentials.api_key" in errs or "credentials" in errs, r.describe())
        self.assertEqual(pool.runs_created(), 0)

    def test_empty_required_credential_is_422(self):
        pool = self.start_pool()
        r = pool.post(body={"provider": "uptimerobot", "credentials": {"api_key": ""}})
        self.assertError(r, 422, "validation_failed", field="credentials.api_key")
        self.assertEqual(pool.runs_created(), 0)

    def test_non_string_credential_value_is_422_on_that_field(self):
        pool = self.start_pool()
        problems = []
        for v in (123, None, True, {"a": "b"}, ["k"]):
            r = pool.post(body={"provider": "uptimerobot", "credentials": {"api_key": v}})
            self.check(problems, r.status == 422 and "credentials.api_key" in ((r.json or {}).get("errors") or {}),
                       "api_key=%r" % (v,), r)
        r = pool.post(body={"provider": "statuspage", "credentials": {"api_key": "k", "page_id": 5}})
        self.check(problems, r.status == 422 and "credentials.page_id" in ((r.json or {}).get("errors") or {}),
                   "optional page_id=5", r)
        self.assertNoProblems(problems)
        self.assertEqual(pool.runs_created(), 0)

    def test_unknown_credential_field_is_422_on_that_field(self):
        pool = self.start_pool()
        problems = []
        for p, extra in (("uptimerobot", "api_token"), ("pingdom", "password"), ("whmcs", "team_name")):
            creds = valid_credentials(p)
            creds[extra] = "x"
            r = pool.post(body={"provider": p, "credentials": creds})
            self.check(problems, r.status == 422 and ("credentials." + extra) in ((r.json or {}).get("errors") or {}),
                       "%s with %s" % (p, extra), r)
        self.assertNoProblems(problems)
        self.assertEqual(pool.runs_created(), 0)

    def test_missing_unknown_or_non_string_provider_is_422_on_provider(self):
        pool = self.start_pool()
        problems = []
        for body in ({"credentials": {"api_key": "k"}}, {"provider": "bogus", "credentials": {"api_key": "k"}},
                     {"provider": "UptimeRobot", "credentials": {"api_key": "k"}},
                     {"provider": "uptimerobot ", "credentials": {"api_key": "k"}},
                     {"provider": "", "credentials": {"api_key": "k"}},
                     {"provider": 1, "credentials": {"api_key": "k"}},
                     {"provider": None, "credentials": {"api_key": "k"}},
                     {"provider": ["uptimerobot"], "credentials": {"api_key": "k"}}):
            r = pool.post(body=body)
            self.check(problems, r.status == 422 and isinstance(r.json, dict) and r.json.get("code") == "validation_failed"
                       and "provider" in (r.json.get("errors") or {}), json.dumps(body), r)
        self.assertNoProblems(problems)
        self.assertEqual(pool.runs_created(), 0)

    def test_credentials_not_an_object_is_422_on_credentials(self):
        pool = self.start_pool()
        problems = []
        for v in ("api_key=k", ["k"], 42, True):
            r = pool.post(body={"provider": "uptimerobot", "credentials": v})
            self.check(problems, r.status == 422 and "credentials" in ((r.json or {}).get("errors") or {}),
                       "credentials=%r" % (v,), r)
        self.assertNoProblems(problems)
        self.assertEqual(pool.runs_created(), 0)

    def test_body_that_is_json_but_not_an_object_is_422(self):
        pool = self.start_pool()
        problems = []
        for raw in ("[]", '["uptimerobot"]', '"uptimerobot"', "1", "null", "true"):
            r = pool.post(raw_body=raw)
            self.check(problems, r.status == 422 and isinstance(r.json, dict)
                       and r.json.get("code") == "validation_failed", "body %s" % raw, r)
        self.assertNoProblems(problems)
        self.assertEqual(pool.runs_created(), 0)

    def test_credentials_are_stored_encrypted_and_never_in_plaintext_anywhere(self):
        s = self.stack
        u = self.owner()
        secret = "PLAINTEXT-SECRET-%s" % uuid.uuid4().hex
        url_secret = "whmcs-secret-%s" % uuid.uuid4().hex
        r = u.request("POST", MIG, body={"provider": "uptimerobot", "credentials": {"api_key": secret}})
        self.assertStatus(r, 201)
        rid = r.json["data"]["id"]
        r2 = u.request("POST", MIG, body={"provider": "whmcs", "credentials": {
            "url": "http://127.0.0.1:9/whmcs", "api_identifier": "ident", "api_secret": url_secret}})
        self.assertStatus(r2, 201)
        row = s.sql_dicts("SELECT HEX(credentials) AS c, credentials_key_id AS k, "
                          "INSTR(credentials, %s) AS pos FROM migration_runs WHERE id=%s" % (q(secret), q(rid)))[0]
        self.assertTrue(row["c"], "credentials column is empty")
        self.assertEqual(row["pos"], "0", "plaintext api_key found in migration_runs.credentials")
        self.assertNotIn(secret.encode().hex().upper(), row["c"])
        self.assertGreaterEqual(len(row["c"]) // 2, len(secret) + 16, "ciphertext shorter than plaintext + tag")
        self.assertTrue(row["k"], "credentials_key_id not set")
        dump = s.dump_db()
        for sec in (secret, url_secret):
            self.assertNotIn(sec.encode(), dump, "plaintext credential found in the database dump")
        for w in s.webs.values():
            for path in w.log_files():
                with open(path, "rb") as f:
                    self.assertNotIn(secret.encode(), f.read(), "credential written to %s" % path)

    def test_credentials_are_never_returned(self):
        s = self.stack
        u = self.owner()
        secret = "NEVER-RETURNED-%s" % uuid.uuid4().hex
        r = u.request("POST", MIG, body={"provider": "uptimerobot", "credentials": {"api_key": secret}})
        self.assertStatus(r, 201)
        rid = r.json["data"]["id"]
        responses = [r, u.request("GET", MIG), u.request("GET", self.run_path(rid)),
                     u.request("GET", self.run_path(rid, "/logs")),
                     u.request("POST", self.run_path(rid, "/cancel"))]
        for x in responses:
            self.assertNotIn(secret, x.text, x.describe())
            self.assertFalse(find_keys(x.json, {"credentials", "api_key"}), x.describe())


class Limits_StartAttempts(Base):
    """5 start attempts per minute per user (every authenticated attempt counts);
    the 6th -> 429 discovery_rate_limited. On a Galera cluster (run.py --galera) attempt k goes to
    a web server on node k mod 3 (Stack.web_on_node)."""

    def setUp(self):
        for k in range(3):  # started here, not in a burst's threads
            self.stack.web_on_node(k)

    def test_sixth_start_attempt_in_a_minute_is_429_discovery_rate_limited(self):
        s = self.stack
        u = self.owner()
        wait_for_window(10)
        ok = {"provider": "uptimerobot", "credentials": {"api_key": "k"}}
        bad = {"provider": "bogus"}
        statuses = [u.request("POST", MIG, body=b, web=s.web_on_node(k)).status
                    for k, b in enumerate((ok, bad, ok, bad))]
        statuses.append(u.request("POST", MIG, raw_body='{"provider":', web=s.web_on_node(4)).status)
        self.assertEqual(statuses, [201, 422, 201, 422, 400])
        r = u.request("POST", MIG, body=ok, web=s.web_on_node(5))
        self.assertError(r, 429, "discovery_rate_limited")
        ra = r.header("Retry-After")
        self.assertTrue(ra and ra.isdigit() and 1 <= int(ra) <= 60, "Retry-After %r\n  %s" % (ra, r.describe()))
        r = u.request("POST", MIG, body=bad, web=s.web_on_node(6))
        self.assertError(r, 429, "discovery_rate_limited", msg="invalid attempts are limited too")
        self.assertEqual(s.count("migration_runs", "user_id=%d" % u.id), 2)
        self.assertStatus(u.request("GET", MIG), 200, "other endpoints are not affected")
        other = self.owner()
        self.assertStatus(other.request("POST", MIG, body=ok), 201, "another user is not affected")

    def test_concurrent_start_attempts_allow_exactly_5(self):
        u = self.owner()
        wait_for_window(10)
        ok = {"provider": "cronitor", "credentials": {"api_key": "k"}}
        rs = burst(12, lambda i: u.request("POST", MIG, body=ok, web=self.stack.web_on_node(i)), workers=12)
        codes = sorted(r.status for r in rs)
        self.assertEqual(codes, [201] * 5 + [429] * 7, [r.describe() for r in rs if r.status not in (201, 429)][:1])
        self.assertEqual(self.stack.count("migration_runs", "user_id=%d" % u.id), 5)

    def test_start_limit_is_per_user_shared_by_all_its_tokens(self):
        u = self.owner()
        t2 = u.new_token()
        wait_for_window(10)
        ok = {"provider": "pingdom", "credentials": {"api_token": "t"}}
        web = self.stack.web_on_node
        st = [u.request("POST", MIG, body=ok, web=web(k)).status for k in range(3)]
        st += [self.stack.request("POST", MIG, token=t2, body=ok, web=web(k)).status for k in range(3, 5)]
        self.assertEqual(st, [201] * 5)
        r = self.stack.request("POST", MIG, token=t2, body=ok, web=web(5))
        self.assertError(r, 429, "discovery_rate_limited")
        r = u.request("POST", MIG, body=ok, web=web(6))
        self.assertError(r, 429, "discovery_rate_limited")


# ================================================================== execute

class Endpoints_Execute(Base):
    """POST /api/v1/migrations/{run}/execute."""

    def test_execute_from_awaiting_review_is_202_and_queues_planning(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "awaiting_review")
        r = u.request("POST", self.run_path(rid, "/execute"))
        self.assertStatus(r, 202)
        b = self.assertJsonObject(r)
        self.assertIsInstance(b.get("message"), str, r.describe())
        self.assertEqual(b.get("data"), {"id": rid, "status": "executing"}, r.describe())
        self.assertEqual(s.run_status(rid), "executing")
        self.assertEqual(s.sql("SELECT queue FROM jobs WHERE run_id=%s" % q(rid)), [("planning",)])

    def test_execute_from_any_other_state_is_422_run_not_awaiting_review(self):
        s = self.stack
        u = self.owner()
        problems = []
        for st in RUN_STATES:
            if st == "awaiting_review":
                continue
            rid = s.insert_run(u.id, st)
            r = u.request("POST", self.run_path(rid, "/execute"))
            self.check(problems, r.status == 422 and isinstance(r.json, dict)
                       and r.json.get("code") == "run_not_awaiting_review"
                       and isinstance(r.json.get("message"), str), st, r)
            self.check(problems, s.run_status(rid) == st, "%s: status changed to %s" % (st, s.run_status(rid)))
            self.check(problems, s.count("jobs", "run_id=%s" % q(rid)) == 0, "%s: a job was queued" % st)
        self.assertNoProblems(problems)

    def test_concurrent_executes_on_one_run_exactly_one_succeeds(self):
        s = self.stack
        u = self.owner()
        for attempt in range(3):
            rid = s.insert_run(u.id, "awaiting_review")
            rs = burst(10, lambda i: u.request("POST", self.run_path(rid, "/execute")), workers=10)
            codes = sorted(r.status for r in rs)
            self.assertEqual(codes, [202] + [422] * 9, "round %d: %s" % (attempt, [r.describe() for r in rs if r.status not in (202, 422)][:1]))
            self.assertTrue(all(r.json.get("code") == "run_not_awaiting_review" for r in rs if r.status == 422))
            self.assertEqual(s.count("jobs", "run_id=%s AND queue='planning'" % q(rid)), 1)

    def test_execute_unknown_or_foreign_run_is_404(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        foreign = s.insert_run(other.id, "awaiting_review")
        for rid in (str(uuid.uuid4()), foreign, "not-a-uuid"):
            self.assertError(u.request("POST", self.run_path(rid, "/execute")), 404, "not_found", msg=rid)
        self.assertEqual(s.run_status(foreign), "awaiting_review")
        self.assertEqual(s.count("jobs", "run_id=%s" % q(foreign)), 0)


# ============================================================= retry-failed

class Endpoints_RetryFailed(Base):
    """POST /api/v1/migrations/{run}/retry-failed."""

    def _run_with_failures(self, user, status="completed_with_errors", failed=3):
        s = self.stack
        rid = s.insert_run(user.id, status)
        ok = s.insert_resources(rid, 2, status="imported", attempts=1)
        skipped = s.insert_resources(rid, 1, status="skipped", action="skip")
        bad = s.insert_resources(rid, failed, status="failed", attempts=3, error_message="boom") if failed else []
        return rid, ok, skipped, bad

    def test_retry_counts_the_failed_resources_and_queues_one_job_for_them(self):
        """The request writes a bounded number of rows however many failed (issue 27.6): the run
        goes to executing and one resources job is queued, up to the last failed id; the runner sets
        them pending in batches and imports them (test_bounded.py)."""
        s = self.stack
        u = self.owner()
        rid, ok, skipped, bad = self._run_with_failures(u)
        r = u.request("POST", self.run_path(rid, "/retry-failed"))
        self.assertStatus(r, 202)
        b = self.assertJsonObject(r)
        self.assertEqual(b.get("message"), "Retrying 3 failed resources.", r.describe())
        self.assertTrue(is_int(b.get("retried")), r.describe())
        self.assertEqual(b["retried"], 3, r.describe())
        self.assertEqual(b["data"]["status"], "executing", r.describe())
        st = dict((int(i), v) for i, v in s.sql("SELECT id, status FROM migration_run_resources WHERE run_id=%s" % q(rid)))
        self.assertEqual([st[i] for i in bad], ["failed"] * 3, "until the runner sets them pending")
        self.assertEqual([st[i] for i in ok], ["imported"] * 2)
        self.assertEqual([st[i] for i in skipped], ["skipped"])
        jobs = s.sql("SELECT resource_id, payload FROM jobs WHERE run_id=%s" % q(rid))
        self.assertEqual(jobs, [(None, '{"retry":{"after":0,"last":%d,"done":0}}' % max(bad))])
        self.assertEqual(s.run_status(rid), "executing", "design §4: retry-failed -> executing")

    def test_retry_is_allowed_from_failed_and_executing_runs(self):
        u = self.owner()
        for status in ("failed", "executing"):
            rid, _, _, bad = self._run_with_failures(u, status=status, failed=1)
            r = u.request("POST", self.run_path(rid, "/retry-failed"))
            self.assertStatus(r, 202, status)
            self.assertEqual(r.json.get("retried"), 1, r.describe())

    def test_retry_without_failed_resources_is_422_no_failed_resources(self):
        s = self.stack
        u = self.owner()
        for status in ("completed", "completed_with_errors", "executing"):
            rid, _, _, _ = self._run_with_failures(u, status=status, failed=0)
            r = u.request("POST", self.run_path(rid, "/retry-failed"))
            self.assertError(r, 422, "no_failed_resources", msg=status)
            self.assertEqual(s.run_status(rid), status)
        empty = s.insert_run(u.id, "completed")
        self.assertError(u.request("POST", self.run_path(empty, "/retry-failed")), 422, "no_failed_resources")

    def test_the_run_list_counts_stay_exact_as_the_run_changes_state(self):
        """A run keeps its totals while they cannot change (sql/009): the
        statement that moves it there counts them; a retry while awaiting review
        changes them without a change of state."""
        s = self.stack
        u = self.owner()

        def listed(rid):
            r = u.request("GET", "/api/v1/migrations?per_page=100")
            self.assertStatus(r, 200)
            row = [d for d in r.json["data"] if d["id"] == rid][0]
            got = (row["total_resources"], row["failed_resources"])
            d = u.request("GET", self.run_path(rid)).json["data"]
            self.assertEqual(got, (d["total_resources"], d["failed_resources"]), "list and detail differ")
            return got

        rid, _, _, _ = self._run_with_failures(u, status="executing", failed=2)
        self.assertEqual(listed(rid), (5, 2))
        # a state set by hand keeps no totals: the list counts live
        s.sql("UPDATE migration_runs SET status = 'completed_with_errors' WHERE id = %s" % q(rid))
        self.assertEqual(listed(rid), (5, 2))
        self.assertStatus(u.request("POST", self.run_path(rid, "/retry-failed")), 202)
        self.assertEqual(listed(rid), (5, 2), "failed until the runner sets them pending")
        s.sql("UPDATE migration_run_resources SET status = 'pending' WHERE run_id = %s AND status = 'failed'"
              % q(rid))  # what the runner does then (test_bounded.py)
        s.sql("DELETE FROM jobs WHERE run_id = %s" % q(rid))
        self.assertEqual(listed(rid), (5, 0))
        s.insert_resources(rid, 1, status="failed")  # the import fails one more while executing
        self.assertEqual(listed(rid), (6, 1))
        s.sql("UPDATE migration_runs SET status = 'completed_with_errors' WHERE id = %s" % q(rid))
        self.assertEqual(listed(rid), (6, 1))
        review, _, _, _ = self._run_with_failures(u, status="paused_conflicts", failed=1)
        s.sql("UPDATE migration_runs SET status = 'awaiting_review' WHERE id = %s" % q(review))
        self.assertEqual(listed(review), (4, 1))
        self.assertStatus(u.request("POST", self.run_path(review, "/retry-failed")), 202)
        self.assertEqual(s.run_status(review), "awaiting_review")
        self.assertEqual(listed(review), (4, 1), "failed until the runner sets it pending")
        # the runner's retry job sets it pending and counts the kept totals again; the state stays
        s.sql("DELETE FROM jobs WHERE run_id <> %s" % q(review))
        p = harness.run_runner_config(s, s.write_config("rest-runner"), "--once", "--max-jobs", "1")
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        self.assertEqual(s.run_status(review), "awaiting_review")
        self.assertEqual(s.count("jobs", "run_id=%s" % q(review)), 0)
        self.assertEqual(listed(review), (4, 0))
        self.assertStatus(u.request("POST", self.run_path(review, "/cancel")), 200)
        self.assertEqual(s.sql("SELECT total_resources, failed_resources FROM migration_runs WHERE id = %s"
                               % q(review)), [("4", "0")], "the cancel stored the totals")
        self.assertEqual(listed(review), (4, 0))
        s.insert_resources(review, 2, status="failed")  # never done to a cancelled run: the kept totals show
        r = u.request("GET", "/api/v1/migrations?per_page=100")
        row = [d for d in r.json["data"] if d["id"] == review][0]
        self.assertEqual((row["total_resources"], row["failed_resources"]), (4, 0), "the list reads the kept totals")

    def test_retry_on_a_cancelled_run_is_409_run_cancelled(self):
        s = self.stack
        u = self.owner()
        rid, _, _, bad = self._run_with_failures(u, status="cancelled")
        r = u.request("POST", self.run_path(rid, "/retry-failed"))
        self.assertError(r, 409, "run_cancelled")
        self.assertEqual(s.count("migration_run_resources", "run_id=%s AND status='failed'" % q(rid)), len(bad))
        self.assertEqual(s.count("jobs", "run_id=%s" % q(rid)), 0)
        self.assertEqual(s.run_status(rid), "cancelled")

    def test_concurrent_retries_exactly_one_succeeds(self):
        s = self.stack
        u = self.owner()
        rid, _, _, bad = self._run_with_failures(u, failed=4)
        rs = burst(8, lambda i: u.request("POST", self.run_path(rid, "/retry-failed")), workers=8)
        codes = sorted(r.status for r in rs)
        self.assertEqual(codes, [202] + [422] * 7, [r.describe() for r in rs if r.status != 422][:2])
        self.assertEqual([r.json.get("retried") for r in rs if r.status == 202], [4])
        res = [int(j[0]) for j in s.sql("SELECT resource_id FROM jobs WHERE run_id=%s AND queue='resources' "
                                         "AND resource_id IS NOT NULL" % q(rid))]
        self.assertEqual(len(res), len(set(res)), "duplicate resource jobs after concurrent retries")

    def test_retry_unknown_or_foreign_run_is_404(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        foreign, _, _, bad = self._run_with_failures(other)
        for rid in (str(uuid.uuid4()), foreign, "not-a-uuid"):
            self.assertError(u.request("POST", self.run_path(rid, "/retry-failed")), 404, "not_found", msg=rid)
        self.assertEqual(s.count("migration_run_resources", "run_id=%s AND status='failed'" % q(foreign)), len(bad))


# =================================================================== delete

class Endpoints_Delete(Base):
    """DELETE /api/v1/migrations/{run}."""

    def test_delete_is_204_and_removes_run_resources_logs_and_jobs(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "executing", credentials=b"sealed", credentials_key_id="k1")
        res = s.insert_resources(rid, 3, status="pending")
        s.insert_logs(rid, [("info", "x", None, "2024-01-01 00:00:00")] * 2)
        s.insert_job(rid, "planning")
        s.insert_job(rid, "resources", res[0])
        keep = s.insert_run(u.id, "executing")
        s.insert_resources(keep, 1)
        s.insert_job(keep, "resources")
        r = u.request("DELETE", self.run_path(rid))
        self.assertStatus(r, 204)
        self.assertEqual(r.body, b"", r.describe())
        for table, col in (("migration_runs", "id"), ("migration_run_resources", "run_id"),
                           ("migration_run_logs", "run_id"), ("jobs", "run_id")):
            self.assertEqual(s.count(table, "%s=%s" % (col, q(rid))), 0, "%s rows left" % table)
        self.assertEqual(s.count("migration_run_resources", "run_id=%s" % q(keep)), 1, "other run touched")
        self.assertEqual(s.count("jobs", "run_id=%s" % q(keep)), 1, "other run's job touched")
        self.assertError(u.request("GET", self.run_path(rid)), 404, "not_found")
        self.assertError(u.request("DELETE", self.run_path(rid)), 404, "not_found", msg="second delete")

    def test_delete_works_in_every_state(self):
        s = self.stack
        u = self.owner()
        problems = []
        for st in RUN_STATES:
            rid = s.insert_run(u.id, st)
            r = u.request("DELETE", self.run_path(rid))
            self.check(problems, r.status == 204 and s.count("migration_runs", "id=%s" % q(rid)) == 0, st, r)
        self.assertNoProblems(problems)

    def test_delete_of_a_started_run_removes_its_discovery_job(self):
        s = self.stack
        u = self.owner()
        r = u.request("POST", MIG, body={"provider": "updown", "credentials": {"api_key": "k"}})
        self.assertStatus(r, 201)
        rid = r.json["data"]["id"]
        self.assertStatus(u.request("DELETE", self.run_path(rid)), 204)
        self.assertEqual(s.count("jobs", "run_id=%s" % q(rid)), 0)
        self.assertEqual(s.count("migration_runs", "id=%s" % q(rid)), 0)

    def test_delete_unknown_or_foreign_run_is_404_and_deletes_nothing(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        foreign = s.insert_run(other.id, "completed")
        s.insert_resources(foreign, 2)
        for rid in (str(uuid.uuid4()), foreign, "not-a-uuid", "%25"):
            self.assertError(u.request("DELETE", self.run_path(rid)), 404, "not_found", msg=rid)
        self.assertEqual(s.count("migration_runs", "id=%s" % q(foreign)), 1)
        self.assertEqual(s.count("migration_run_resources", "run_id=%s" % q(foreign)), 2)


# =================================================================== cancel

class Endpoints_Cancel(Base):
    """POST /api/v1/migrations/{run}/cancel (design §4 extension)."""

    def test_cancel_from_a_cancellable_state_is_200_with_the_cancelled_run(self):
        s = self.stack
        u = self.owner()
        problems = []
        for st in CANCELLABLE:
            rid = s.insert_run(u.id, st)
            r = u.request("POST", self.run_path(rid, "/cancel"))
            ok = r.status == 200 and isinstance(r.json, dict) and isinstance(r.json.get("message"), str)
            self.check(problems, ok, "cancel from %s" % st, r)
            if ok:
                run = r.json.get("data")
                pr = run_problems(run)
                self.check(problems, not pr, "cancel from %s: %s" % (st, pr), r)
                self.check(problems, isinstance(run, dict) and run.get("id") == rid and run.get("status") == "cancelled",
                           "cancel from %s: data is not the cancelled run" % st, r)
            self.check(problems, s.run_status(rid) == "cancelled", "%s: DB status %s" % (st, s.run_status(rid)))
        self.assertNoProblems(problems)

    def test_cancel_from_a_final_state_is_409_run_not_cancellable(self):
        s = self.stack
        u = self.owner()
        problems = []
        for st in FINAL:
            rid = s.insert_run(u.id, st)
            r = u.request("POST", self.run_path(rid, "/cancel"))
            self.check(problems, r.status == 409 and isinstance(r.json, dict)
                       and r.json.get("code") == "run_not_cancellable", st, r)
            self.check(problems, s.run_status(rid) == st, "%s changed to %s" % (st, s.run_status(rid)))
        self.assertNoProblems(problems)

    def test_cancelled_run_cannot_be_executed(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "awaiting_review")
        self.assertStatus(u.request("POST", self.run_path(rid, "/cancel")), 200)
        self.assertError(u.request("POST", self.run_path(rid, "/execute")), 422, "run_not_awaiting_review")
        self.assertEqual(s.run_status(rid), "cancelled")

    def test_cancel_unknown_or_foreign_run_is_404(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        foreign = s.insert_run(other.id, "executing")
        for rid in (str(uuid.uuid4()), foreign, "not-a-uuid"):
            self.assertError(u.request("POST", self.run_path(rid, "/cancel")), 404, "not_found", msg=rid)
        self.assertEqual(s.run_status(foreign), "executing")


# ======================================================== resolve-conflicts

class Endpoints_ResolveConflicts(Base):
    """POST /api/v1/migrations/{run}/resolve-conflicts (design §4 extension)."""

    def _paused(self, user, conflicts=3):
        s = self.stack
        rid = s.insert_run(user.id, "paused_conflicts")
        done = s.insert_resources(rid, 2, status="imported")
        c = s.insert_resources(rid, conflicts, status="conflict", action="conflict")
        return rid, done, c

    def _resolutions(self, rid):
        return {int(i): (st, res) for i, st, res in self.stack.sql(
            "SELECT id, status, resolution FROM migration_run_resources WHERE run_id=%s" % q(rid))}

    def test_resolving_every_conflict_returns_the_run_to_awaiting_review(self):
        s = self.stack
        u = self.owner()
        rid, done, c = self._paused(u)
        r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), body={"strategy": "skip"})
        self.assertStatus(r, 200)
        b = self.assertJsonObject(r)
        self.assertIsInstance(b.get("message"), str, r.describe())
        self.assertEqual(b.get("resolved"), 3, r.describe())
        self.assertTrue(is_int(b.get("resolved")))
        self.assertEqual(b.get("data"), {"id": rid, "status": "awaiting_review"}, r.describe())
        self.assertEqual(s.run_status(rid), "awaiting_review")
        res = self._resolutions(rid)
        self.assertEqual([res[i][1] for i in c], ["skip"] * 3, res)
        self.assertTrue(all(res[i][0] != "conflict" for i in c), res)
        self.assertEqual([res[i] for i in done], [("imported", None)] * 2, res)

    def test_resolving_some_conflicts_keeps_the_run_paused_until_the_last(self):
        s = self.stack
        u = self.owner()
        rid, _, c = self._paused(u)
        r = u.request("POST", self.run_path(rid, "/resolve-conflicts"),
                      body={"strategy": "overwrite", "resource_ids": [c[0]]})
        self.assertStatus(r, 200)
        self.assertEqual((r.json.get("resolved"), r.json.get("data")), (1, {"id": rid, "status": "paused_conflicts"}),
                         r.describe())
        self.assertEqual(s.run_status(rid), "paused_conflicts")
        res = self._resolutions(rid)
        self.assertEqual((res[c[0]][1], res[c[1]], res[c[2]]), ("overwrite", ("conflict", None), ("conflict", None)), res)
        r = u.request("POST", self.run_path(rid, "/resolve-conflicts"),
                      body={"strategy": "duplicate", "resource_ids": c[1:]})
        self.assertStatus(r, 200)
        self.assertEqual((r.json.get("resolved"), r.json.get("data")), (2, {"id": rid, "status": "awaiting_review"}),
                         r.describe())
        self.assertEqual(s.run_status(rid), "awaiting_review")
        self.assertEqual(self._resolutions(rid)[c[2]][1], "duplicate")

    def test_resource_ids_of_other_runs_or_non_conflicts_are_not_touched(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        rid, done, c = self._paused(u, conflicts=1)
        mine2, _, c2 = self._paused(u, conflicts=1)
        foreign, _, fc = self._paused(other, conflicts=1)
        # ids that are not this run's: a 422 on resource_ids, and nothing is touched
        for bad in (fc[0], c2[0], 999999999):
            r = u.request("POST", self.run_path(rid, "/resolve-conflicts"),
                          body={"strategy": "skip", "resource_ids": [c[0], bad]})
            self.assertError(r, 422, "validation_failed")
            self.assertIn("resource_ids", r.json["errors"])
            self.assertIn("%d is not a resource of this run" % bad, r.json["errors"]["resource_ids"][0])
        self.assertEqual(self._resolutions(rid)[c[0]], ("conflict", None))
        # this run's resources that are not in conflict are left alone
        r = u.request("POST", self.run_path(rid, "/resolve-conflicts"),
                      body={"strategy": "skip", "resource_ids": [done[0]]})
        self.assertStatus(r, 200)
        self.assertEqual(r.json.get("resolved"), 0, r.describe())
        self.assertEqual(self._resolutions(foreign)[fc[0]], ("conflict", None), "another user's resource resolved")
        self.assertEqual(self._resolutions(mine2)[c2[0]], ("conflict", None), "another run's resource resolved")
        self.assertEqual(self._resolutions(rid)[done[0]], ("imported", None))
        self.assertEqual((s.run_status(rid), s.run_status(foreign)), ("paused_conflicts", "paused_conflicts"))

    def test_bad_or_missing_strategy_is_422_on_strategy(self):
        s = self.stack
        u = self.owner()
        rid, _, c = self._paused(u)
        problems = []
        for body in ({}, {"strategy": "ignore"}, {"strategy": "SKIP"}, {"strategy": ""}, {"strategy": 1},
                     {"strategy": None}, {"strategy": ["skip"]}):
            r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), body=body)
            self.check(problems, r.status == 422 and isinstance(r.json, dict) and r.json.get("code") == "validation_failed"
                       and "strategy" in (r.json.get("errors") or {}), json.dumps(body), r)
        r = u.request("POST", self.run_path(rid, "/resolve-conflicts"))
        self.check(problems, r.status == 422 and "strategy" in (((r.json or {}).get("errors")) or {}), "no body", r)
        self.assertNoProblems(problems)
        self.assertEqual(s.run_status(rid), "paused_conflicts")
        self.assertEqual(s.count("migration_run_resources", "run_id=%s AND status='conflict'" % q(rid)), 3)

    def test_bad_resource_ids_are_422(self):
        u = self.owner()
        rid, _, c = self._paused(u)
        problems = []
        for ids in ("1,2", [str(c[0])], [1.5], {"a": 1}, [None], 5):
            r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), body={"strategy": "skip", "resource_ids": ids})
            errs = ((r.json or {}).get("errors") or {}) if isinstance(r.json, dict) else {}
            self.check(problems, r.status == 422 and any(k.startswith("resource_ids") for k in errs),
                       "resource_ids=%r" % (ids,), r)
        self.assertNoProblems(problems)
        self.assertEqual(self.stack.run_status(rid), "paused_conflicts")

    def test_outside_paused_conflicts_is_422_run_not_paused(self):
        s = self.stack
        u = self.owner()
        problems = []
        for st in RUN_STATES:
            if st == "paused_conflicts":
                continue
            rid = s.insert_run(u.id, st)
            s.insert_resources(rid, 1, status="conflict", action="conflict")
            r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), body={"strategy": "skip"})
            self.check(problems, r.status == 422 and isinstance(r.json, dict) and r.json.get("code") == "run_not_paused",
                       st, r)
            self.check(problems, s.run_status(rid) == st and
                       s.count("migration_run_resources", "run_id=%s AND status='conflict'" % q(rid)) == 1,
                       "%s: run or resources changed" % st)
        self.assertNoProblems(problems)

    def test_resolve_unknown_or_foreign_run_is_404(self):
        s = self.stack
        u = self.owner()
        other = self.owner()
        foreign, _, fc = self._paused(other)
        for rid in (str(uuid.uuid4()), foreign, "not-a-uuid"):
            r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), body={"strategy": "skip"})
            self.assertError(r, 404, "not_found", msg=rid)
        self.assertEqual(s.run_status(foreign), "paused_conflicts")
        self.assertEqual(s.count("migration_run_resources", "run_id=%s AND status='conflict'" % q(foreign)), 3)


# ======================================================================= me

class Endpoints_Me(Base):
    """GET /api/v1/me."""

    def test_me_returns_the_token_owner_and_the_token_scopes(self):
        u = self.owner(["account:read", "infra:write", "mcp:use"])
        other_token = u.new_token(["alerting:delete"])
        r = u.request("GET", API + "/me")
        self.assertStatus(r, 200)
        d = r.json.get("data")
        self.assertTrue({"id", "name", "email", "scopes"} <= set(d), d)
        self.assertTrue(is_int(d["id"]), d)
        self.assertEqual((d["id"], d["name"], d["email"]), (u.id, u.name, u.email), d)
        self.assertEqual(sorted(d["scopes"]), sorted(["account:read", "infra:write", "mcp:use"]), d)
        r = self.req("GET", API + "/me", token=other_token)
        self.assertEqual(r.json["data"]["scopes"], ["alerting:delete"], r.describe())
        self.assertNoHiddenKeys(r)
        self.assertNotIn(u.token.split("|")[1], r.text)

    def test_me_without_valid_token_is_401_with_message(self):
        r = self.req("GET", API + "/me")
        self.assertError(r, 401, "unauthenticated")
        r = self.req("GET", API + "/me", token="x|y")
        self.assertError(r, 401, "unauthenticated")


class Security_SqlMetacharacters(Base):
    """SQL metacharacters in every field a client sends: each is a value, never SQL. Enum and number
    fields refuse them with a 422 naming the field, the run id in the path is a 404, the search text
    matches literally, credentials are stored sealed as given, and nothing else in the database moves."""

    PAYLOADS = ["'", '"', "\\", "`", "%", "_", "' OR '1'='1", "1; DROP TABLE users; --", "\\' OR 1=1 #",
                "x' UNION SELECT token_hash FROM personal_access_tokens --", "é'%_\\"]

    def snapshot(self):
        s = self.stack
        return {t: s.count(t, "1") for t in ("users", "personal_access_tokens", "migration_runs",
                                             "migration_run_resources", "jobs", "feature_flags")}

    @staticmethod
    def grown(before, pool):
        """before, plus the start pool's fresh users and their tokens."""
        return dict(before, users=before["users"] + len(pool.users),
                    personal_access_tokens=before["personal_access_tokens"] + len(pool.users))

    def test_every_field_takes_metacharacters_as_plain_values(self):
        s = self.stack
        u = self.owner()
        rid = s.insert_run(u.id, "paused_conflicts")
        names = ["plain monitor"] + ["monitor %s end" % p for p in self.PAYLOADS]
        for name in names:
            s.insert_resources(rid, 1, status="conflict", action="conflict", name=name)
        pool = self.start_pool()
        problems = []
        before = self.snapshot()
        for p in self.PAYLOADS:
            enc = urllib.parse.quote(p, safe="")
            for field in ("status", "provider", "page", "per_page"):
                r = u.request("GET", "%s?%s=%s" % (MIG, field, enc))
                self.check(problems, r.status == 422 and field in (r.json or {}).get("errors", {}),
                           "list %s=%r: expected 422 on %s" % (field, p, field), r)
            for field in ("status", "resource_type", "action"):
                r = u.request("GET", self.run_path(rid, "/resources?%s=%s" % (field, enc)))
                self.check(problems, r.status == 422 and field in (r.json or {}).get("errors", {}),
                           "resources %s=%r: expected 422 on %s" % (field, p, field), r)
            r = u.request("GET", self.run_path(rid, "/resources?per_page=100&q=" + enc))
            want = sorted(n for n in names if p in n)
            got = sorted(x["name"] for x in (r.json or {}).get("data", []))
            self.check(problems, r.status == 200 and got == want, "search %r: expected %r, got %r" % (p, want, got), r)
            for suffix in ("", "/logs", "/resources", "/execute", "/cancel"):
                method = "POST" if suffix in ("/execute", "/cancel") else "GET"
                r = u.request(method, "%s/%s%s" % (MIG, enc, suffix))
                self.check(problems, r.status == 404 and (r.json or {}).get("code") == "not_found",
                           "%s run id %r%s: expected 404" % (method, p, suffix), r)
            r = u.request("POST", self.run_path(rid, "/resolve-conflicts"), body={"strategy": p})
            self.check(problems, r.status == 422 and "strategy" in (r.json or {}).get("errors", {}),
                       "strategy %r: expected 422" % p, r)
            r = pool.post(body={"provider": p, "credentials": {"api_key": "k"}})
            self.check(problems, r.status == 422 and "provider" in (r.json or {}).get("errors", {}),
                       "provider %r: expected 422" % p, r)
        self.assertNoProblems(problems)
        self.assertEqual(self.snapshot(), self.grown(before, pool), "the database changed")
        self.assertEqual(s.run_status(rid), "paused_conflicts")
        # A credential made of metacharacters is a valid string: stored sealed, the run starts.
        secret = "k'%_\\\"; DROP TABLE users; -- " + s.unique("")
        r = pool.post(body={"provider": "uptimerobot", "credentials": {"api_key": secret}})
        self.assertStatus(r, 201)
        after = self.grown(before, pool)
        after.update(migration_runs=after["migration_runs"] + 1, jobs=after["jobs"] + 1)
        self.assertEqual(self.snapshot(), after)
        self.assertNotIn(secret.encode(), s.dump_db())


class ReviewPage(Base):
    """The review page beside the API (web/migrator/), as the web server serves it."""

    def test_the_page_is_served_with_a_strict_content_security_policy(self):
        for path in ("/migrator/", "/migrator/app.js", "/migrator/app.css"):
            r = self.req("GET", path)
            self.assertStatus(r, 200, path)
            self.assertEqual(r.header("Content-Security-Policy"), shipped_csp(), path)
            self.assertEqual(r.header("X-Content-Type-Options"), "nosniff", path)
        r = self.req("GET", "/migrator/")
        self.assertTrue(r.header("Content-Type").startswith("text/html"), r.header("Content-Type"))
        self.assertIn('<script src="app.js" defer></script>', r.text)
        self.assertNotIn("<script>", r.text, "no inline script (the CSP forbids it)")


# ============================================================== hidden data

class DataNeverReturned(Base):
    """spec 'Data never returned': credentials, checkpoint, plan, discovery
    summary internals, credentials_purge_at, external_data, normalized_data,
    target_model, target_id (and credentials_key_id)."""

    MARK = "MRK%s" % uuid.uuid4().hex[:10]
    TARGET_ID = 987654321012

    def _marked_run(self, user, status):
        s = self.stack
        m = self.MARK
        rid = s.insert_run(user.id, status, checkpoint="CKPT-" + m, plan=json.dumps({"p": "PLAN-" + m}),
                           credentials=("CRED-" + m).encode(),
                           credentials_key_id="KEY-" + m[:20], credentials_purge_at="2031-02-03 04:05:06",
                           stats=json.dumps({"imported": 1}))
        st = {"completed_with_errors": "failed", "paused_conflicts": "conflict"}.get(status, "imported")
        s.insert_resources(rid, 2, status=st, action="conflict" if st == "conflict" else "create",
                           external_data=json.dumps({"x": "EXT-" + m}), normalized_data=json.dumps({"y": "NORM-" + m}),
                           target_model="TMODEL-" + m, target_id=self.TARGET_ID)
        s.insert_logs(rid, [("info", "log line", {"k": 1}, "2024-01-01 00:00:00")])
        return rid

    def test_hidden_fields_and_their_values_appear_in_no_response(self):
        u = self.owner()
        runs = {st: self._marked_run(u, st) for st in
                ("awaiting_review", "completed_with_errors", "paused_conflicts", "pending")}
        rid = runs["awaiting_review"]
        responses = [
            u.request("GET", MIG),
            u.request("GET", MIG + "?status=awaiting_review"),
            u.request("GET", self.run_path(rid)),
            u.request("GET", self.run_path(rid, "/logs")),
            u.request("POST", self.run_path(runs["pending"], "/cancel")),
            u.request("POST", self.run_path(runs["completed_with_errors"], "/retry-failed")),
            u.request("POST", self.run_path(runs["paused_conflicts"], "/resolve-conflicts"), body={"strategy": "skip"}),
            u.request("POST", self.run_path(rid, "/execute")),
            u.request("GET", self.run_path(rid)),
        ]
        problems = []
        for r in responses:
            self.check(problems, 200 <= r.status < 300, "request failed", r)
            keys = find_keys(r.json, set(HIDDEN_KEYS))
            self.check(problems, not keys, "hidden keys %s" % keys, r)
            for needle in (self.MARK, "2031-02-03", str(self.TARGET_ID)):
                self.check(problems, needle not in r.text, "hidden value %r returned" % needle, r)
        self.assertNoProblems(problems)


# ============================================================ request rate

class Limits_RequestRate(Base):
    """240 requests per minute per token by default (per IP without a valid
    token), counted in the database across FastCGI processes and servers.
    These tests use extra web servers whose config leaves [limits] default."""

    def _servers(self):
        return self.stack.web_with_default_limits("default"), self.stack.web_with_default_limits("default2")

    def _assert_429(self, r, code="rate_limited", limit="240", msg=None):
        self.assertError(r, 429, code, msg=msg)
        self.assertEqual(r.header("X-RateLimit-Limit"), limit, r.describe())
        self.assertEqual(r.header("X-RateLimit-Remaining"), "0", r.describe())
        ra = r.header("Retry-After")
        self.assertTrue(ra is not None and ra.isdigit() and 1 <= int(ra) <= 60, "Retry-After %r\n  %s" % (ra, r.describe()))

    def test_default_limit_is_240_per_token_and_holds_across_processes_and_servers(self):
        a, b = self._servers()
        u = self.owner(["account:read"])
        wait_for_window(25)
        first = [u.request("GET", API + "/me", web=a) for _ in range(3)]
        for i, r in enumerate(first):
            self.assertStatus(r, 200)
            self.assertEqual(r.header("X-RateLimit-Limit"), "240", r.describe())
            self.assertEqual(r.header("X-RateLimit-Remaining"), str(239 - i), r.describe())
        rs = burst(240, lambda i: u.request("GET", MIG if i % 3 else API + "/me", web=a if i % 2 else b), workers=8)
        ok = [r for r in rs if r.status == 200]
        limited = [r for r in rs if r.status == 429]
        other = [r for r in rs if r.status not in (200, 429)]
        self.assertFalse(other, other[:1])
        self.assertEqual((len(ok), len(limited)), (237, 3),
                         "240 allowed per token per minute across 2 servers x 2 processes")
        self.assertIn("0", [r.header("X-RateLimit-Remaining") for r in ok], "no success reported Remaining 0")
        for r in ok:
            rem = r.header("X-RateLimit-Remaining")
            self.assertTrue(rem is not None and rem.isdigit() and int(rem) <= 236, r.describe())
        for r in limited:
            self._assert_429(r)
        self._assert_429(u.request("GET", MIG, web=a), msg="the 244th request")
        self._assert_429(u.request("GET", API + "/me", web=b), msg="/me is limited too")
        fresh = u.new_token(["account:read"])
        r = self.stack.request("GET", MIG, token=fresh, web=a)
        self.assertStatus(r, 200, "the limit is per token: another token of the same user")
        self.assertEqual(r.header("X-RateLimit-Remaining"), "239", r.describe())

    def test_requests_without_a_valid_token_are_limited_per_ip(self):
        a, b = self._servers()
        u = self.owner(["account:read"])
        ip = "127.0.0.2"
        wait_for_window(25)
        bad = [None, "garbage", "%s|%s" % (u.token_id, "x" * 48), "987654321|" + "y" * 48]
        rs = burst(240, lambda i: self.stack.request("GET", MIG if i % 2 else API + "/nope", token=bad[i % 4],
                                                     web=a if i % 2 else b, source=ip), workers=8)
        codes = {}
        for r in rs:
            codes[r.status] = codes.get(r.status, 0) + 1
        self.assertEqual(codes, {401: 240}, "the first 240 token-less requests from one IP are 401")
        r = self.stack.request("GET", MIG, token="garbage", web=a, source=ip)
        self._assert_429(r, msg="241st request without a valid token from one IP")
        r = self.stack.request("GET", API + "/nope", web=b, source=ip)
        self._assert_429(r, msg="no token, unknown path, exhausted IP")
        r = self.stack.request("GET", MIG, token="garbage", web=a, source="127.0.0.3")
        self.assertError(r, 401, "unauthenticated", msg="another IP has its own bucket")
        r = self.stack.request("GET", MIG, token=u.token, web=a, source=ip)
        self.assertStatus(r, 200, "a valid token is counted per token, not per IP")
        self.assertEqual(r.header("X-RateLimit-Remaining"), "239",
                         "60 wrong secrets for this token's id counted nothing in its bucket: " + r.describe())

    def test_scope_and_flag_come_before_the_rate_limit_and_the_limit_before_routing(self):
        s = self.stack
        a, _ = self._servers()
        u = self.owner([x for x in ALL_SCOPES if x != "account:read"])
        wait_for_window(25)
        rs = burst(240, lambda i: u.request("GET", API + "/me", web=a), workers=8)
        self.assertEqual([r.status for r in rs].count(200), 240, [r.describe() for r in rs if r.status != 200][:1])
        self._assert_429(u.request("GET", API + "/me", web=a), msg="exhausted")
        problems = []
        r = u.request("GET", MIG, web=a)
        self.check(problems, r.status == 403 and isinstance(r.json, dict) and r.json.get("code") == "forbidden",
                   "scope before rate limit (token lacks account:read)", r)
        for method, path, kw, label in (
                ("DELETE", "%s/%s" % (MIG, uuid.uuid4()), {}, "unknown run (404)"),
                ("GET", API + "/nope", {}, "unknown path (404)"),
                ("PUT", MIG, {}, "wrong method (405)"),
                ("POST", MIG, {"raw_body": '{"provider":'}, "malformed JSON (400)"),
                ("POST", MIG, {"body": {"provider": "bogus"}}, "invalid body (422)"),
                ("POST", MIG, {"raw_body": "x", "headers": {"Content-Type": "text/plain"}}, "media type (415)")):
            r = u.request(method, path, web=a, **kw)
            self.check(problems, r.status == 429 and isinstance(r.json, dict) and r.json.get("code") == "rate_limited",
                       "rate limit before " + label, r)
        s.set_flag(False, u.id)
        r = u.request("POST", MIG, web=a, body={"provider": "uptimerobot", "credentials": {"api_key": "k"}})
        self.check(problems, r.status == 403 and isinstance(r.json, dict) and r.json.get("code") == "feature_disabled",
                   "flag before rate limit", r)
        self.assertNoProblems(problems)
