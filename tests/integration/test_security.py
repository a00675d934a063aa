"""Hostile input (issue 12) over real HTTP with the real runner: a provider
that echoes a credential in every form leaves no fragment of it in any
answer, run log or database row; requests that cannot be read faithfully are
refused with a JSON error instead of being cut; credential values with
control characters are a 422, never a 500; a FastCGI request whose
CONTENT_LENGTH is malformed or longer than its body is a 400, never an empty
or short body; a JSON-RPC id that is not a finite
number is refused; a run larger than [limits] max_resources stops, and so
does a provider that pages for ever, at [limits] max_pages.
"""

import base64
import html
import json
import os
import re
import secrets
import socket
import sys
import time
import urllib.parse

import harness
from harness import q
from test_runner import RunnerTestCase, PROVIDER


def runs_of(text, secret, n=12):
    """The n-character runs of secret found in text."""
    return sorted({secret[i:i + n] for i in range(len(secret) - n + 1) if secret[i:i + n] in text})


def views(text):
    """text as a reader might decode it: as it is, percent-decoded once and
    twice, JSON \\uXXXX decoded (alone and after percent-decoding), HTML
    references decoded; each lower-cased (an echo may change the case)."""
    def unjson(t):
        return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), t)
    once = urllib.parse.unquote(text)
    return [v.lower() for v in (text, once, urllib.parse.unquote(once), unjson(text), unjson(once),
                                html.unescape(text))]


class TestEchoedSecrets(RunnerTestCase):

    def test_a_provider_echoing_the_key_in_every_form_leaves_no_fragment(self):
        # characters that HTML, JSON and URLs each escape in their own way
        key = "ur-" + secrets.token_urlsafe(24) + "&<b>/'+"
        self.account(monitors=3, heartbeats=0, contacts=1, status_pages=0, key=key)
        # UptimeRobot's own bad-key shape (providers.md §1.4), its message stuffed with the key's forms;
        # the key sits at the very end too, where a cut at 160 characters would once have left a part
        message = ("api_key {secret} not found; form {pct}; twice {pct2}; header Basic {b64}; tail {b64_tail}; "
                   "json {json}; json in a URL {json_pct}; html {html}; {html_dec}; {html_hex}; "
                   "upper {upper}; split {split}; " + "x" * 120 + " {tail}")
        self.faults({"kind": "echo", "times": 0, "match": "getMonitors",
                     "body": json.dumps({"stat": "fail", "error": {"type": "invalid_parameter",
                                                                   "parameter_name": "api_key",
                                                                   "message": message}})})
        user = self.user()
        rid = self.start(user, key)
        self.assertEqual(self.drive(rid, ("failed", "awaiting_review")), "failed")
        run = self.get(user, rid)["data"]
        self.assertIn("UptimeRobot rejected the API key", run["error_message"])
        b64 = base64.b64encode(("user:" + key).encode()).decode()
        b64_key = base64.b64encode(key.encode()).decode().rstrip("=")
        everything = [json.dumps(run), json.dumps(self.logs(user, rid)),
                      self.stack.dump_db().decode("utf-8", "replace")]
        with open(self.stack.web.errorlog, errors="replace") as f:
            everything.append(f.read())
        for text in everything:
            for view in views(text):
                self.assertEqual(runs_of(view, key.lower()), [], "a part of the key is left")
            self.assertEqual(runs_of(text, b64[8:]), [], "a part of its base64 is left")
            self.assertEqual(runs_of(text, b64_key), [], "a part of its own base64 is left")
        harness.fake_call(self.stack, "DELETE", "/_control/%s/faults" % PROVIDER)

    def test_a_key_in_a_successful_answer_is_not_stored(self):
        key = "ur-" + secrets.token_urlsafe(24) + "&<b>/'+"
        self.account(monitors=2, heartbeats=0, contacts=1, status_pages=0, key=key)
        # monitors whose names carry the key in one form each (a provider bug, or a user's own paste)
        forms = ["{secret}", "{pct}", "{pct2}", "{b64_tail}", "{json_pct}", "{html}", "{html_dec}",
                 "{html_hex}", "{upper}", "{split}"]
        monitors = ",".join('{"id":%d,"friendly_name":"mon %s","url":"https://a%d.example.com/?k={pct}","type":1,'
                            '"interval":300,"status":2}' % (i + 1, form, i) for i, form in enumerate(forms))
        body = ('{"stat":"ok","pagination":{"offset":0,"limit":50,"total":%d},"monitors":[%s]}'
                % (len(forms), monitors))
        self.faults({"kind": "echo", "times": 1, "match": "getMonitors", "body": body})
        user = self.user()
        rid = self.start(user, key)
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        self.execute(user, rid)
        self.drive(rid, ("completed", "completed_with_errors"))
        dump = self.stack.dump_db().decode("utf-8", "replace")
        for view in views(dump):
            self.assertEqual(runs_of(view, key.lower()), [], "a part of the key is left")
        self.assertEqual(runs_of(dump, base64.b64encode(key.encode()).decode().rstrip("=")), [])
        self.assertEqual(self.count("monitors", user), len(forms))
        self.assertIn("mon [redacted]", dump)


class TestRefusedNotCut(RunnerTestCase):

    def test_a_path_too_long_is_414_and_a_header_too_long_is_431(self):
        user = self.user()
        r = user.request("GET", "/api/v1/migrations/" + "a" * 1100)
        self.assertError(r, 414, "uri_too_long")
        r = self.stack.request("GET", "/api/v1/me", token="1|" + "x" * 5000)
        self.assertError(r, 431, "headers_too_large")
        r = user.request("POST", "/mcp", body={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                         headers={"Accept": "application/json, text/event-stream",
                                  "MCP-Protocol-Version": "2025-06-18" + "9" * 5000})
        self.assertError(r, 431, "headers_too_large")

    def test_credentials_with_control_characters_are_422_at_any_length(self):
        user = self.user()
        for value in ("\x01" * 2048, "abc\ndef", "k\x7f"):
            r = user.request("POST", "/api/v1/migrations",
                             body={"provider": "whmcs", "credentials": {"url": "https://billing.example.com",
                                                                        "api_identifier": value,
                                                                        "api_secret": value}})
            self.assertError(r, 422, "validation_failed")
            self.assertIn("credentials.api_secret", r.json["errors"])
            self.assertNotIn(value, r.text)
        # every field at its longest, with characters JSON escapes: accepted (never a 500)
        long = "/\"\\" * 682 + "ab"
        r = user.request("POST", "/api/v1/migrations",
                         body={"provider": "whmcs", "credentials": {"url": "https://billing.example.com/" + "p" * 400,
                                                                    "api_identifier": long, "api_secret": long,
                                                                    "access_key": long}})
        self.assertStatus(r, 201)

    def test_an_rpc_id_that_is_not_a_finite_number_is_refused(self):
        user = self.user(scopes=["account:read", "mcp:use"])
        for raw in ('{"jsonrpc":"2.0","id":NaN,"method":"ping"}', '{"jsonrpc":"2.0","id":Infinity,"method":"ping"}',
                    '{"jsonrpc":"2.0","id":-Infinity,"method":"ping"}'):
            r = user.request("POST", "/mcp", raw_body=raw,
                             headers={"Accept": "application/json, text/event-stream",
                                      "MCP-Protocol-Version": "2025-06-18"})
            self.assertIn(r.status, (200, 400), r.describe())
            self.assertIn("error", r.json, r.describe())
            self.assertNotIn("NaN", r.text)
            self.assertNotIn("Infinity", r.text)


class TestPrivateAddresses(RunnerTestCase):
    """A user's provider URL (WHMCS here) that leads to this machine, in any
    spelling, is refused by the runner before a connection is made."""

    FORMS = ["http://127.0.0.1:%d/whmcs", "http://0177.0.0.1:%d/whmcs", "http://2130706433:%d/whmcs",
             "http://0x7f.1:%d/whmcs", "http://127.1:%d/whmcs", "http://[::ffff:127.0.0.1]:%d/whmcs",
             "http://[::1]:%d/whmcs", "http://localhost:%d/whmcs", "http://[0:0:0:0:0:ffff:7f00:1]:%d/whmcs"]

    def test_every_spelling_of_a_loopback_address_is_refused_before_connecting(self):
        cfg = harness.runner_config(self.stack, "no-private", lease_seconds=5, max_attempts=1)
        with open(cfg) as f:
            text = f.read()
        self.assertIn("allow_private_urls = true", text)
        strict = cfg + ".strict"
        with open(strict, "w") as f:
            f.write(text.replace("allow_private_urls = true", "allow_private_urls = false"))
        web = self.stack.add_web("no-private", strict)
        self.stack.sql("DELETE FROM jobs")
        harness.fake_call(self.stack, "DELETE", "/_control/requests")
        for form in self.FORMS:
            url = form % self.stack.fake_port
            user = self.user()  # a user may start 5 runs a minute
            with self.subTest(url=url):
                creds = {"url": url, "api_identifier": "id-x", "api_secret": "secret-x"}
                r = self.stack.request("POST", "/api/v1/migrations", token=user.token, web=web,
                                       body={"provider": "whmcs", "credentials": creds})
                self.assertStatus(r, 201)
                rid = r.json["data"]["id"]
                self.assertEqual(self.drive(rid, ("failed", "awaiting_review"), cfg=strict), "failed")
                msg = self.get(user, rid)["data"]["error_message"]
                self.assertRegex(msg, r"leads to a (loopback|reserved) address, which is not allowed")
        seen = harness.fake_call(self.stack, "GET", "/_control/requests?provider=whmcs")
        if isinstance(seen, dict):
            seen = seen.get("requests") or seen.get("data") or []
        self.assertEqual(seen or [], [])


class TestRunSizeLimit(RunnerTestCase):

    def test_a_run_over_max_resources_fails_naming_the_limit(self):
        cfg = harness.runner_config(self.stack, "small-runs", lease_seconds=5, max_attempts=3, max_resources=120)
        key = self.account(monitors=400, heartbeats=0, contacts=1, status_pages=0)
        user = self.user()
        rid = self.start(user, key)
        self.assertEqual(self.drive(rid, ("failed", "awaiting_review"), cfg=cfg), "failed")
        run = self.get(user, rid)["data"]
        self.assertIn("more than 120 resources", run["error_message"])
        self.assertIn("[limits] max_resources", run["error_message"])
        # it stopped reading at the limit: at most one page (50) over it was fetched
        n = self.stack.count("migration_run_resources", "run_id=%s" % q(rid))
        self.assertLessEqual(n, 120 + 50)
        pages = [x for x in self.fake_requests() if x["path"].endswith("getMonitors")]
        self.assertLess(len(pages), 8)


class TestPageLimit(RunnerTestCase):

    def endless_run(self):
        """A run started on a provider whose monitors list pages forever (the same 50 monitors at
        every offset, always "more": max_resources never trips), and a runner configuration
        allowing 30 pages. (cfg, user, run id)."""
        cfg = harness.runner_config(self.stack, "few-pages", lease_seconds=5, max_attempts=3, max_pages=30)
        key = self.account(monitors=50, heartbeats=0, contacts=1, status_pages=0)
        self.faults({"kind": "endless", "times": 0, "match": "getMonitors"})
        user = self.user()
        return cfg, user, self.start(user, key)

    def test_a_provider_that_pages_forever_fails_the_run_naming_max_pages(self):
        # more pages than one runner step reads (20): the count must survive the continuation
        cfg, user, rid = self.endless_run()
        t0 = time.time()
        self.assertEqual(self.drive(rid, ("failed", "awaiting_review"), cfg=cfg), "failed")
        took = time.time() - t0
        run = self.get(user, rid)["data"]
        self.assertIn("monitors list went on past 30 pages", run["error_message"])
        self.assertIn("[limits] max_pages", run["error_message"])
        errors = [l["message"] for l in self.logs(user, rid) if l["level"] == "error"]
        self.assertEqual(errors, [run["error_message"]])
        # exactly the pages allowed were read, not one more
        pages = [x for x in self.fake_requests() if x["path"].endswith("getMonitors")]
        self.assertEqual(len(pages), 30)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 50)
        self.assertLess(took, 60)
        sys.stdout.write("DRILL endless-pages: max_pages=30, pages_read=%d, seconds=%.1f\n" % (len(pages), took))

    def test_steps_that_end_after_each_page_ask_for_each_page_once(self):
        # A step that ends before the page it fetched ahead (here --step-resources, one page of 50;
        # in production its time, or a yield for fair share) used to drop that page, and the next
        # step asked for it again: 59 requests for 30 pages, none of them counted twice
        cfg, user, rid = self.endless_run()
        steps = 0
        while self.stack.run_status(rid) not in ("failed", "awaiting_review"):
            self.assertLess(steps, 60, "still %s after %d steps" % (self.stack.run_status(rid), steps))
            self.runner("--once", "--max-jobs", "1", "--step-resources", "50", cfg=cfg)
            steps += 1
        self.assertEqual(self.stack.run_status(rid), "failed")
        self.assertIn("monitors list went on past 30 pages", self.get(user, rid)["data"]["error_message"])
        pages = [x for x in self.fake_requests() if x["path"].endswith("getMonitors")]
        self.assertEqual(len(pages), 30)
        self.assertEqual(steps, 31, "a page a step, then the step that finds the limit")


class TestDeletingALargeRun(RunnerTestCase):

    def test_a_large_run_is_gone_at_once_and_removed_in_batches(self):
        user = self.user()
        rid = self.stack.insert_run(user.id, status="awaiting_review", provider="uptimerobot")
        self.stack.insert_resources(rid, 12000, status="pending")
        self.stack.insert_logs(rid, [("info", "log %d" % i, None, "2024-01-01 00:00:00") for i in range(3)])
        r = user.request("DELETE", "/api/v1/migrations/" + rid)
        self.assertStatus(r, 204)
        # gone for the API at once
        self.assertStatus(user.request("GET", "/api/v1/migrations/" + rid), 404)
        self.assertStatus(user.request("DELETE", "/api/v1/migrations/" + rid), 404)
        self.assertNotIn(rid, [x["id"] for x in user.request("GET", "/api/v1/migrations").json["data"]])
        self.assertEqual(self.stack.count("jobs", "run_id=%s AND queue='cleanup'" % q(rid)), 1)
        # the runner removes it in batches of 5000
        self.runner("--once")
        self.assertEqual(self.stack.count("migration_runs", "id=%s" % q(rid)), 0)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 0)
        self.assertEqual(self.stack.count("migration_run_logs", "run_id=%s" % q(rid)), 0)
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)
        # a small run is still deleted in the request
        small = self.stack.insert_run(user.id, status="completed", provider="uptimerobot")
        self.stack.insert_resources(small, 10, status="imported")
        self.assertStatus(user.request("DELETE", "/api/v1/migrations/" + small), 204)
        self.assertEqual(self.stack.count("migration_runs", "id=%s" % q(small)), 0)


class TestAdministratorsBaseUrl(RunnerTestCase):

    def test_an_administrators_base_url_replaces_the_users_url_field(self):
        with open(self.stack.config) as f:
            text = f.read()
        path = self.stack.config + ".admin-url"
        with open(path, "w") as f:
            f.write(text + "\n[provider.whmcs]\nbase_url = https://billing.example.com\n")
        web = self.stack.add_web("admin-url", path)
        user = self.user()
        creds = {"api_identifier": "id-1", "api_secret": "secret-1"}
        r = self.stack.request("POST", "/api/v1/migrations", token=user.token, web=web,
                               body={"provider": "whmcs", "credentials": creds})
        self.assertStatus(r, 201)
        r = self.stack.request("POST", "/api/v1/migrations", token=user.token, web=web,
                               body={"provider": "whmcs", "credentials": dict(creds, url="https://other.example")})
        self.assertError(r, 422, "validation_failed")
        self.assertIn("The administrator has set the whmcs address", r.json["errors"]["credentials.url"][0])
        # without it, the url is the user's and required
        r = user.request("POST", "/api/v1/migrations", body={"provider": "whmcs", "credentials": creds})
        self.assertError(r, 422, "validation_failed")
        self.assertIn("credentials.url", r.json["errors"])


class TestFastCgiFraming(RunnerTestCase):
    """What fcgi.c does with a CONTENT_LENGTH that cannot be trusted: refused with 400 JSON."""

    def test_a_malformed_or_unfulfilled_content_length_is_400_never_a_cut_body(self):
        sock = os.path.join(self.stack.tmp, "direct-fcgi.sock")
        proc = self.stack._spawn("direct-fcgi", [os.path.join(harness.BUILDDIR, "migrator.fcgi"),
                                                 "--config", self.stack.config, "--listen", sock],
                                 env=self.stack._mariadb_env())
        try:
            deadline = time.time() + 10
            while not os.path.exists(sock):
                self.assertLess(time.time(), deadline, "migrator.fcgi did not listen on " + sock)
                time.sleep(0.05)
            user = self.user()
            body = json.dumps({"provider": PROVIDER, "credentials": {"api_key": "k-framing"}}).encode()
            base = {"REQUEST_METHOD": "POST", "REQUEST_URI": "/api/v1/migrations", "REMOTE_ADDR": "127.0.0.1",
                    "CONTENT_TYPE": "application/json", "HTTP_AUTHORIZATION": "Bearer " + user.token}
            status, head, answer = harness.fcgi_call(sock, dict(base, CONTENT_LENGTH=str(len(body))), body)
            self.assertEqual(status, 201, answer)  # the same request, framed right, is taken
            for cl, sent in (("abc", body), ("12x", body), ("-1", body), (" 5", body), ("0x10", body),
                             (str(len(body) + 40), body)):
                with self.subTest(content_length=cl):
                    status, head, answer = harness.fcgi_call(sock, dict(base, CONTENT_LENGTH=cl), sent)
                    self.assertEqual(status, 400, answer)
                    self.assertIn("application/json", head)
                    self.assertEqual(json.loads(answer)["code"], "bad_request")
            self.assertEqual(self.stack.count("migration_runs", "user_id=%d" % user.id), 1)
        finally:
            proc.stop()
