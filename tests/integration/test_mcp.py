"""The tool interface: MCP (JSON-RPC 2.0) over Streamable HTTP at POST /mcp
(design §7, docs/mcp.md). Raw HTTP checks of the transport rules, every
tool's happy path and business errors, then the official TypeScript SDK
client (tests/mcp/client.mjs) and the official conformance suite
(tests/mcp/conformance.sh), both installed from npm by tests/mcp/setup.sh
into $MIGRATOR_BUILDDIR/mcp-node."""

import json
import os
import re
import subprocess
import threading
import time
import uuid

import harness
from harness import (ACCOUNT_SCOPES, HIDDEN_KEYS, PROVIDERS, RUN_STATES, ApiTestCase,
                     q, wait_for_window)

LATEST = "2025-11-25"
VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"]
MCP_DIR = os.path.join(harness.SRCDIR, "tests", "mcp")
NODE_DIR = os.environ.get("MCP_NODE_DIR") or os.path.join(harness.BUILDDIR, "mcp-node")

# name -> (scope, readOnlyHint, destructiveHint, idempotentHint, openWorldHint)
TOOLS = {
    "migrations-list": ("account:read", True, False, True, False),
    "migration-get": ("account:read", True, False, True, False),
    "migration-create": ("account:write", False, False, False, True),
    "migration-execute": ("account:write", False, False, False, False),
    "migration-retry-failed": ("account:write", False, False, False, False),
    "migration-resolve-conflicts": ("account:write", False, False, False, False),
    "migration-cancel": ("account:write", False, False, True, False),
    "migration-delete": ("account:delete", False, True, True, False),
    "migration-resources": ("account:read", True, False, True, False),
    "migration-resources-exclude": ("account:write", False, False, True, False),
    "migration-resources-include": ("account:write", False, False, True, False),
    "migration-report": ("account:read", True, False, True, False),
    "migration-revert": ("account:delete", False, True, True, False),
}
MCP_SCOPES = ["mcp:use"] + ACCOUNT_SCOPES


def package_version():
    with open(os.path.join(harness.BUILDDIR, "config.h")) as f:
        m = re.search(r'#define PACKAGE_VERSION "([^"]*)"', f.read())
    return m.group(1)


def keys_in(value):
    """Every object key anywhere in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_in(v)


class McpCase(ApiTestCase):
    """Helpers: one JSON-RPC message per POST, and assertions on the answers."""

    def setUp(self):
        self.u = self.stack.new_user(MCP_SCOPES)
        self.token = self.u.token

    # -- transport

    def post(self, token, body=None, raw=None, headers=None, web=None, rate_headers=True):
        r = self.stack.request("POST", "/mcp", token=token, body=body if raw is None else None,
                               raw_body=raw, headers=headers, web=web)
        if rate_headers:
            self.assertRateHeaders(r)
        return r

    def rpc(self, token, method, params=None, id=1, headers=None, web=None):
        msg = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            msg["params"] = params
        return self.post(token, msg, headers=headers, web=web)

    def assertRateHeaders(self, r):
        for h in ("X-RateLimit-Limit", "X-RateLimit-Remaining"):
            v = r.header(h)
            if v is None or not re.fullmatch(r"\d+", v):
                self.fail("missing or bad %s\n  %s" % (h, r.describe()))

    def assertJsonRpc(self, r, id, kind):
        """HTTP 200 and exactly {"jsonrpc","id","result"|"error"}, id echoed with its type."""
        self.assertStatus(r, 200)
        body = self.assertJsonObject(r)
        self.assertEqual(set(body), {"jsonrpc", "id", kind}, r.describe())
        self.assertEqual(body["jsonrpc"], "2.0")
        self.assertEqual(body["id"], id, r.describe())
        self.assertIs(type(body["id"]), type(id), r.describe())
        self.assertTrue(r.header("Content-Type", "").startswith("application/json"), r.describe())
        return body[kind]

    def result(self, token, method, params=None, id=1, **kw):
        return self.assertJsonRpc(self.rpc(token, method, params, id, **kw), id, "result")

    def rpc_error(self, token, method, params=None, code=-32602, id=1, **kw):
        r = self.rpc(token, method, params, id, **kw)
        err = self.assertJsonRpc(r, id, "error")
        self.assertEqual(err.get("code"), code, r.describe())
        self.assertIsInstance(err.get("message"), str)
        self.assertTrue(err["message"])
        return err

    def assertRefused(self, r, status, rpc_code=None, data_code=None):
        """An HTTP-level refusal: status, a JSON-RPC error body and no result."""
        self.assertStatus(r, status)
        body = self.assertJsonObject(r)
        self.assertEqual(body.get("jsonrpc"), "2.0", r.describe())
        self.assertNotIn("result", body, r.describe())
        err = body.get("error")
        self.assertIsInstance(err, dict, r.describe())
        self.assertIsInstance(err.get("code"), int, r.describe())
        self.assertTrue(isinstance(err.get("message"), str) and err["message"], r.describe())
        if rpc_code is not None:
            self.assertEqual(err["code"], rpc_code, r.describe())
        if data_code is not None:
            self.assertEqual((err.get("data") or {}).get("code"), data_code, r.describe())
        return body

    # -- tools

    def call(self, name, arguments=None, token=None, omit_arguments=False):
        params = {"name": name}
        if not omit_arguments:
            params["arguments"] = arguments if arguments is not None else {}
        return self.result(token or self.token, "tools/call", params)

    def call_ok(self, name, arguments=None, token=None):
        res = self.call(name, arguments, token)
        if res.get("isError"):
            self.fail("%s: expected success, got %r" % (name, res))
        sc = res.get("structuredContent")
        self.assertIsInstance(sc, dict, res)
        content = res.get("content")
        self.assertIsInstance(content, list, res)
        self.assertEqual(len(content), 1, res)
        self.assertEqual(content[0].get("type"), "text", res)
        self.assertEqual(json.loads(content[0]["text"]), sc, "the text item is not the structuredContent")
        return sc

    def call_err(self, name, arguments=None, code=None, field=None, token=None, omit_arguments=False):
        """isError result: no structuredContent, one text item holding the REST
        error body whose code is `code` (and errors[field] with field)."""
        res = self.call(name, arguments, token, omit_arguments)
        if res.get("isError") is not True:
            self.fail("%s %r: expected isError with %s, got %r" % (name, arguments, code, res))
        self.assertNotIn("structuredContent", res)
        content = res.get("content")
        self.assertIsInstance(content, list, res)
        self.assertEqual(len(content), 1, res)
        self.assertEqual(content[0].get("type"), "text", res)
        text = content[0]["text"]
        body = json.loads(text)
        self.assertTrue(isinstance(body.get("message"), str) and body["message"], text)
        if code is not None:
            self.assertEqual(body.get("code"), code, text)
            self.assertIn(code, text)
        if field is not None:
            errs = body.get("errors") or {}
            self.assertIn(field, errs, text)
            self.assertTrue(errs[field] and all(isinstance(m, str) and m for m in errs[field]), text)
        return body

    def tool_names(self, token):
        return [t["name"] for t in self.result(token, "tools/list")["tools"]]

    def web_with(self, label, replace=None, append=""):
        """Another web server on this stack's DB with a variant of its config."""
        if label in self.stack.webs:
            return self.stack.webs[label]
        with open(self.stack.config) as f:
            text = f.read()
        for pattern, repl in (replace or {}).items():
            text = re.sub(pattern, repl, text, flags=re.M)
        path = os.path.join(self.stack.tmp, "migrator-%s.conf" % label)
        with open(path, "w") as f:
            f.write(text + "\n" + append)
        return self.stack.add_web(label, path)


# ------------------------------------------------------------------ transport

class McpTransport(McpCase):

    def test_initialize_negotiates_version(self):
        for asked, answered in [(v, v) for v in VERSIONS] + [("2024-11-05", LATEST), ("1999-01-01", LATEST),
                                                             ("2026-07-28", LATEST), ("", LATEST)]:
            with self.subTest(asked=asked):
                r = self.rpc(self.token, "initialize", {
                    "protocolVersion": asked, "capabilities": {},
                    "clientInfo": {"name": "it", "version": "1"}}, id=0)
                res = self.assertJsonRpc(r, 0, "result")
                self.assertEqual(res["protocolVersion"], answered)
                self.assertEqual(res["capabilities"], {"tools": {}})
                self.assertEqual(res["serverInfo"]["name"], "migrator")
                self.assertEqual(res["serverInfo"]["version"], package_version())
                self.assertIsNone(r.header("Mcp-Session-Id"), "stateless: no session id")

    def test_initialize_exact_sdk_request(self):
        # The SDK's bytes: key order not jsonrpc-first, id 0, no protocol header.
        raw = ('{"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},'
               '"clientInfo":{"name":"sdk-smoke-client","version":"1.0.0"}},"jsonrpc":"2.0","id":0}')
        r = self.post(self.token, raw=raw,
                      headers={"Accept": "application/json, text/event-stream"})
        self.assertEqual(self.assertJsonRpc(r, 0, "result")["protocolVersion"], LATEST)

    def test_initialize_ignores_protocol_header_and_needs_version(self):
        res = self.result(self.token, "initialize", {"protocolVersion": "2025-06-18"},
                          headers={"MCP-Protocol-Version": "1999-01-01"})
        self.assertEqual(res["protocolVersion"], "2025-06-18")
        self.rpc_error(self.token, "initialize", {"capabilities": {}}, code=-32602)
        self.rpc_error(self.token, "initialize", {"protocolVersion": 20251125}, code=-32602)
        self.rpc_error(self.token, "initialize", None, code=-32602)

    def test_notifications_and_responses_get_202(self):
        for msg in ({"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"method": "notifications/initialized", "jsonrpc": "2.0", "params": {}},
                    {"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 3, "reason": "x"}},
                    {"jsonrpc": "2.0", "method": "notifications/whatever"},
                    {"jsonrpc": "2.0", "id": 5, "result": {}},
                    {"jsonrpc": "2.0", "id": "s", "error": {"code": -1, "message": "no"}}):
            with self.subTest(msg=msg):
                r = self.post(self.token, msg, headers={"MCP-Protocol-Version": LATEST})
                self.assertStatus(r, 202)
                self.assertEqual(r.body, b"", r.describe())

    def test_ping(self):
        self.assertEqual(self.result(self.token, "ping"), {})
        self.assertEqual(self.result(self.token, "ping", {}), {})
        self.assertEqual(self.result(self.token, "ping", {"_meta": {"x": 1}}, id="p"), {})

    def test_other_methods_405(self):
        for method in ("GET", "DELETE", "PUT", "PATCH", "OPTIONS"):
            with self.subTest(method=method):
                r = self.stack.request(method, "/mcp", token=self.token,
                                       headers={"Accept": "text/event-stream",
                                                "MCP-Protocol-Version": LATEST})
                self.assertRefused(r, 405)
                self.assertEqual(r.header("Allow"), "POST", r.describe())
                self.assertRateHeaders(r)

    def test_no_redirect_on_path(self):
        r = self.stack.request("POST", "/mcp/", token=self.token,
                               body={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        self.assertNotIn(r.status, (301, 302, 303, 307, 308), r.describe())

    def test_batch_refused(self):
        r = self.post(self.token, [{"jsonrpc": "2.0", "id": 1, "method": "ping"},
                                   {"jsonrpc": "2.0", "id": 2, "method": "ping"}])
        body = self.assertRefused(r, 400, -32600)
        self.assertNotIn("id", body)
        r = self.post(self.token, [])
        self.assertRefused(r, 400, -32600)

    def test_parse_error(self):
        deep = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":' + "[" * 40 + "]" * 40 + "}}"
        for raw in ('{"jsonrpc":"2.0","id":1,"method":"ping"', "{bad", "", "   ",
                    '{"jsonrpc":"2.0","id":1,"method":"ping"} trailing', deep,
                    b'{"jsonrpc":"2.0","id":1,"method":"\xff"}'):
            with self.subTest(raw=raw[:60]):
                body = self.assertRefused(self.post(self.token, raw=raw), 400, -32700)
                self.assertNotIn("id", body)

    def test_invalid_requests(self):
        for msg in ("ping", 5, None, True,
                    {"id": 1, "method": "ping"},                           # no jsonrpc
                    {"jsonrpc": "1.0", "id": 1, "method": "ping"},
                    {"jsonrpc": 2.0, "id": 1, "method": "ping"},
                    {"jsonrpc": "2.0", "id": None, "method": "ping"},
                    {"jsonrpc": "2.0", "id": True, "method": "ping"},
                    {"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"},
                    {"jsonrpc": "2.0", "id": [1], "method": "ping"},
                    {"jsonrpc": "2.0", "id": 1, "method": 5},
                    {"jsonrpc": "2.0", "id": 1},                            # neither method nor result
                    {"jsonrpc": "2.0"}):
            with self.subTest(msg=msg):
                self.assertRefused(self.post(self.token, raw=json.dumps(msg)), 400, -32600)

    def test_id_echoed_with_its_type(self):
        for id in (0, 1, -7, 2 ** 53 + 1, "", "abc", "0", "server-discover-probe-1", 7.5):
            with self.subTest(id=id):
                self.assertEqual(self.result(self.token, "ping", id=id), {})
                self.rpc_error(self.token, "no/such", id=id, code=-32601)
                self.rpc_error(self.token, "tools/call", {"name": "nope"}, id=id, code=-32602)

    def test_unknown_method(self):
        for m in ("resources/list", "prompts/list", "logging/setLevel", "completion/complete",
                  "server/discover", "tools/List", "notifications/initialized"):
            with self.subTest(method=m):
                self.rpc_error(self.token, m, code=-32601, id=3)

    def test_params_hardening(self):
        for method, params in (("tools/call", []), ("tools/call", "x"), ("tools/call", 5),
                               ("tools/call", None), ("tools/list", []), ("ping", [1]),
                               ("initialize", []), ("ping", None)):
            with self.subTest(method=method, params=params):
                r = self.post(self.token, {"jsonrpc": "2.0", "id": 9, "method": method, "params": params})
                err = self.assertJsonRpc(r, 9, "error")
                self.assertEqual(err["code"], -32602, r.describe())
        for params in ({}, {"name": 5}, {"name": None}, {"name": ["migrations-list"]},
                       {"name": "migrations-list", "arguments": []},
                       {"name": "migrations-list", "arguments": "per_page=5"},
                       {"name": "migrations-list", "arguments": None},
                       {"name": "migrations-list", "arguments": 1}):
            with self.subTest(params=params):
                self.rpc_error(self.token, "tools/call", params, code=-32602)
        self.rpc_error(self.token, "tools/list", {"cursor": "abc"}, code=-32602)
        # Unknown members and _meta are fine; arguments may be absent.
        res = self.result(self.token, "tools/call", {"name": "migrations-list", "_meta": {"progressToken": 1},
                                                     "task": {}, "extra": 1})
        self.assertFalse(res.get("isError"), res)
        self.assertEqual(self.result(self.token, "tools/list", {"_meta": {}})["tools"][0]["name"],
                         "migrations-list")

    def test_origin(self):
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        for origin in ("http://127.0.0.1", "http://127.0.0.1:8766", "https://localhost",
                       "http://localhost:3000", "http://LOCALHOST:80", "https://[::1]:8443", "http://[::1]"):
            with self.subTest(origin=origin):
                r = self.post(self.token, ping, headers={"Origin": origin})
                self.assertEqual(self.assertJsonRpc(r, 1, "result"), {})
        for origin in ("http://evil.example.com", "https://127.0.0.1.evil.example", "http://localhost.evil",
                       "null", "file://", "http://localhost:abc", "http://localhost:", "https://localhost/x",
                       "ftp://localhost", "http://127.0.0.2", "https://app.example.test"):
            with self.subTest(origin=origin):
                r = self.post(self.token, ping, headers={"Origin": origin})
                self.assertRefused(r, 403, data_code="forbidden_origin")
        # Configured origins: [http] allowed_origins (space separated).
        web = self.web_with("origins", append="[http]\nallowed_origins = https://app.example.test "
                                              " https://ops.example.test:8443/\n")
        for origin, ok in (("https://app.example.test", True), ("https://ops.example.test:8443", True),
                           ("http://localhost:1", True), ("https://app.example.test:444", False),
                           ("http://app.example.test", False), ("https://evil.example.test", False)):
            with self.subTest(configured=origin):
                r = self.post(self.token, ping, headers={"Origin": origin}, web=web)
                if ok:
                    self.assertEqual(self.assertJsonRpc(r, 1, "result"), {})
                else:
                    self.assertRefused(r, 403)
        # DNS rebinding as the conformance suite does it: foreign Host and Origin.
        r = self.post(self.token, ping, headers={"Host": "evil.example.com", "Origin": "http://evil.example.com"})
        self.assertRefused(r, 403)

    def test_unauthenticated(self):
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        r = self.post(None, ping)
        self.assertRefused(r, 401, data_code="unauthenticated")
        self.assertEqual(r.header("WWW-Authenticate"), 'Bearer realm="mcp"')
        for bad in ("Bearer nope", "Bearer 1|" + "x" * 40, "Bearer " + self.token + "x",
                    "bearer " + self.token[:-1]):
            with self.subTest(auth=bad[:12]):
                r = self.post(None, ping, headers={"Authorization": bad})
                self.assertRefused(r, 401)
                self.assertEqual(r.header("WWW-Authenticate"), 'Bearer realm="mcp", error="invalid_token"')
        r = self.post(None, ping, headers={"Authorization": "Basic dTpw"})
        self.assertRefused(r, 401)
        self.assertEqual(r.header("WWW-Authenticate"), 'Bearer realm="mcp"')
        # A revoked token stops at once.
        tok = self.stack.new_token(self.u.id, MCP_SCOPES)
        self.assertEqual(self.result(tok, "ping"), {})
        self.stack.ctl("token", "revoke", "--id", tok.split("|")[0])
        self.assertRefused(self.post(tok, ping), 401)

    def test_mcp_use_scope_required(self):
        tok = self.stack.new_token(self.u.id, ACCOUNT_SCOPES)
        for msg in ({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                     "params": {"protocolVersion": LATEST, "capabilities": {}}},
                    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "migrations-list"}},
                    {"jsonrpc": "2.0", "method": "notifications/initialized"}):
            with self.subTest(method=msg["method"]):
                r = self.post(tok, msg)
                self.assertRefused(r, 403, data_code="forbidden")
                self.assertEqual(r.header("WWW-Authenticate"),
                                 'Bearer error="insufficient_scope", scope="mcp:use"')
        # The same token still works on REST.
        self.assertStatus(self.stack.request("GET", "/api/v1/migrations", token=tok), 200)

    def test_protocol_version_header(self):
        for v in VERSIONS + [None]:
            with self.subTest(header=v):
                hdrs = {"MCP-Protocol-Version": v} if v else None
                self.assertIn("tools", self.result(self.token, "tools/list", headers=hdrs))
                self.assertStatus(self.post(self.token, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                                            headers=hdrs), 202)
        for v in ("2024-11-05", "2026-07-28", "bogus", "2025-11-25x", "2025-11-25,2025-06-18"):
            with self.subTest(header=v):
                r = self.rpc(self.token, "tools/list", id=4, headers={"MCP-Protocol-Version": v})
                self.assertStatus(r, 400)
                self.assertNotIn("result", r.json)
                r = self.post(self.token, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                              headers={"MCP-Protocol-Version": v})
                self.assertStatus(r, 400)

    def test_body_too_large(self):
        big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "x" * 70000}})
        r = self.post(self.token, raw=big)
        self.assertRefused(r, 413, data_code="payload_too_large")

    def test_media_type(self):
        ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}'
        for ct in ("application/json", "application/json; charset=utf-8", "Application/JSON"):
            with self.subTest(ct=ct):
                self.assertEqual(self.assertJsonRpc(self.post(self.token, raw=ping, headers={"Content-Type": ct}),
                                                    1, "result"), {})
        for ct in ("text/plain", "application/x-www-form-urlencoded", None):
            with self.subTest(ct=ct):
                self.assertRefused(self.post(self.token, raw=ping, headers={"Content-Type": ct}), 415)

    def test_accept_header_not_required(self):
        for accept in ("application/json", "text/event-stream", "*/*", None):
            with self.subTest(accept=accept):
                r = self.post(self.token, {"jsonrpc": "2.0", "id": 1, "method": "ping"},
                              headers={"Accept": accept})
                self.assertEqual(self.assertJsonRpc(r, 1, "result"), {})

    def test_stray_session_id_ignored(self):
        r = self.post(self.token, {"jsonrpc": "2.0", "id": 1, "method": "ping"},
                      headers={"Mcp-Session-Id": "abc123"})
        self.assertEqual(self.assertJsonRpc(r, 1, "result"), {})

    def test_common_headers(self):
        r = self.rpc(self.token, "ping")
        self.assertEqual(r.header("X-Content-Type-Options"), "nosniff")
        self.assertEqual(r.header("Cache-Control"), "no-store")

    def test_rate_limit(self):
        web = self.stack.add_web("mcp-rate", self.stack.write_config("mcp-rate", requests_per_minute=4))
        tok = self.stack.new_token(self.u.id, MCP_SCOPES)
        wait_for_window(20)
        remaining = []
        for i in range(4):
            r = self.rpc(tok, "ping", id=i, web=web)
            self.assertEqual(self.assertJsonRpc(r, i, "result"), {})
            self.assertEqual(r.header("X-RateLimit-Limit"), "4")
            remaining.append(int(r.header("X-RateLimit-Remaining")))
        self.assertEqual(remaining, [3, 2, 1, 0])
        for msg in ({"jsonrpc": "2.0", "id": 9, "method": "ping"},
                    {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "migrations-list"}}):
            r = self.post(tok, msg, web=web)
            self.assertRefused(r, 429, data_code="rate_limited")
            self.assertEqual(r.header("X-RateLimit-Remaining"), "0")
            self.assertTrue(r.header("Retry-After", "").isdigit(), r.describe())
            self.assertTrue(1 <= int(r.header("Retry-After")) <= 60, r.describe())
        # Other tokens are not affected.
        self.assertEqual(self.result(self.token, "ping", web=web), {})


# ---------------------------------------------------------------- tools/list

class McpToolsList(McpCase):

    def test_all_tools_described(self):
        tools = self.result(self.token, "tools/list")["tools"]
        self.assertEqual(sorted(t["name"] for t in tools), sorted(TOOLS))
        for t in tools:
            with self.subTest(tool=t["name"]):
                scope, ro, destructive, idem, open_world = TOOLS[t["name"]]
                self.assertTrue(re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", t["name"]))
                self.assertTrue(isinstance(t.get("title"), str) and t["title"])
                self.assertTrue(isinstance(t.get("description"), str) and t["description"])
                s = t["inputSchema"]
                self.assertEqual(s["type"], "object")
                self.assertIs(s["additionalProperties"], False)
                self.assertIsInstance(s["properties"], dict)
                for name in s.get("required", []):
                    self.assertIn(name, s["properties"])
                for name, p in s["properties"].items():
                    self.assertIn(p.get("type"), ("string", "integer", "boolean", "object", "array"), name)
                    self.assertTrue(p.get("description"), name)
                self.assertEqual(t["outputSchema"]["type"], "object")
                ann = t["annotations"]
                self.assertEqual((ann["readOnlyHint"], ann["destructiveHint"], ann["idempotentHint"],
                                  ann["openWorldHint"]), (ro, destructive, idem, open_world))
        self.assertNotIn("nextCursor", self.result(self.token, "tools/list"))

    def test_input_schemas(self):
        tools = {t["name"]: t for t in self.result(self.token, "tools/list")["tools"]}
        ls = tools["migrations-list"]["inputSchema"]
        self.assertEqual(set(ls["properties"]), {"status", "provider", "page", "per_page"})
        self.assertNotIn("required", ls)
        pp = ls["properties"]["per_page"]
        self.assertEqual((pp["type"], pp["minimum"], pp["maximum"], pp["default"]), ("integer", 1, 50, 20))
        self.assertEqual(ls["properties"]["page"]["minimum"], 1)
        self.assertEqual(ls["properties"]["status"]["enum"], RUN_STATES)
        self.assertEqual(ls["properties"]["provider"]["enum"], PROVIDERS)
        for name in ("migration-get", "migration-execute", "migration-retry-failed", "migration-cancel"):
            s = tools[name]["inputSchema"]
            self.assertEqual(list(s["properties"]), ["id"], name)
            self.assertEqual(s["properties"]["id"]["type"], "string")
            self.assertEqual(s["required"], ["id"], name)
        cr = tools["migration-create"]["inputSchema"]
        self.assertEqual(set(cr["properties"]), {"provider", "credentials", "options"})
        self.assertEqual(cr["properties"]["options"]["properties"], {"import_paused": {"type": "boolean"}})
        self.assertEqual(cr["required"], ["provider"])
        self.assertEqual(cr["properties"]["provider"]["enum"], PROVIDERS)
        creds = cr["properties"]["credentials"]
        self.assertEqual(creds["type"], "object")
        self.assertEqual(creds["additionalProperties"], {"type": "string"})
        for p, (required, optional) in harness.CREDENTIAL_FIELDS.items():
            self.assertIn(p, creds["description"])
            for f in required + optional:
                self.assertIn(f, creds["description"])
        de = tools["migration-delete"]["inputSchema"]
        self.assertEqual(set(de["properties"]), {"id", "confirm"})
        self.assertEqual(de["properties"]["confirm"]["type"], "boolean")
        self.assertEqual(de["required"], ["id"])
        rc = tools["migration-resolve-conflicts"]["inputSchema"]
        self.assertEqual(set(rc["properties"]), {"id", "strategy", "resource_ids"})
        self.assertEqual(rc["properties"]["strategy"]["enum"], ["skip", "overwrite", "duplicate"])
        self.assertEqual(rc["properties"]["resource_ids"]["type"], "array")
        self.assertEqual(sorted(rc["required"]), ["id", "strategy"])

    def test_scope_filtering(self):
        cases = {
            (): [],
            ("account:read",): ["migrations-list", "migration-get", "migration-resources", "migration-report"],
            ("account:write",): ["migration-create", "migration-execute", "migration-retry-failed",
                                 "migration-resolve-conflicts", "migration-cancel", "migration-resources-exclude",
                                 "migration-resources-include"],
            ("account:delete",): ["migration-delete", "migration-revert"],
            ("account:read", "account:delete"): ["migrations-list", "migration-get", "migration-resources",
                                                 "migration-report", "migration-delete", "migration-revert"],
            tuple(s for s in ACCOUNT_SCOPES if not s.startswith("account:")): [],
        }
        for scopes, want in cases.items():
            with self.subTest(scopes=scopes):
                tok = self.stack.new_token(self.u.id, ["mcp:use"] + list(scopes))
                self.assertEqual(sorted(self.tool_names(tok)), sorted(want))

    def test_call_without_tool_scope_is_forbidden(self):
        ro = self.stack.new_token(self.u.id, ["mcp:use", "account:read"])
        rid = self.stack.insert_run(self.u.id, status="awaiting_review")
        for name, args in (("migration-create", {"provider": "uptimerobot", "credentials": {"api_key": "k"}}),
                           ("migration-execute", {"id": rid}),
                           ("migration-delete", {"id": rid, "confirm": True}),
                           ("migration-cancel", {"id": rid})):
            with self.subTest(tool=name):
                body = self.call_err(name, args, "forbidden", token=ro)
                self.assertIn("account:", body["message"])
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        self.assertEqual(self.stack.count("migration_runs", "user_id=%d" % self.u.id), 1)
        wo = self.stack.new_token(self.u.id, ["mcp:use", "account:write"])
        self.call_err("migrations-list", {}, "forbidden", token=wo)
        self.call_err("migration-get", {"id": rid}, "forbidden", token=wo)

    def test_flag_off_hides_tools(self):
        self.stack.set_flag(False, self.u.id)
        try:
            self.assertEqual(self.tool_names(self.token), [])
            self.assertEqual(self.result(self.token, "ping"), {})
            self.assertIn("protocolVersion", self.result(self.token, "initialize", {"protocolVersion": LATEST}))
            unknown = self.rpc_error(self.token, "tools/call", {"name": "no-such-tool"})
            for name in TOOLS:
                with self.subTest(tool=name):
                    err = self.rpc_error(self.token, "tools/call",
                                         {"name": name, "arguments": {"id": str(uuid.uuid4())}})
                    self.assertEqual(err["message"], unknown["message"].replace("no-such-tool", name))
            # REST says 403 feature_disabled meanwhile; other users are unaffected.
            self.assertError(self.stack.request("GET", "/api/v1/migrations", token=self.token),
                             403, "feature_disabled")
            other = self.stack.new_user(MCP_SCOPES)
            self.assertEqual(sorted(self.tool_names(other.token)), sorted(TOOLS))
        finally:
            self.stack.set_flag(True, self.u.id)
        self.assertEqual(sorted(self.tool_names(self.token)), sorted(TOOLS))

    def test_unknown_tool(self):
        for name in ("no-such-tool", "migrations_list", "Migrations-List", "", "x" * 5000):
            with self.subTest(name=name[:20]):
                err = self.rpc_error(self.token, "tools/call", {"name": name, "arguments": {}})
                self.assertLess(len(err["message"]), 200)


# ------------------------------------------------------------------ the tools

class McpTools(McpCase):

    def assertNoHiddenKeys(self, value):
        leaked = set(keys_in(value)) & set(HIDDEN_KEYS)
        self.assertFalse(leaked, "hidden fields in the output: %s" % leaked)

    def test_list(self):
        base = time.time() - 3600
        rows = [{"status": RUN_STATES[i % len(RUN_STATES)], "provider": PROVIDERS[i % 3],
                 "created_at": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(base + i))} for i in range(57)]
        ids = self.stack.insert_runs(self.u.id, rows)
        self.stack.insert_run(self.stack.new_user().id)  # someone else's
        sc = self.call_ok("migrations-list")
        self.assertEqual(len(sc["data"]), 20)
        self.assertEqual(sc["meta"]["per_page"], 20)
        self.assertEqual(sc["meta"]["total"], 57)
        self.assertEqual([r["id"] for r in sc["data"]], list(reversed(ids))[:20], "newest first")
        for r in sc["data"]:
            self.assertIn("total_resources", r)
            self.assertIn("failed_resources", r)
        self.assertNoHiddenKeys(sc)
        sc = self.call_ok("migrations-list", {"per_page": 50, "page": 2})
        self.assertEqual(len(sc["data"]), 7)
        self.assertEqual(sc["meta"]["current_page"], 2)
        self.assertEqual(len(self.call_ok("migrations-list", {"per_page": 1})["data"]), 1)
        sc = self.call_ok("migrations-list", {"status": "failed", "provider": PROVIDERS[1], "per_page": 50})
        self.assertTrue(sc["data"])
        self.assertTrue(all(r["status"] == "failed" and r["provider"] == PROVIDERS[1] for r in sc["data"]))
        for args, field in (({"per_page": 51}, "per_page"), ({"per_page": 0}, "per_page"),
                            ({"per_page": 100}, "per_page"), ({"per_page": "5"}, "per_page"),
                            ({"per_page": 5.5}, "per_page"), ({"page": 0}, "page"),
                            ({"status": "nope"}, "status"), ({"provider": "nope"}, "provider"),
                            ({"status": 3}, "status"), ({"perpage": 5}, "perpage"),
                            ({"per_page": 51, "bogus": True}, "per_page")):
            with self.subTest(args=args):
                self.call_err("migrations-list", args, "validation_failed", field)
        body = self.call_err("migrations-list", {"per_page": 51, "bogus": True}, "validation_failed")
        self.assertEqual(set(body["errors"]), {"per_page", "bogus"})

    def test_get(self):
        rid = self.stack.insert_run(self.u.id, status="completed_with_errors",
                                    credentials=b"\x01" * 40, checkpoint="monitors:50",
                                    plan=json.dumps({"x": 1}))
        self.stack.insert_resources(rid, 300, status="pending", external_data=json.dumps({"raw": 1}),
                                    normalized_data=json.dumps({"n": 1}))
        self.stack.insert_resources(rid, 200, status="failed", error_message="boom", attempts=3)
        self.stack.insert_resources(rid, 10, status="imported", target_model="monitor", target_id=7)
        self.stack.sql("INSERT INTO migration_run_logs (run_id, level, message, context, logged_at) VALUES "
                       + ", ".join("(%s, 'info', %s, NULL, DATE_SUB(UTC_TIMESTAMP(6), INTERVAL %d SECOND))"
                                   % (q(rid), q("log %02d" % i), 120 - i) for i in range(60)))
        sc = self.call_ok("migration-get", {"id": rid})
        d = sc["data"]
        self.assertEqual(d["id"], rid)
        self.assertEqual(d["status"], "completed_with_errors")
        self.assertEqual(len(d["resources"]), 500)
        for res in d["resources"][:3]:
            for f in harness.RESOURCE_FIELDS:
                self.assertIn(f, res)
        self.assertEqual(len(d["logs"]), 50)
        self.assertEqual([l["message"] for l in d["logs"]], ["log %02d" % i for i in range(59, 9, -1)],
                         "the 50 most recent, newest first")
        for f in harness.LOG_FIELDS:
            self.assertIn(f, d["logs"][0])
        counts = sc["meta"]["resource_counts"]
        self.assertEqual((counts["pending"], counts["failed"], counts["imported"]), (300, 200, 10))
        self.assertEqual(counts.get("conflict", 0), 0)
        self.assertNoHiddenKeys(sc)
        # Upper-case UUIDs name the same run.
        self.assertEqual(self.call_ok("migration-get", {"id": rid.upper()})["data"]["id"], rid)

    def test_an_answer_of_megabytes_arrives_whole(self):
        """500 resources with long error messages full of quotes: the tool answer is over 2 MB (the
        FastCGI responder sends it in several batches of 64 KB records) and every byte arrives."""
        rid = self.stack.insert_run(self.u.id, status="completed_with_errors")
        piece = 'HTTP 500 "%s" \\ \u00e9\u20ac ' % ("x" * 40)
        message = piece * 60
        self.stack.insert_resources(rid, 500, status="failed", attempts=2)
        self.stack.sql("UPDATE migration_run_resources SET error_message = REPEAT(%s, 60) WHERE run_id = %s"
                       % (q(piece), q(rid)))
        r = self.rpc(self.token, "tools/call", {"name": "migration-get", "arguments": {"id": rid}})
        self.assertGreater(len(r.body), 2 * 1024 * 1024, "the answer is not as large as this test needs")
        if r.header("Content-Length") is not None:  # mod_proxy_fcgi sends the body chunked instead
            self.assertEqual(int(r.header("Content-Length")), len(r.body))
        sc = self.call_ok("migration-get", {"id": rid})
        self.assertEqual([x["error_message"] for x in sc["data"]["resources"]], [message] * 500)
        r = self.u.request("GET", "/api/v1/migrations/%s" % rid)
        self.assertStatus(r, 200)
        self.assertEqual([x["error_message"] for x in r.json["data"]["resources"]], [message] * 500)

    def test_not_found_is_one_error(self):
        mine = self.stack.insert_run(self.u.id)
        foreign = self.stack.insert_run(self.stack.new_user().id)
        texts = set()
        for name, extra in (("migration-get", {}), ("migration-execute", {}), ("migration-retry-failed", {}),
                            ("migration-cancel", {}), ("migration-delete", {"confirm": True}),
                            ("migration-delete", {}), ("migration-revert", {"confirm": True}),
                            ("migration-revert", {}),
                            ("migration-resolve-conflicts", {"strategy": "skip"})):
            for rid in (str(uuid.uuid4()), foreign, "not-a-uuid", mine + "0", ""):
                with self.subTest(tool=name, id=rid):
                    body = self.call_err(name, dict(extra, id=rid), "not_found")
                    texts.add(json.dumps(body, sort_keys=True))
            # id of the wrong type: the same answer too
            body = self.call_err(name, dict(extra, id=12345), "not_found")
            texts.add(json.dumps(body, sort_keys=True))
        self.assertEqual(len(texts), 1, texts)
        self.assertEqual(self.stack.count("migration_runs", "id=%s" % q(foreign)), 1)
        # A missing id is a validation error, not a lookup.
        self.call_err("migration-get", {}, "validation_failed", "id")
        self.call_err("migration-get", None, "validation_failed", "id", omit_arguments=True)

    def test_create(self):
        secret = "tool-secret-" + uuid.uuid4().hex
        sc = self.call_ok("migration-create", {"provider": "uptimerobot", "credentials": {"api_key": secret}})
        run = sc["data"]
        self.assertTrue(re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", run["id"]))
        self.assertEqual((run["provider"], run["status"]), ("uptimerobot", "pending"))
        self.assertNoHiddenKeys(sc)
        self.assertEqual(self.stack.run_status(run["id"]), "pending")
        self.assertEqual(self.stack.count("jobs", "run_id=%s AND queue='discovery'" % q(run["id"])), 1)
        self.assertNotIn(secret.encode(), self.stack.dump_db(), "credentials stored in clear")
        got = self.call_ok("migration-get", {"id": run["id"]})
        self.assertNotIn(secret, json.dumps(got))
        self.assertEqual(got["data"]["logs"][0]["context"].get("via"), "tool")
        # Another provider's fields.
        sc = self.call_ok("migration-create", {"provider": "whmcs", "credentials": {
            "url": "https://billing.example.test", "api_identifier": "i", "api_secret": secret}})
        self.assertEqual(sc["data"]["provider"], "whmcs")

    def test_create_validation(self):
        for args, field in (({}, "provider"),
                            ({"provider": "nope"}, "provider"),
                            ({"provider": 5}, "provider"),
                            ({"provider": "uptimerobot"}, "credentials.api_key"),
                            ({"provider": "uptimerobot", "credentials": {}}, "credentials.api_key"),
                            ({"provider": "uptimerobot", "credentials": "k"}, "credentials"),
                            ({"provider": "uptimerobot", "credentials": {"api_key": 5}}, "credentials.api_key"),
                            ({"provider": "uptimerobot", "credentials": {"api_key": "k", "x": "y"}},
                             "credentials.x"),
                            ({"provider": "whmcs", "credentials": {"url": "ftp://x", "api_identifier": "i",
                                                                   "api_secret": "s"}}, "credentials.url"),
                            ({"provider": "uptimerobot", "credentials": {"api_key": "k"}, "extra": 1}, "extra")):
            with self.subTest(args=args):
                user = self.stack.new_user(MCP_SCOPES)  # a fresh start-limit bucket
                body = self.call_err("migration-create", args, "validation_failed", field, token=user.token)
                self.assertNotIn("sekrit", json.dumps(body))
                self.assertEqual(self.stack.count("migration_runs", "user_id=%d" % user.id), 0)
        user = self.stack.new_user(MCP_SCOPES)
        body = self.call_err("migration-create", {"provider": "uptimerobot", "credentials": {"api_key": "sekrit",
                                                                                             "bogus": "sekrit2"}},
                             "validation_failed", "credentials.bogus", token=user.token)
        self.assertNotIn("sekrit", json.dumps(body), "credential values echoed")

    def test_start_limit_shared_with_rest(self):
        user = self.stack.new_user(MCP_SCOPES)
        wait_for_window(30)
        body = {"provider": "uptimerobot", "credentials": {"api_key": "k"}}
        for i in range(3):
            self.assertStatus(self.stack.request("POST", "/api/v1/migrations", token=user.token, body=body), 201)
        for i in range(2):
            self.call_ok("migration-create", body, token=user.token)
        err = self.call_err("migration-create", body, "discovery_rate_limited", token=user.token)
        self.assertIn("retry_after", err)
        self.assertError(self.stack.request("POST", "/api/v1/migrations", token=user.token, body=body),
                         429, "discovery_rate_limited")
        self.assertEqual(self.stack.count("migration_runs", "user_id=%d" % user.id), 5)
        # Reading is not limited by starts.
        self.call_ok("migrations-list", {}, token=user.token)

    def test_execute(self):
        rid = self.stack.insert_run(self.u.id, status="awaiting_review")
        sc = self.call_ok("migration-execute", {"id": rid})
        self.assertEqual(sc["data"], {"id": rid, "status": "executing"})
        self.assertTrue(sc["message"])
        self.assertEqual(self.stack.run_status(rid), "executing")
        self.assertEqual(self.stack.count("jobs", "run_id=%s AND queue='planning'" % q(rid)), 1)
        body = self.call_err("migration-execute", {"id": rid}, "run_not_awaiting_review")
        self.assertIn("executing", body["message"])
        for st in ("pending", "discovering", "completed", "failed", "cancelled", "paused_conflicts"):
            with self.subTest(status=st):
                other = self.stack.insert_run(self.u.id, status=st)
                self.call_err("migration-execute", {"id": other}, "run_not_awaiting_review")
                self.assertEqual(self.stack.run_status(other), st)

    def test_retry_failed(self):
        rid = self.stack.insert_run(self.u.id, status="completed_with_errors")
        self.stack.insert_resources(rid, 2, status="failed", attempts=3, error_message="boom")
        self.stack.insert_resources(rid, 3, status="imported")
        sc = self.call_ok("migration-retry-failed", {"id": rid})
        self.assertEqual(sc["retried"], 2)
        self.assertIsInstance(sc["retried"], int)
        self.assertEqual(self.stack.run_status(rid), "executing")
        # the runner sets them pending, in batches (test_bounded.py); one job is queued for it
        self.assertEqual(self.stack.count("jobs", "run_id=%s AND queue='resources' AND payload LIKE '{\"retry\":%%'"
                                          % q(rid)), 1)
        # those the queued job is to retry are not counted again
        self.call_err("migration-retry-failed", {"id": rid}, "no_failed_resources")
        fresh = self.stack.insert_run(self.u.id, status="completed")
        self.call_err("migration-retry-failed", {"id": fresh}, "no_failed_resources")
        gone = self.stack.insert_run(self.u.id, status="cancelled")
        self.stack.insert_resources(gone, 1, status="failed")
        self.call_err("migration-retry-failed", {"id": gone}, "run_cancelled")

    def test_resolve_conflicts(self):
        rid = self.stack.insert_run(self.u.id, status="paused_conflicts")
        ids = self.stack.insert_resources(rid, 3, status="conflict", action="conflict")
        sc = self.call_ok("migration-resolve-conflicts", {"id": rid, "strategy": "skip", "resource_ids": ids[:1]})
        self.assertEqual(sc["resolved"], 1)
        self.assertEqual(sc["data"]["status"], "paused_conflicts")
        sc = self.call_ok("migration-resolve-conflicts", {"id": rid, "strategy": "overwrite"})
        self.assertEqual(sc["resolved"], 2)
        self.assertEqual(sc["data"]["status"], "awaiting_review")
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        self.call_err("migration-resolve-conflicts", {"id": rid, "strategy": "skip"}, "run_not_paused")
        for args, field in (({"id": rid}, "strategy"), ({"id": rid, "strategy": "merge"}, "strategy"),
                            ({"id": rid, "strategy": "skip", "resource_ids": [0]}, "resource_ids"),
                            ({"id": rid, "strategy": "skip", "resource_ids": "1"}, "resource_ids")):
            with self.subTest(args=args):
                self.call_err("migration-resolve-conflicts", args, "validation_failed", field)

    def test_cancel(self):
        rid = self.stack.insert_run(self.u.id, status="pending")
        self.stack.insert_job(rid, "discovery")
        sc = self.call_ok("migration-cancel", {"id": rid})
        self.assertEqual(sc["data"]["status"], "cancelled")
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)
        self.call_err("migration-cancel", {"id": rid}, "run_not_cancellable")
        for st in ("completed", "completed_with_errors", "failed"):
            with self.subTest(status=st):
                other = self.stack.insert_run(self.u.id, status=st)
                self.call_err("migration-cancel", {"id": other}, "run_not_cancellable")

    def test_delete_needs_confirm(self):
        rid = self.stack.insert_run(self.u.id, status="completed")
        self.stack.insert_resources(rid, 3)
        self.stack.insert_logs(rid, [("info", "x", None, "2026-01-01 00:00:00")])
        where = "run_id=%s" % q(rid)
        for args in ({"id": rid}, {"id": rid, "confirm": False}, {"id": rid, "confirm": None}):
            with self.subTest(args=args):
                self.call_err("migration-delete", args, "confirmation_required")
        for confirm in ("true", 1, "yes", [True], {}):
            with self.subTest(confirm=confirm):
                self.call_err("migration-delete", {"id": rid, "confirm": confirm}, "validation_failed", "confirm")
        self.assertEqual(self.stack.count("migration_runs", "id=%s" % q(rid)), 1)
        self.assertEqual(self.stack.count("migration_run_resources", where), 3)
        self.assertEqual(self.stack.count("migration_run_logs", where), 1)
        sc = self.call_ok("migration-delete", {"id": rid, "confirm": True})
        self.assertEqual((sc["deleted"], sc["id"]), (True, rid))
        self.assertEqual(self.stack.count("migration_runs", "id=%s" % q(rid)), 0)
        self.assertEqual(self.stack.count("migration_run_resources", where), 0)
        self.assertEqual(self.stack.count("migration_run_logs", where), 0)
        self.call_err("migration-delete", {"id": rid, "confirm": True}, "not_found")
        self.call_err("migration-get", {"id": rid}, "not_found")

    def test_internal_error_is_generic(self):
        # Without a credentials key migration-create cannot seal: an internal error.
        web = self.web_with("nokey", replace={r"^key_file = .*$": "key_file = /nonexistent/migrator.key"})
        r = self.rpc(self.token, "tools/call", {"name": "migration-create", "arguments": {
            "provider": "uptimerobot", "credentials": {"api_key": "k"}}}, web=web)
        res = self.assertJsonRpc(r, 1, "result")
        self.assertIs(res.get("isError"), True, res)
        self.assertNotIn("structuredContent", res)
        body = json.loads(res["content"][0]["text"])
        self.assertEqual(body["code"], "internal_error")
        self.assertTrue(re.fullmatch(r"[0-9a-f]{16}", body.get("request_id", "")), body)
        self.assertNotIn("key", body["message"].lower())
        def logged():
            return web.log_tail(200) + harness.tail(web.proc.log, 200)
        deadline = time.time() + 5
        while body["request_id"] not in logged() and time.time() < deadline:
            time.sleep(0.1)
        self.assertIn(body["request_id"], logged(), "the detail is logged with the request id")
        self.assertIn("key_file", logged())


# --------------------------------------------- official SDK client, conformance

def node_setup():
    """Install (or reuse) the npm packages; returns the folder."""
    r = subprocess.run(["sh", os.path.join(MCP_DIR, "setup.sh"), NODE_DIR], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=900)
    if r.returncode != 0:
        raise AssertionError("tests/mcp/setup.sh failed (%d):\n%s" % (r.returncode, r.stderr[-3000:]))
    return r.stdout.strip().splitlines()[-1]


class McpOfficialClients(McpCase):
    node_dir = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.node_dir = node_setup()

    def test_sdk_client_lifecycle(self):
        url = self.stack.web.base + "/mcp"
        env = dict(os.environ, MCP_NODE_DIR=self.node_dir, MCP_WAIT_SECONDS="60")
        p = subprocess.Popen(["node", os.path.join(MCP_DIR, "client.mjs"), url, self.token],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        lines = []
        rid = None
        watchdog = threading.Timer(180, p.kill)  # a hung client must not hang the suite
        watchdog.start()
        try:
            for line in p.stdout:
                lines.append(line.rstrip("\n"))
                if line.startswith("CREATED "):
                    rid = line.split()[1]
                    # Discovery is the runner's job; here the test finishes it.
                    self.stack.sql("UPDATE migration_runs SET status='awaiting_review' WHERE id=%s AND user_id=%d"
                                   % (q(rid), self.u.id))
            rc = p.wait(30)
        finally:
            watchdog.cancel()
            if p.poll() is None:
                p.kill()
                p.wait()
        output = "\n".join(lines)
        self.assertEqual(rc, 0, output)
        self.assertEqual(lines[-1], "RESULT ok", output)
        steps = [json.loads(l[5:]) for l in lines if l.startswith("STEP ")]
        self.assertEqual(steps[0]["serverInfo"]["name"], "migrator")
        self.assertEqual(steps[0]["protocolVersion"], LATEST)
        self.assertIsNone(steps[0]["sessionId"])
        self.assertEqual(sorted(steps[1]["tools"]), sorted(TOOLS))
        called = {s["tool"] for s in steps if "tool" in s}
        self.assertTrue(set(TOOLS) <= called, "not every tool was called: %s" % (set(TOOLS) - called))
        errors = [s["code"] for s in steps if s.get("isError")]
        self.assertEqual(errors, ["run_not_awaiting_review", "no_failed_resources", "run_not_paused",
                                  "confirmation_required", "confirmation_required", "not_found"], output)
        self.assertIsNotNone(rid)
        self.assertEqual(self.stack.count("migration_runs", "id=%s" % q(rid)), 0, "the run was deleted")

    def test_sdk_client_bad_token(self):
        url = self.stack.web.base + "/mcp"
        env = dict(os.environ, MCP_NODE_DIR=self.node_dir)
        r = subprocess.run(["node", os.path.join(MCP_DIR, "client.mjs"), url, "1|nope"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, env=env, timeout=60)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("401", r.stdout)

    def test_conformance_suite(self):
        out = os.path.join(self.stack.tmp, "conformance")
        r = subprocess.run(["sh", os.path.join(MCP_DIR, "conformance.sh"), self.node_dir, self.stack.web.base,
                            self.token, out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=300)
        self.assertEqual(r.returncode, 0, r.stdout[-6000:])
        for s in ("server-initialize", "tools-list", "ping", "dns-rebinding-protection"):
            self.assertIn("SCENARIO %s passed" % s, r.stdout)
