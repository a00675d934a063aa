"""docs/openapi.yaml (docs/openapi.md): @redocly/cli lints it; the tools'
inputSchemas of this stack's tools/list equal the parameters of their REST
twins (tests/openapi/drift.mjs); REST accepts each query parameter up to its
described edges and refuses one step past them (tests/openapi/probe.mjs); and
the response validator that the release
suite runs over every recorded answer (tests/openapi/validate.mjs, see
run.sh) catches an answer that differs from the description. The npm tools
are installed by tests/openapi/setup.sh into $MIGRATOR_BUILDDIR/openapi-node."""

import json
import os
import re
import subprocess

import harness
from harness import ALL_SCOPES, ApiTestCase

CHECK = os.path.join(harness.SRCDIR, "tests", "openapi", "check.sh")
DOC = os.path.join(harness.SRCDIR, "docs", "openapi.yaml")


def check(*args, doc=None):
    env = dict(os.environ, MIGRATOR_BUILDDIR=harness.BUILDDIR)
    if doc is not None:
        env["OPENAPI_DOC"] = doc
    return subprocess.run(["sh", CHECK] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env, timeout=900)


class OpenApiDescription(ApiTestCase):

    def setUp(self):
        self.u = self.stack.new_user(ALL_SCOPES)
        self.dir = os.path.join(self.stack.tmp, "openapi")
        os.makedirs(self.dir, exist_ok=True)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def tools_file(self):
        r = self.req("POST", "/mcp", token=self.u.token,
                     body={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        self.assertStatus(r, 200)
        return self.write("tools.json", json.dumps(r.json["result"]))

    def test_lint_finds_no_error_or_warning(self):
        r = check("lint")
        self.assertEqual(r.returncode, 0, r.stdout[-6000:])
        self.assertIn("Your API description is valid", r.stdout)

    def test_every_tool_input_schema_equals_its_rest_operation(self):
        r = check("drift", self.tools_file())
        self.assertEqual(r.returncode, 0, r.stdout[-6000:])
        self.assertRegex(r.stdout, r"openapi drift: [1-9][0-9]* tools compared")

    def test_rest_query_parameters_are_validated_as_described(self):
        rid = self.stack.insert_run(self.u.id)
        r = check("probe", self.stack.web.base, self.u.token, rid)
        self.assertEqual(r.returncode, 0, r.stdout[-6000:])
        self.assertRegex(r.stdout, r"openapi probe: [0-9]{2,} requests")

    def test_drift_is_caught(self):
        """A description whose parameters differ from the service fails the drift check, naming each difference."""
        with open(DOC, encoding="utf-8") as f:
            text = f.read()
        changed, n = re.subn(r"default: 20, x-tool-maximum: 50", "default: 20, x-tool-maximum: 40", text, count=1)
        self.assertEqual(n, 1)
        changed, n = re.subn(r"enum: \[skip, overwrite, duplicate\]", "enum: [skip, overwrite]", changed)
        self.assertEqual(n, 1)
        r = check("drift", self.tools_file(), doc=self.write("drifted.yaml", changed))
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertRegex(r.stdout, r"migrations-list: argument per_page is .*\"maximum\":50.*says .*\"maximum\":40")
        self.assertRegex(r.stdout, r"migration-resolve-conflicts: argument strategy is .*duplicate")
        self.assertEqual(len([l for l in r.stdout.splitlines() if l.startswith("- ")]), 2, r.stdout)

    def test_validator_catches_a_response_that_differs(self):
        me = self.req("GET", "/api/v1/me", token=self.u.token)
        missing = self.req("GET", "/api/v1/migrations/00000000-0000-4000-8000-000000000000", token=self.u.token)
        self.assertStatus(me, 200)
        self.assertStatus(missing, 404)
        good = [json.loads(harness.response_line(x)) for x in (me, missing)]
        bad = [json.loads(harness.response_line(x)) for x in (me, missing)]
        bad[0]["body"]["data"]["token"] = "1|x"
        del bad[1]["headers"]["x-ratelimit-limit"]
        log = self.write("responses.jsonl", "".join(json.dumps(x) + "\n" for x in good + bad))
        r = check("validate", log)
        self.assertEqual(r.returncode, 1, r.stdout)
        mismatches = [l for l in r.stdout.splitlines() if l.startswith("- ") and "was recorded" not in l]
        self.assertEqual(len(mismatches), 2, r.stdout)
        self.assertIn("- GET /api/v1/me 200: body: /data must NOT have additional properties (token) (1x)",
                      mismatches)
        self.assertIn("- GET /api/v1/migrations/{run} 404: header X-RateLimit-Limit missing (1x)", mismatches)
