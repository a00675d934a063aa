"""Hostile input II (issue 23, items 3 and 7): UTF-8 everywhere, numbers
never clamped.

- Every field with a length limit of every operation (the tools' inputSchema
  maxLength, and every credential field of every provider), over REST and
  the tool interface, with a 4-byte character at the limit, one over it and
  straddling it: the right status, valid UTF-8, and a field name echoed in a
  422 cut on a character boundary (test_every_limit_*).
- A provider answer, header or redirect holding bytes that are not UTF-8
  ends the run failed with a clean message, never a stuck job
  (TestHostileProviderAnswers).
- Every operation, over REST and the tool interface, given NUL, lone
  surrogates, overlong and invalid bytes, 1 MB strings, deep nesting and
  huge numbers, in bodies, arguments and query values: never a 500, always a
  valid UTF-8 JSON answer (TestNoInputGetsA500).
- A number out of range is refused naming its field, never clamped
  (TestNumbersNeverClamped).
- A provider value cut to fit its account column is named in a run-log
  warning (TestCutsAreWarned).

Validity is checked on the raw bytes with Python's strict decoder.
"""

import json
import re
import urllib.parse

import harness
from harness import ALL_SCOPES, q
from test_fastcgi import FcgiDirect
from test_runner import RunnerTestCase, PROVIDER

EMOJI = "\U0001F600"  # 4 bytes in UTF-8
CREDENTIAL_MAX_CHARS = 2048  # src/api/ops.h

# The operation table (src/api/ops.c) as REST sees it, with each row's tool
# (None: REST only) and the parameters REST reads besides the run id.
REST_OPS = [
    ("GET", "/api/v1/migrations", "migrations-list", ["status", "provider", "page", "per_page"]),
    ("GET", "/api/v1/migrations/{run}", "migration-get", []),
    ("GET", "/api/v1/migrations/{run}/logs", None, ["errors_only", "page", "per_page"]),
    ("GET", "/api/v1/migrations/{run}/resources", "migration-resources",
     ["status", "resource_type", "action", "q", "page", "per_page"]),
    ("POST", "/api/v1/migrations", "migration-create", ["provider", "credentials", "options"]),
    ("POST", "/api/v1/migrations/{run}/execute", "migration-execute", []),
    ("POST", "/api/v1/migrations/{run}/retry-failed", "migration-retry-failed", []),
    ("DELETE", "/api/v1/migrations/{run}", "migration-delete", []),
    ("POST", "/api/v1/migrations/{run}/resolve-conflicts", "migration-resolve-conflicts",
     ["strategy", "resource_ids"]),
    ("POST", "/api/v1/migrations/{run}/cancel", "migration-cancel", []),
    ("POST", "/api/v1/migrations/{run}/resources/exclude", "migration-resources-exclude", ["ids"]),
    ("POST", "/api/v1/migrations/{run}/resources/include", "migration-resources-include", ["ids"]),
    ("GET", "/api/v1/migrations/{run}/report", "migration-report", ["format"]),
    ("POST", "/api/v1/migrations/{run}/revert", "migration-revert", []),
    ("GET", "/api/v1/me", None, []),
]

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


def strict_json(tc, r):
    """The answer's body decoded strictly as UTF-8 and read as JSON (None for
    an empty body); fails the test otherwise."""
    if not r.body:
        return None
    try:
        text = r.body.decode("utf-8")
    except UnicodeDecodeError as e:
        tc.fail("the answer is not valid UTF-8 (%s)\n  %s" % (e, r.describe()))
    try:
        return json.loads(text)
    except ValueError as e:
        tc.fail("the answer is not JSON (%s)\n  %s" % (e, r.describe()))


def is_cut_of(short, whole):
    """short is whole, or whole cut on a character boundary (Python strings
    are characters: any prefix is on a boundary once both decode)."""
    return whole.startswith(short)


class HostileCase(harness.ApiTestCase):

    def setUp(self):
        self.u = self.stack.new_user(ALL_SCOPES)

    def start_allowed(self, user):
        """The start limit (5 a minute) counts every attempt: a test that
        makes many clears its user's count first."""
        self.stack.sql("DELETE FROM rate_limits WHERE bucket = %s" % q("start:%d" % user.id))

    def rest(self, method, path, body=None, raw=None, user=None):
        user = user or self.u
        if method == "POST" and path == "/api/v1/migrations":
            self.start_allowed(user)
        return user.request(method, path, body=body, raw_body=raw)

    def rpc_raw(self, raw, user=None):
        user = user or self.u
        return user.request("POST", "/mcp", raw_body=raw, headers=MCP_HEADERS)

    def tool(self, name, arguments, user=None):
        user = user or self.u
        if name == "migration-create":
            self.start_allowed(user)
        msg = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        return self.rpc_raw(json.dumps(msg, ensure_ascii=False).encode("utf-8"), user)

    def tool_error(self, r):
        """A tool call's refusal: the REST error body its text carries."""
        self.assertStatus(r, 200)
        body = strict_json(self, r)
        self.assertTrue(body["result"].get("isError"), r.describe())
        return json.loads(body["result"]["content"][0]["text"])

    def tools(self):
        r = self.rpc_raw(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        self.assertStatus(r, 200)
        return {t["name"]: t for t in strict_json(self, r)["result"]["tools"]}


# ------------------------------------------------------------ length limits

class TestEveryLimitAcrossCharacters(HostileCase):

    def credential_fields(self, tools):
        """provider -> its credential fields, read from migration-create's
        inputSchema ("uptimerobot: api_key; ...; whmcs: url api_identifier
        api_secret [access_key].")."""
        desc = tools["migration-create"]["inputSchema"]["properties"]["credentials"]["description"]
        out = {}
        for part in desc.split(":", 1)[1].rstrip(".").split(";"):
            prov, fields = part.split(":")
            out[prov.strip()] = [f.strip("[]") for f in fields.split()]
        return out

    def test_every_limit_with_a_4_byte_character_at_over_and_across_it(self):
        tools = self.tools()
        rid = self.stack.insert_run(self.u.id)
        walked = 0
        # the parameters with a length: every tool's maxLength, and its REST twin
        for name, t in sorted(tools.items()):
            for param, schema in t["inputSchema"]["properties"].items():
                if "maxLength" not in schema:
                    continue
                limit = schema["maxLength"]
                rest = [op for op in REST_OPS if op[2] == name][0]
                for value, ok in ((EMOJI * limit, True), (EMOJI * (limit + 1), False),
                                  ("a" * (limit - 1) + EMOJI, True), ("a" * limit + EMOJI, False)):
                    args = {"id": rid, param: value}
                    r = self.tool(name, args)
                    body = strict_json(self, r)
                    if ok:
                        self.assertFalse(body["result"].get("isError"), r.describe())
                    else:
                        self.assertIn(param, self.tool_error(r)["errors"])
                    path = rest[1].replace("{run}", rid)
                    if rest[0] == "GET":  # a list filter, in the query
                        r = self.rest(rest[0], path + "?" + urllib.parse.urlencode({param: value}))
                    else:                 # a selection by filter, in the body
                        r = self.rest(rest[0], path, {param: value})
                    self.assertStatus(r, 200 if ok else 422)
                    body = strict_json(self, r)
                    if not ok:
                        self.assertIn(param, body["errors"])
                    elif rest[0] == "GET":  # the page links carry the value whole
                        link = urllib.parse.urlparse(body["links"]["first"]).query
                        self.assertEqual(urllib.parse.parse_qs(link)[param], [value])
                    else:
                        self.assertEqual(body["changed"], 0)
                    walked += 1
        self.assertGreaterEqual(walked, 4)
        # every credential field of every provider: 1 to 2048 characters
        fields = self.credential_fields(tools)
        self.assertEqual(len(fields), 9, fields)
        urls = {"url", "base_url"}  # URLs: ASCII only (urlguard), a 4-byte character is refused at any length
        for prov, names in sorted(fields.items()):
            for field in names:
                creds = {f: "https://example.com/" if f in urls else "k" for f in names}
                for value, ok in ((EMOJI * CREDENTIAL_MAX_CHARS, True), (EMOJI * (CREDENTIAL_MAX_CHARS + 1), False),
                                  ("a" * (CREDENTIAL_MAX_CHARS - 1) + EMOJI, True),
                                  ("a" * CREDENTIAL_MAX_CHARS + EMOJI, False)):
                    ok = ok and field not in urls
                    body = {"provider": prov, "credentials": dict(creds, **{field: value})}
                    with self.subTest(provider=prov, field=field, chars=len(value)):
                        r = self.rest("POST", "/api/v1/migrations", body=body)
                        self.assertStatus(r, 201 if ok else 422)
                        answer = strict_json(self, r)
                        if not ok:
                            self.assertIn("credentials." + field, answer["errors"])
                        r = self.tool("migration-create", body)
                        answer = strict_json(self, r)
                        if ok:
                            self.assertFalse(answer["result"].get("isError"), r.describe())
                        else:
                            self.assertIn("credentials." + field, self.tool_error(r)["errors"])
                        self.assertNotIn(value, r.body.decode("utf-8"))  # never echoed
        self.stack.sql("DELETE FROM jobs")

    def test_every_field_at_its_longest_at_once_is_accepted(self):
        """WHMCS's fields together, each 2,048 characters of 4 bytes (or of quotes, 2 bytes as JSON):
        33 KB of sealed JSON, once more than the column held (a 500)."""
        for ch in (EMOJI, '"'):
            creds = {"url": "https://billing.example.com/" + "p" * 400, "api_identifier": ch * CREDENTIAL_MAX_CHARS,
                     "api_secret": ch * CREDENTIAL_MAX_CHARS, "access_key": ch * CREDENTIAL_MAX_CHARS}
            # as UTF-8 (escaped, each emoji is 12 bytes: past [limits] max_body)
            raw = json.dumps({"provider": "whmcs", "credentials": creds}, ensure_ascii=False).encode("utf-8")
            r = self.rest("POST", "/api/v1/migrations", raw=raw)
            self.assertStatus(r, 201)
            r = self.tool("migration-create", {"provider": "whmcs", "credentials": creds})
            self.assertFalse(strict_json(self, r)["result"].get("isError"), r.describe())
        self.stack.sql("DELETE FROM jobs")

    def test_every_echoed_name_is_cut_on_a_character_boundary(self):
        """Names the client chose are echoed in a 422 (an unknown credential
        field, option or tool argument) cut to fit: around the cut, with
        4-byte characters, the answer is valid UTF-8 and the echo a prefix of
        the name. The first case is the issue's reproducer."""
        names = [EMOJI * 15] + [EMOJI * n for n in range(13, 18)] + \
                ["x" * k + EMOJI * 3 for k in range(48, 64)]
        for name in names:
            with self.subTest(name_bytes=len(name.encode())):
                for r, prefix, errors in self.refusals_naming(name):
                    fields = [f for f in errors if f.startswith(prefix)]
                    self.assertEqual(len(fields), 1, r.describe())
                    echoed = fields[0][len(prefix):]
                    self.assertTrue(echoed and is_cut_of(echoed, name), (echoed, name))
                    self.assertLessEqual(len(fields[0].encode()), 63)

    def refusals_naming(self, name):
        """The 422s that echo name as a field: (answer, field prefix, errors)."""
        creds = {"provider": "uptimerobot", "credentials": {"api_key": "k", name: "x"}}
        r = self.rest("POST", "/api/v1/migrations", body=creds)
        self.assertStatus(r, 422)
        yield r, "credentials.", strict_json(self, r)["errors"]
        r = self.tool("migration-create", creds)
        yield r, "credentials.", self.tool_error(r)["errors"]
        r = self.tool("migrations-list", {name: 1})
        yield r, "", self.tool_error(r)["errors"]

    def test_names_echoed_in_json_rpc_errors_are_cut_on_a_character_boundary(self):
        for n in range(60, 68):
            name = EMOJI * n
            r = self.rpc_raw(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                         "params": {"name": name}}))
            err = strict_json(self, r)["error"]
            self.assertEqual(err["code"], -32602)
            self.assertTrue(is_cut_of(err["message"][len("Unknown tool: "):], name), err)
            r = self.rpc_raw(json.dumps({"jsonrpc": "2.0", "id": 1, "method": name}))
            err = strict_json(self, r)["error"]
            self.assertEqual(err["code"], -32601)
            self.assertTrue(is_cut_of(err["message"][len("Method not found: "):], name), err)


# ------------------------------------------------------------ provider answers

class TestHostileProviderAnswers(RunnerTestCase):
    """The fake's bad_utf8 fault (tests/fakes/README.md): hostile bytes, not
    any provider's published shape."""

    @classmethod
    def setUpClass(cls):
        # one attempt, and no time for rate-limit refusals: the first failure ends the run, so a
        # run that does not end after the runner's passes below is a stuck job, not a slow one
        cls.cfg = harness.runner_config(cls.stack, "hostile", lease_seconds=5, max_attempts=1,
                                        provider_wait_max=0)

    def run_against(self, where, **fault):
        key = self.account(monitors=3, heartbeats=0, contacts=1, status_pages=0)
        self.faults(dict({"kind": "bad_utf8", "where": where, "times": 0}, **fault))
        user = self.user()
        rid = self.start(user, key)
        for _ in range(4):  # passes, not time: each pass takes whatever job is due
            self.runner("--once")
            if self.stack.run_status(rid) == "failed":
                break
        self.assertEqual(self.stack.run_status(rid), "failed",
                         "jobs: %s" % self.stack.sql("SELECT queue, attempts FROM jobs WHERE run_id=%s" % q(rid)))
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0, "a job of the failed run is left")
        r = user.request("GET", "/api/v1/migrations/" + rid)
        run = strict_json(self, r)["data"]
        self.assertTrue(run["error_message"])
        r = user.request("GET", "/api/v1/migrations/%s/logs?per_page=100" % rid)
        logs = strict_json(self, r)["data"]
        self.assertIn(run["error_message"], [l["message"] for l in logs if l["level"] == "error"])
        stored = self.stack.sql("SELECT HEX(error_message) FROM migration_runs WHERE id=%s" % q(rid))[0][0]
        bytes.fromhex(stored).decode("utf-8")  # strict
        harness.fake_call(self.stack, "DELETE", "/_control/%s/faults" % PROVIDER)
        return run["error_message"]

    def test_invalid_utf8_in_a_body_fails_the_run_cleanly(self):
        self.run_against("body")

    def test_invalid_utf8_in_an_error_body_fails_the_run_cleanly(self):
        self.run_against("error_body", status=400)

    def test_invalid_utf8_in_retry_after_fails_the_run_cleanly(self):
        self.run_against("retry_after")

    def test_invalid_utf8_in_a_content_type_fails_the_run_cleanly(self):
        self.run_against("content_type", status=500)

    def test_invalid_utf8_in_a_redirect_location_fails_the_run_cleanly(self):
        # the hop is refused (another host) before anything is sent there, and the message names
        # the target with '?' for each byte that is not UTF-8
        msg = self.run_against("location")
        self.assertNotIn("\ufffd", msg)
        self.assertRegex(msg, r"redirected to another host \(https://[^)]*\?[^)]*\.example\)")


# ------------------------------------------------------------ no 500

# JSON values (text, or bytes for what is not UTF-8) put where a parameter's value goes.
HOSTILE_VALUES = [
    '"a\\u0000b"', '"\\u0000"', '"\\ud800"', '"x\\udc00y"', '"\\ud800\\u0041"',
    b'"\xc0\xaf"', b'"\xe0\x80\xaf"', b'"\xed\xa0\x80"', b'"\xff\xfe"', b'"caf\xe9"', b'"\xf4\x90\x80\x80"',
    "99999999999999999999", "-99999999999999999999", "9223372036854775808", "-9223372036854775809",
    "1e400", "-1e400", "-0", "1e-400", "1.5", "[99999999999999999999]", '{"a":1e400}',
    "[" * 20 + "]" * 20, '"' + "a" * (1 << 20) + '"', '"' + EMOJI * 20000 + '"', '"' + "\\u00e9" * 10000 + '"',
]
# Query values, percent-encoded: NUL, bytes that are not UTF-8, overlong and
# surrogate forms, numbers out of range, long and deep values, bad escapes.
HOSTILE_QUERY = ["%00", "a%00b", "%ED%A0%80", "%C0%AF", "%FF%FE", "caf%E9", "%F4%90%80%80",
                 "99999999999999999999", "-9223372036854775809", "1e400", "-0", "%F0%9F%98%80" * 101,
                 "%5B" * 2000, "a" * 7000, "+" * 300, "%2", "%%"]
# What lighttpd refuses itself, with an HTML 400, before migrator.fcgi sees it:
# NUL, bytes that are not UTF-8 and overlong forms in a URL, and a body on a
# GET or DELETE. Another web server may pass them on: they go over FastCGI.
SERVER_REFUSES = {"%00", "a%00b", "%C0%AF", "%FF%FE", "caf%E9"}
# Whole bodies: not UTF-8, a byte order mark, deep, huge, not an object, past max_body, a NUL after.
HOSTILE_BODIES = [b"\xff", b"\xef\xbb\xbf{}", b"[" * 100000, b"{" * 5000, b'"' + b"a" * (1 << 20) + b'"',
                  b"99999999999999999999", b"{}" + b" " * 70000, b'{"a":"\\u0000"}\x00']
REST_ALLOWED = {200, 201, 202, 204, 400, 404, 409, 413, 414, 415, 422}


def as_bytes(v):
    return v if isinstance(v, bytes) else v.encode("utf-8")


def hostile_rest_requests(rid, web_server):
    """(method, uri, body) for every operation: each of its parameters (and
    an unknown one) with each hostile value, in the body for POST and in the
    query otherwise; then each hostile whole body. With web_server, only what
    it passes on (not SERVER_REFUSES, no body on GET or DELETE)."""
    for method, path, _, params in REST_OPS:
        path = path.replace("{run}", rid)
        for param in params + ["unknown"]:
            if method == "POST":
                for v in HOSTILE_VALUES:
                    yield method, path, b'{"' + param.encode() + b'":' + as_bytes(v) + b"}"
            else:
                for v in HOSTILE_QUERY:
                    if not (web_server and v in SERVER_REFUSES):
                        yield method, path + "?" + param + "=" + v, b""
        for body in HOSTILE_BODIES if method == "POST" or not web_server else []:
            yield method, path, body


class TestNoInputGetsA500(HostileCase):
    """Through the web server, what it passes on (SERVER_REFUSES); the rest
    goes straight to migrator.fcgi in TestNoBytesGetA500OverFastCgi."""

    def check(self, r, allowed):
        self.assertNotEqual(r.status, 500, r.describe())
        self.assertIn(r.status, allowed, r.describe())
        self.assertEqual(r.header("X-Content-Type-Options"), "nosniff", r.describe())  # migrator's answer
        strict_json(self, r)

    def test_every_rest_operation_with_hostile_bodies_and_query_values(self):
        tools = self.tools()
        self.assertEqual(sorted(t for _, _, t, _ in REST_OPS if t), sorted(tools))  # every row is here
        rid = self.stack.insert_run(self.u.id)  # deleted by the first DELETE that passes: 404s after it
        for method, uri, body in hostile_rest_requests(rid, web_server=True):
            with self.subTest(request=method + " " + uri[:80], body=body[:40]):
                self.check(self.rest(method, uri, raw=body or None), REST_ALLOWED)
        self.stack.sql("DELETE FROM jobs")

    def test_every_tool_with_hostile_arguments_and_envelopes(self):
        tools = self.tools()
        rid = self.stack.insert_run(self.u.id)
        for name, t in sorted(tools.items()):
            params = list(t["inputSchema"]["properties"]) + ["unknown"]
            for param in params:
                with self.subTest(tool=name, param=param):
                    for v in HOSTILE_VALUES:
                        args = b'{"id":"' + rid.encode() + b'","' + param.encode() + b'":' + as_bytes(v) + b"}"
                        if param == "id":
                            args = b'{"id":' + as_bytes(v) + b"}"
                        if name == "migration-create":
                            self.start_allowed(self.u)
                        raw = (b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"' + name.encode() +
                               b'","arguments":' + args + b"}}")
                        self.check(self.rpc_raw(raw), {200, 400, 413})
        # the envelope itself: ids, names, params and whole bodies
        for raw in [b'{"jsonrpc":"2.0","id":' + as_bytes(v) + b',"method":"ping"}' for v in HOSTILE_VALUES] + \
                   [b'{"jsonrpc":"2.0","id":1,"method":' + as_bytes(v) + b"}" for v in HOSTILE_VALUES] + \
                   [b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":' + as_bytes(v) + b"}}"
                    for v in HOSTILE_VALUES] + \
                   [b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":' + as_bytes(v) +
                    b"}}" for v in HOSTILE_VALUES] + HOSTILE_BODIES + [b"null", b"[]"]:
            self.check(self.rpc_raw(raw), {200, 202, 400, 413})
        self.stack.sql("DELETE FROM jobs")


class TestNoBytesGetA500OverFastCgi(FcgiDirect):
    """The same requests straight over FastCGI, so that what a web server may
    refuse (NUL and bytes that are not UTF-8 in the URL, a GET with a body)
    reaches migrator.fcgi; and bytes no encoding allows, raw in the URL."""

    def test_every_rest_operation_with_bytes_a_web_server_may_pass_on(self):
        rid = self.stack.insert_run(self.owner.id)
        raw_uris = [b"/api/v1/migrations?status=\xff", b"/api/v1/migrations?q\x00=1",
                    b"/api/v1/migrations/" + rid.encode() + b"\xc0\xaf", b"/api/v1/\xed\xa0\x80",
                    b"/api/v1/me?\x00", b"/mcp?\xff"]
        requests = [(m, u.encode(), b) for m, u, b in hostile_rest_requests(rid, web_server=False)] + \
                   [(m, u, b) for m in ("GET", "POST") for u in raw_uris for b in (b"", b"{}")]
        for method, uri, body in requests:
            if method == "POST" and uri == b"/api/v1/migrations":
                self.stack.sql("DELETE FROM rate_limits WHERE bucket = %s" % q("start:%d" % self.owner.id))
            status, headers, answer = self.ask(method, uri, body)
            with self.subTest(request=method + " " + repr(uri[:80]), body=body[:40]):
                self.assertNotEqual(status, 500)
                self.assertIn(status, REST_ALLOWED | {405}, answer[:300])
                if status != 204:
                    json.loads(answer.decode("utf-8"))  # strict
        self.stack.sql("DELETE FROM jobs")


# ------------------------------------------------------------ numbers

class TestNumbersNeverClamped(HostileCase):

    def test_a_json_rpc_id_out_of_range_is_an_invalid_request(self):
        for raw_id in ("99999999999999999999", "-99999999999999999999", "9223372036854775808", "1e400", "-1e400"):
            r = self.rpc_raw('{"jsonrpc":"2.0","id":%s,"method":"ping"}' % raw_id)
            self.assertStatus(r, 400)
            body = strict_json(self, r)
            self.assertEqual(body["error"]["code"], -32600, r.describe())
            self.assertNotIn("id", body)
            self.assertNotIn("18446744073709551615", r.text)
            self.assertNotIn("9223372036854775807", r.text)
        # the edges of int64 and -0 are ids like any other, echoed exactly
        for raw_id, echoed in (("9223372036854775807", 9223372036854775807),
                               ("-9223372036854775808", -9223372036854775808), ("-0", 0)):
            r = self.rpc_raw('{"jsonrpc":"2.0","id":%s,"method":"ping"}' % raw_id)
            self.assertStatus(r, 200)
            self.assertEqual(strict_json(self, r)["id"], echoed)

    def test_a_number_out_of_range_in_params_is_invalid_params(self):
        r = self.rpc_raw('{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"progressToken":1e400}}}')
        self.assertStatus(r, 200)
        body = strict_json(self, r)
        self.assertEqual(body["id"], 5)
        self.assertEqual(body["error"]["code"], -32602)
        self.assertIn("params._meta.progressToken", body["error"]["message"])

    def test_a_number_out_of_range_in_arguments_or_a_body_is_a_422_on_its_field(self):
        rid = self.stack.insert_run(self.u.id)
        for raw, field in (('{"per_page":99999999999999999999}', "per_page"), ('{"page":1e400}', "page"),
                           ('{"page":9223372036854775808}', "page")):
            r = self.rpc_raw('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"migrations-list",'
                             '"arguments":%s}}' % raw)
            self.assertEqual(list(self.tool_error(r)["errors"]), [field], r.describe())
        cases = [("/api/v1/migrations/%s/resources/exclude" % rid, '{"ids":[1,99999999999999999999]}', "ids.1"),
                 ("/api/v1/migrations/%s/resolve-conflicts" % rid,
                  '{"strategy":"skip","resource_ids":[-99999999999999999999]}', "resource_ids.0"),
                 ("/api/v1/migrations/%s/execute" % rid, '{"x":{"y":1e400}}', "x.y"),
                 ("/api/v1/migrations", '{"provider":"uptimerobot","credentials":{"api_key":1e999}}',
                  "credentials.api_key")]
        for path, raw, field in cases:
            r = self.rest("POST", path, raw=raw)
            self.assertStatus(r, 422)
            self.assertEqual(list(strict_json(self, r)["errors"]), [field], r.describe())
        # a query value: digits no int64 holds are out of range, not "not an integer"
        r = self.rest("GET", "/api/v1/migrations?page=99999999999999999999")
        self.assertStatus(r, 422)
        self.assertIn("between 1 and 1000000", strict_json(self, r)["errors"]["page"][0])


class TestNulCharacters(HostileCase):

    def test_nul_characters_in_string_values_are_a_422(self):
        """In credentials (2,048 of them in each WHMCS field was a 500) and in any other string value."""
        rid = self.stack.insert_run(self.u.id)
        self.start_allowed(self.u)
        r = self.rest("POST", "/api/v1/migrations",
                      body={"provider": "whmcs", "credentials": {"url": "https://billing.example.com",
                                                                 "api_identifier": "\u0000" * 2048,
                                                                 "api_secret": "\u0000" * 2048,
                                                                 "access_key": "\u0000" * 2048}})
        self.assertStatus(r, 422)
        self.assertIn("credentials.api_secret", strict_json(self, r)["errors"])
        r = self.rest("POST", "/api/v1/migrations/%s/resolve-conflicts" % rid, body={"strategy": "skip\u0000x"})
        self.assertStatus(r, 422)
        self.assertIn("strategy", strict_json(self, r)["errors"])


# ------------------------------------------------------------ cuts warned

class TestCutsAreWarned(RunnerTestCase):

    def test_a_value_cut_to_fit_its_account_column_is_named_in_a_warning(self):
        # a 300-character name (the column holds 255), with 4-byte characters where it is cut
        prefix = "N" * 250 + EMOJI * 50
        key = self.account(monitors=2, heartbeats=1, contacts=1, status_pages=0, name_prefix=prefix)
        user = self.user()
        rid = self.start(user, key)
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        self.execute(user, rid)
        self.assertIn(self.drive(rid, ("completed", "completed_with_errors")), ("completed",))
        logs = self.logs(user, rid)
        warned = [l for l in logs if l["level"] == "warning" and "cut to fit the account" in l["message"]]
        # every monitor, heartbeat and contact had its name cut: each is named
        self.assertEqual(len(warned), 4, [l["message"] for l in logs])
        for l in warned:
            self.assertIn("name (to 255 characters)", l["message"])
            self.assertTrue(l["context"]["external_id"])
        names = self.stack.sql("SELECT HEX(name) FROM monitors WHERE user_id=%d" % user.id)
        for (h,) in names:
            name = bytes.fromhex(h).decode("utf-8")  # strict: never half a character
            self.assertEqual(len(name), 255)
            self.assertTrue(prefix.startswith(name[:250 + 5]))
