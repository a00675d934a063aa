"""scripts/dev.sh as a newcomer uses it (issue 13): it starts the whole
service and prints a token that works; Ctrl-C or SIGTERM stops every process
it started, 20 times over; a taken port is refused with a clear message
before anything starts. The WHMCS and self-hosted Healthchecks examples it
prints, and the README's WHMCS example, reach the demo data (issue 25 item 8).
"""

import json
import os
import re
import select
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

import harness
from harness import ApiTestCase

DEV = os.path.join(harness.SRCDIR, "scripts", "dev.sh")


def processes_mentioning(text):
    """Live processes whose command line contains text (zombies excluded)."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open("/proc/%s/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in cmd and state != "Z":
            out.append("%s %s" % (pid, cmd))
    return out


def port_open(port):
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


class TestDevScript(ApiTestCase):

    def start(self, var, port, fake_port):
        env = dict(os.environ, MIGRATOR_VAR=var, MIGRATOR_PORT=str(port), MIGRATOR_FAKE_PORT=str(fake_port))
        return subprocess.Popen(["bash", DEV], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)

    def read_until_running(self, p, timeout=120):
        out, deadline = b"", time.time() + timeout
        while b"export TOKEN=" not in out or not out.rstrip().endswith(b"tests/fakes/README.md"):
            if time.time() > deadline or p.poll() is not None:
                self.fail("dev.sh did not come up (exit %s):\n%s" % (p.poll(), out.decode(errors="replace")))
            r, _, _ = select.select([p.stdout], [], [], 0.5)
            if r:
                chunk = os.read(p.stdout.fileno(), 65536)
                if not chunk:
                    continue
                out += chunk
        return out.decode("utf-8", "replace")

    def user_url_examples_work(self, text, port, fake_port, token):
        """The start bodies dev.sh prints for whmcs and healthchecks (the address as a credential) and the
        README's whmcs example (its ports made this stack's) each reach awaiting_review with what the
        demo account holds."""
        printed = re.findall(r"-d '(\{\"provider\":\"(?:whmcs|healthchecks)\".*\})'", text)
        self.assertEqual(len(printed), 2, text)
        with open(os.path.join(harness.SRCDIR, "README.md")) as f:
            readme = re.findall(r"-d '(\{\"provider\":\"whmcs\".*\})'", f.read())
        self.assertEqual(len(readme), 1, "the README's whmcs example")
        bodies = printed + [readme[0].replace(":8090/", ":%d/" % fake_port)]
        api = "http://127.0.0.1:%d/api/v1/migrations" % port
        auth = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
        runs = []
        for body in bodies:
            req = urllib.request.Request(api, data=body.encode(), headers=auth, method="POST")
            with urllib.request.urlopen(req, timeout=10) as r:
                runs.append(json.loads(r.read())["data"]["id"])
        deadline = time.time() + 120
        for rid, body in zip(runs, bodies):
            while True:
                with urllib.request.urlopen(urllib.request.Request(api + "/" + rid, headers=auth), timeout=10) as r:
                    run = json.loads(r.read())["data"]
                if run["status"] != "pending" and run["status"] != "discovering":
                    break
                self.assertLess(time.time(), deadline, "still %s: %s" % (run["status"], body))
                time.sleep(0.5)  # dev.sh's runner works every 3 s; this only paces the reads
            self.assertEqual(run["status"], "awaiting_review", "%s: %s" % (body, run["error_message"]))
            want = {"whmcs": "hosting_client", "healthchecks": "heartbeat"}[json.loads(body)["provider"]]
            self.assertGreater(run["stats"]["discovered"].get(want, 0), 0, body)

    def test_twenty_starts_and_stops_leave_no_process(self):
        var = tempfile.mkdtemp(prefix="migrator-dev-", dir=self.stack.tmp)
        port, fake_port = harness.free_port(), harness.free_port()
        for i in range(20):
            p = self.start(var, port, fake_port)
            try:
                text = self.read_until_running(p)
                token = re.search(r"export TOKEN='([^']+)'", text).group(1)
                if i == 0:
                    req = urllib.request.Request("http://127.0.0.1:%d/api/v1/me" % port,
                                                 headers={"Authorization": "Bearer " + token})
                    with urllib.request.urlopen(req, timeout=10) as r:
                        self.assertEqual(json.loads(r.read())["data"]["name"], "Demo User")
                    self.user_url_examples_work(text, port, fake_port, token)
                p.send_signal(signal.SIGINT if i % 2 == 0 else signal.SIGTERM)
                p.wait(timeout=60)
            finally:
                if p.poll() is None:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
                p.stdout.close()
            left = processes_mentioning(var)
            self.assertEqual(left, [], "cycle %d left processes" % i)
            self.assertFalse(port_open(port), "cycle %d: the API port is still open" % i)
            self.assertFalse(port_open(fake_port), "cycle %d: the fake providers' port is still open" % i)

    def test_a_taken_port_is_refused_before_anything_starts(self):
        var = tempfile.mkdtemp(prefix="migrator-dev-", dir=self.stack.tmp)
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", 0))
            s.listen(1)
            taken = s.getsockname()[1]
            p = self.start(var, taken, harness.free_port())
            out, _ = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 1)
        self.assertIn("port %d on 127.0.0.1 is taken" % taken, out.decode())
        self.assertEqual(os.listdir(var), [])
