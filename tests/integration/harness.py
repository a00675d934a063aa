"""Integration test harness for migrator.

One Stack = a private MariaDB in a temporary folder, the migrator config and
credentials key, the schema (applied with `migratorctl db migrate`), a web
server running the real migrator.fcgi, and optionally the fake providers
(tests/fakes/fakeprov.py). Every process the harness starts runs in its own
process group and is stopped by Stack.stop(), which is idempotent and also
runs at interpreter exit; run.py turns SIGINT/SIGTERM into an exception so
that the same path runs on Ctrl-C.

Only the Python standard library is used.
"""

import atexit
import collections
import ctypes
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import unittest
import uuid
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.abspath(os.environ.get("MIGRATOR_SRCDIR") or os.path.join(HERE, "..", ".."))
BUILDDIR = os.path.abspath(os.environ.get("MIGRATOR_BUILDDIR") or os.path.join(SRCDIR, "build"))

PROVIDERS = ["uptimerobot", "pingdom", "statuscake", "better_stack", "updown",
             "healthchecks", "cronitor", "statuspage", "whmcs"]
# provider -> (required credential fields, optional credential fields)
CREDENTIAL_FIELDS = {
    "uptimerobot": (["api_key"], []),
    "pingdom": (["api_token"], []),
    "statuscake": (["api_token"], []),
    "better_stack": (["api_token"], ["team_name"]),
    "updown": (["api_key"], []),
    "healthchecks": (["api_key"], ["base_url"]),
    "cronitor": (["api_key"], []),
    "statuspage": (["api_key"], ["page_id"]),
    "whmcs": (["url", "api_identifier", "api_secret"], ["access_key"]),
}
USER_URL_PROVIDERS = ("whmcs", "healthchecks")  # their address is a credential field
RUN_STATES = ["pending", "discovering", "awaiting_review", "executing", "paused_conflicts",
              "completed", "completed_with_errors", "failed", "cancelled", "reverting", "reverted"]
RESOURCE_STATES = ["pending", "running", "imported", "skipped", "conflict", "failed", "excluded"]
ACCOUNT_SCOPES = ["%s:%s" % (g, t) for g in ("monitoring", "alerting", "infra", "account")
                  for t in ("read", "write", "delete")]
ALL_SCOPES = ACCOUNT_SCOPES + ["mcp:use"]
RUN_FIELDS = ["id", "provider", "status", "stats", "total_resources", "failed_resources",
              "error_message", "started_at", "finished_at", "created_at", "updated_at", "options"]
RESOURCE_FIELDS = ["id", "resource_type", "external_id", "name", "action", "status", "reason", "attempts",
                   "error_message"]
LOG_FIELDS = ["id", "level", "message", "context", "logged_at"]
# A run's resources r with their data d (the provider's, the normalized, the dropped ledger: sql/021).
WITH_DATA = ("migration_run_resources r JOIN migration_run_resource_data d "
             "ON d.run_id = r.run_id AND d.resource_id = r.id")
HIDDEN_KEYS = ["credentials", "checkpoint", "plan", "discovery_summary", "credentials_purge_at",
               "external_data", "normalized_data", "target_model", "target_id",
               "credentials_key_id"]

# Timezone the whole stack (mariadbd, web server, fcgi) runs in. Not UTC on
# purpose: the API must answer in UTC whatever the host's zone is.
DEFAULT_TZ = "Asia/Kolkata"


class HarnessError(Exception):
    pass


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_LISTEN_PORTS = set()   # given out by listen_port in this process


def listen_port():
    """A free port for a server that binds it only later, or again and again (a Galera node's
    IST and SST listeners, opened each time it joins): below the kernel's range for the local
    ends of outgoing connections (ip_local_port_range), where free_port() picks, since any
    connection could take such a port meanwhile (a joiner once failed: "Failed to open IST
    listener ... Address already in use", and the cluster with it)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    pick = random.SystemRandom()
    while True:
        port = pick.randrange(max(1024, low - 10000), low)
        if port in _LISTEN_PORTS:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _LISTEN_PORTS.add(port)
        return port


def _set_pdeathsig():
    # In the child, before exec: if the harness dies (even by SIGKILL), the
    # child gets SIGTERM, so nothing outlives a crashed test run.
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def tail(path, n=40, start=0):
    """Last n lines of a file (from byte offset start on), or ''."""
    try:
        with open(path, "rb") as f:
            f.seek(start)
            data = f.read()
    except OSError:
        return ""
    lines = data.decode("utf-8", "replace").splitlines()
    return "\n".join(lines[-n:])


def file_size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def sql_statements():
    """Every statement of src/db/*.def as the programs prepare them (their macros expanded by
    the C preprocessor, as src/db/stmts.c includes them): name -> SQL text, in their order."""
    defs = "".join('#include "%s"\n' % os.path.join(SRCDIR, "src", "db", d)
                   for d in ("sql_core.def", "sql_queue.def", "sql_runner.def"))
    out = subprocess.run(["gcc", "-E", "-P", "-x", "c", "-"], input="#define STMT(n, s) @n s\n" + defs,
                         capture_output=True, text=True, check=True).stdout
    return {m.group(1): "".join(json.loads(t) for t in re.findall(r"\"(?:[^\"\\]|\\.)*\"", m.group(2)))
            for m in re.finditer(r"@(\w+)((?:\s*\"(?:[^\"\\]|\\.)*\")+)", out)}


def q(value):
    """An SQL literal for a fixture value (the tests' own values only)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (dict, list)):
        value = json.dumps(value)
    if isinstance(value, bytes):
        return "0x" + value.hex() if value else "''"
    s = str(value).replace("\\", "\\\\").replace("'", "\\'").replace("\0", "\\0")
    return "'" + s + "'"


def fcgi_call(sock_path, params, stdin=b""):
    """One FastCGI responder request (FastCGI 1.0 specification, sections 3-5: BEGIN_REQUEST,
    PARAMS, STDIN, then STDOUT until END_REQUEST) straight to migrator.fcgi, so that params a web
    server would never pass reach it. Returns (status, headers text, body bytes)."""
    def record(rtype, content):
        return struct.pack("!BBHHBx", 1, rtype, 1, len(content), 0) + content

    def length(n):
        return bytes([n]) if n < 128 else struct.pack("!I", n | 0x80000000)

    pairs = b"".join(length(len(k)) + length(len(v)) + k + v
                     for k, v in ((k.encode(), v.encode()) for k, v in params.items()))
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(20)
    conn.connect(sock_path)
    try:
        conn.sendall(record(1, struct.pack("!HB5x", 1, 0)) + record(4, pairs) + record(4, b"")
                     + (record(5, stdin) if stdin else b"") + record(5, b""))
        data = b""
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        conn.close()
    out, pos = b"", 0
    while pos + 8 <= len(data):
        _, rtype, _, clen, plen = struct.unpack("!BBHHB", data[pos:pos + 7])
        if rtype == 6:
            out += data[pos + 8:pos + 8 + clen]
        pos += 8 + clen + plen
    head, _, body = out.partition(b"\r\n\r\n")
    status = int(head.split(b"Status: ", 1)[1][:3]) if b"Status: " in head else 200
    return status, head.decode(), body


class Proc:
    """A child process in its own process group, with its output in a file."""

    def __init__(self, name, argv, log, env=None, cwd=None, stdin=subprocess.DEVNULL):
        self.name = name
        self.argv = argv
        self.log = log
        self._logf = open(log, "ab")
        self.p = subprocess.Popen(argv, stdin=stdin, stdout=self._logf,
                                  stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                  start_new_session=True, preexec_fn=_set_pdeathsig)
        self.pid = self.p.pid
        self._done = False

    def alive(self):
        return self.p.poll() is None

    def stop(self, timeout=15):
        """SIGTERM the process group (the process and what it spawned), then SIGKILL.
        Idempotent."""
        if self._done:
            return
        if self.p.poll() is None:
            try:
                os.killpg(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.p.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        # Give what is left of the group (e.g. FastCGI children, which may run
        # sanitizer exit checks) a moment to exit, then kill it.
        deadline = time.time() + 5
        while time.time() < deadline:
            try:
                os.killpg(self.pid, 0)
            except (ProcessLookupError, PermissionError):
                break
            time.sleep(0.05)
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self._logf.close()
        self._done = True


class Response:
    """An HTTP answer: status, headers (case-insensitive), raw body, parsed JSON."""

    def __init__(self, method, path, req_headers, req_body, status, reason, headers, body):
        self.method = method
        self.path = path
        self.req_headers = req_headers
        self.req_body = req_body
        self.status = status
        self.reason = reason
        self.header_list = headers
        self.headers = {}
        for k, v in headers:
            self.headers.setdefault(k.lower(), v)
        self.body = body
        self.text = body.decode("utf-8", "replace")
        self.json = None
        self.json_error = None
        if body:
            try:
                self.json = json.loads(self.text)
            except ValueError as e:
                self.json_error = str(e)

    def header(self, name, default=None):
        return self.headers.get(name.lower(), default)

    def header_all(self, name):
        return [v for k, v in self.header_list if k.lower() == name.lower()]

    def __iter__(self):
        return iter((self.status, self.headers, self.json))

    def describe(self, limit=600):
        rb = self.req_body
        if isinstance(rb, bytes):
            rb = rb.decode("utf-8", "replace")
        if rb and len(rb) > 200:
            rb = rb[:200] + "...(%d bytes)" % len(self.req_body)
        auth = self.req_headers.get("Authorization")
        hdrs = {k: v for k, v in self.req_headers.items() if k != "Authorization"}
        if auth:
            hdrs["Authorization"] = auth[:12] + "..."
        body = self.text if len(self.text) <= limit else self.text[:limit] + "...(%d bytes)" % len(self.text)
        shown = {k: v for k, v in self.header_list if k.lower() in (
            "content-type", "allow", "location", "retry-after", "x-ratelimit-limit",
            "x-ratelimit-remaining", "cache-control", "x-content-type-options")}
        return "%s %s headers=%s body=%r\n  -> %s %s %s %s" % (
            self.method, self.path, hdrs, rb, self.status, self.reason, shown, body)

    __repr__ = describe


# MIGRATOR_RESPONSE_LOG=FILE: every /api/v1 answer is appended to FILE as one
# JSON line, for tests/openapi/validate.mjs (run by run.sh in the release suite).
RESPONSE_LOG = os.environ.get("MIGRATOR_RESPONSE_LOG")
_response_log_lock = threading.Lock()


def response_line(resp):
    """resp as one JSON line for tests/openapi/validate.mjs: method, concrete
    path with its query, status, headers, and the body (parsed, or as text
    when it is not JSON). Request headers, and so the token, are left out."""
    headers = {}
    for k, v in resp.header_list:
        k = k.lower()
        headers[k] = headers[k] + ", " + v if k in headers else v
    line = {"method": resp.method, "path": resp.path, "status": resp.status, "headers": headers}
    if resp.json_error is None:
        line["body"] = resp.json
    else:
        line["text"] = resp.text
    return json.dumps(line) + "\n"


def record_response(resp):
    """Append an /api/v1 answer to RESPONSE_LOG when it is set."""
    if not RESPONSE_LOG or not resp.path.startswith("/api/v1"):
        return
    text = response_line(resp)
    with _response_log_lock, open(RESPONSE_LOG, "a", encoding="utf-8") as f:
        f.write(text)


class User:
    def __init__(self, stack, uid, name, email, token, scopes):
        self.stack = stack
        self.id = uid
        self.name = name
        self.email = email
        self.token = token
        self.token_id = token.split("|", 1)[0]
        self.scopes = scopes

    def request(self, method, path, **kw):
        kw.setdefault("token", self.token)
        return self.stack.request(method, path, **kw)

    def new_token(self, scopes=None, name=None):
        return self.stack.new_token(self.id, scopes if scopes is not None else ALL_SCOPES, name)


# ---------------------------------------------------------------- web servers

class WebServer:
    """A web server running migrator.fcgi for /api/v1 and /mcp. Subclasses
    write their own config; the rest of the harness only uses base/port/
    errorlog/start/stop/log_tail."""

    kind = None

    def __init__(self, stack, label, config_path):
        self.stack = stack
        self.label = label
        self.config_path = config_path
        self.dir = os.path.join(stack.tmp, "web-" + label)
        os.makedirs(self.dir, exist_ok=True)
        self.port = None
        self.proc = None
        self.node = None  # galera: the node its config names first
        self.errorlog = os.path.join(self.dir, "error.log")

    @property
    def base(self):
        return "http://127.0.0.1:%d" % self.port

    def start(self):
        raise NotImplementedError

    def stop(self):
        if self.proc:
            self.proc.stop()
            self.proc = None

    def log_files(self):
        """The server's error log and its own stderr (which the FastCGI
        processes inherit: migrator.fcgi logs there)."""
        files = [self.errorlog]
        if self.proc:
            files.append(self.proc.log)
        return files

    def log_tail(self, n=40, start=0):
        return tail(self.errorlog, n, start)

    def wait_ready(self, timeout=20):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            if self.proc and not self.proc.alive():
                raise HarnessError("%s (%s) exited with %s\n%s\n%s" % (
                    self.kind, self.label, self.proc.p.returncode,
                    tail(self.proc.log), self.log_tail()))
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/api/v1/me", headers={"Accept": "application/json"})
                r = conn.getresponse()
                r.read()
                conn.close()
                if r.status not in (502, 503, 504):
                    return
                last = "HTTP %d" % r.status
            except OSError as e:
                last = str(e)
            time.sleep(0.1)
        raise HarnessError("%s (%s) not ready after %ss (%s)\n%s" % (
            self.kind, self.label, timeout, last, self.log_tail()))


def shipped_csp():
    """The review page's Content-Security-Policy as the shipped lighttpd snippet sets it."""
    import re
    with open(os.path.join(SRCDIR, "apache", "lighttpd-migrator.conf.in")) as f:
        m = re.search(r'"Content-Security-Policy" => "([^"]+)"', f.read())
    if not m:
        raise HarnessError("apache/lighttpd-migrator.conf.in sets no Content-Security-Policy")
    return m.group(1)


class Lighttpd(WebServer):
    kind = "lighttpd"

    def start(self):
        self.port = free_port()
        fcgi = os.path.join(BUILDDIR, "migrator.fcgi")
        env = '"MIGRATOR_CONFIG" => "%s", "TZ" => "%s"' % (self.config_path, self.stack.tz)

        def backend(sock, procs):
            return ('(( "bin-path" => "%s", "socket" => "%s", "check-local" => "disable", '
                    '"max-procs" => %d, "bin-environment" => ( %s ) ))' % (fcgi, sock, procs, env))

        conf = os.path.join(self.dir, "lighttpd.conf")
        with open(conf, "w") as f:
            f.write('server.port = %d\n' % self.port)
            f.write('server.bind = "127.0.0.1"\n')
            f.write('server.document-root = "%s"\n' % self.dir)
            f.write('server.errorlog = "%s"\n' % self.errorlog)
            f.write('server.pid-file = "%s"\n' % os.path.join(self.dir, "lighttpd.pid"))
            f.write('server.modules = ( "mod_fastcgi", "mod_alias", "mod_setenv", "mod_indexfile" )\n')
            f.write('server.stream-response-body = 1\n')  # as the shipped snippet sets it
            f.write('fastcgi.server = (\n  "/api/v1" => %s,\n  "/mcp" => %s\n)\n' % (
                backend(os.path.join(self.dir, "fcgi.sock"), 2),
                backend(os.path.join(self.dir, "fcgi-mcp.sock"), 1)))
            # the review page, served as the shipped snippet serves it
            f.write('mimetype.assign = ( ".html" => "text/html; charset=utf-8", '
                    '".js" => "text/javascript; charset=utf-8", ".css" => "text/css; charset=utf-8" )\n')
            f.write('alias.url = ( "/migrator/" => "%s/" )\n' % os.path.join(SRCDIR, "web", "migrator"))
            f.write('$HTTP["url"] =~ "^/migrator/" {\n  index-file.names = ( "index.html" )\n'
                    '  setenv.add-response-header = ( "Content-Security-Policy" => "%s", '
                    '"X-Content-Type-Options" => "nosniff", "Referrer-Policy" => "no-referrer" )\n}\n'
                    % shipped_csp())
        env_vars = dict(os.environ, TZ=self.stack.tz, MIGRATOR_CONFIG=self.config_path)
        self.proc = Proc("lighttpd-" + self.label, ["lighttpd", "-D", "-f", conf],
                         os.path.join(self.dir, "stdout.log"), env=env_vars)
        self.wait_ready()


APACHE_MODULES = "/usr/lib/apache2/modules"
APACHE_USER = "www-data"


def _readable_for_web(stack):
    """Apache runs as root here and drops to www-data: make the stack's temp
    folder, config files and key file readable for that user (group www-data)."""
    if os.geteuid() != 0:
        return
    import grp
    import pwd
    uid = pwd.getpwnam(APACHE_USER).pw_uid
    gid = grp.getgrnam(APACHE_USER).gr_gid
    # www-data runs migrator.fcgi from the build folder: each folder above it must let others in,
    # or Apache answers every request with its own 403 page (a checkout made with mktemp -d is 0700)
    d = BUILDDIR
    while d != os.path.dirname(d):
        if not os.stat(d).st_mode & 0o001:
            raise HarnessError("%s cannot enter %s (mode %o), so Apache could not run migrator.fcgi; "
                               "chmod o+x it" % (APACHE_USER, d, os.stat(d).st_mode & 0o777))
        d = os.path.dirname(d)
    os.chmod(stack.tmp, 0o755)
    for name in os.listdir(stack.tmp):
        path = os.path.join(stack.tmp, name)
        if os.path.isfile(path) and (name.endswith(".conf") or path == stack.key_file):
            os.chown(path, 0, gid)
            os.chmod(path, 0o640)
    return uid, gid


class Apache(WebServer):
    """Apache httpd (Debian layout) with mod_fcgid, configured from the shipped
    apache/migrator-fcgid.conf (built in MIGRATOR_BUILDDIR, install paths
    filled in): the test replaces the install paths by the build/temp ones
    and wraps it in a minimal main config."""

    kind = "apache"
    site_conf = "migrator-fcgid.conf"
    modules = ["mpm_event", "authz_core", "alias", "mime", "setenvif", "env", "fcgid", "headers", "dir"]

    def shipped_conf(self):
        path = os.path.join(BUILDDIR, "apache", self.site_conf)
        if not os.path.exists(path):
            raise HarnessError("%s not found (run make in MIGRATOR_BUILDDIR)" % path)
        with open(path) as f:
            return f.read()

    def errors_dir(self):
        # a copy of the shipped JSON error documents that www-data can read
        dst = os.path.join(self.dir, "errors")
        if not os.path.isdir(dst):
            shutil.copytree(os.path.join(SRCDIR, "apache", "errors"), dst)
        return dst

    def web_dir(self):
        # a copy of the review page that www-data can read
        dst = os.path.join(self.dir, "web")
        if not os.path.isdir(dst):
            shutil.copytree(os.path.join(SRCDIR, "web", "migrator"), dst)
        return dst

    def fill_in(self, text):
        """Replace the shipped install paths (config, program, error pages, review page)."""
        import re
        m = re.search(r'^Alias /migrator-errors "([^"]+)"', text, re.M)
        if not m:
            raise HarnessError("%s: no 'Alias /migrator-errors' line" % self.site_conf)
        text = text.replace(m.group(1), self.errors_dir())
        m = re.search(r'^Alias /migrator/ "([^"]+)/"', text, re.M)
        if not m:
            raise HarnessError("%s: no 'Alias /migrator/' line" % self.site_conf)
        text = text.replace(m.group(1), self.web_dir())
        m = re.search(r'^FcgidInitialEnv MIGRATOR_CONFIG (\S+)', text, re.M)
        if m:
            text = text.replace(m.group(1), self.config_path)
        m = re.search(r'^ScriptAlias /api/v1 "([^"]+)/migrator\.fcgi"', text, re.M)
        if m:
            text = text.replace(m.group(1), BUILDDIR)
        return text

    def main_conf(self, site):
        lines = ["ServerRoot %s" % self.dir,
                 "ServerName 127.0.0.1",
                 "Listen 127.0.0.1:%d" % self.port,
                 "PidFile %s" % os.path.join(self.dir, "httpd.pid"),
                 "DefaultRuntimeDir %s" % self.dir,
                 "ErrorLog %s" % self.errorlog,
                 "LogLevel warn",
                 "DocumentRoot %s" % self.dir,
                 "TypesConfig /etc/mime.types",
                 "Timeout 60",
                 "KeepAlive On"]
        for mod in self.modules:
            lines.append("LoadModule %s_module %s/mod_%s.so" % (mod, APACHE_MODULES, mod))
        if os.geteuid() == 0:
            lines += ["User %s" % APACHE_USER, "Group %s" % APACHE_USER]
        lines += ["<Directory />", "    AllowOverride None", "    Require all denied", "</Directory>"]
        lines += self.extra_main_conf()
        lines += ["", "# ---- shipped apache/%s (paths filled in by the test)" % self.site_conf, site]
        return "\n".join(lines) + "\n"

    def extra_main_conf(self):
        return ["FcgidIPCDir %s" % os.path.join(self.dir, "fcgid"),
                "FcgidProcessTableFile %s" % os.path.join(self.dir, "fcgid_shm"),
                "FcgidInitialEnv TZ %s" % self.stack.tz,
                "FcgidMaxProcessesPerClass 4",
                "FcgidMinProcessesPerClass 0"]

    def start_backend(self):
        pass

    def start(self):
        self.port = free_port()
        _readable_for_web(self.stack)
        os.chmod(self.dir, 0o755)
        self.start_backend()
        conf = os.path.join(self.dir, "httpd.conf")
        with open(conf, "w") as f:
            f.write(self.main_conf(self.fill_in(self.shipped_conf())))
        r = subprocess.run(["apache2", "-f", conf, "-t"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise HarnessError("apache2 -t %s: %s" % (conf, r.stdout.decode(errors="replace")))
        env_vars = dict(os.environ, TZ=self.stack.tz, MIGRATOR_CONFIG=self.config_path)
        self.proc = Proc("apache-" + self.label, ["apache2", "-f", conf, "-DFOREGROUND", "-k", "start"],
                         os.path.join(self.dir, "stdout.log"), env=env_vars)
        self.wait_ready()


class ApacheProxy(Apache):
    """Apache with mod_proxy_fcgi, configured from the shipped
    apache/migrator-proxy-fcgi.conf; migrator.fcgi kept on a unix socket by
    spawn-fcgi (-n: it execs the program, which stays in our process group)."""

    kind = "apache-proxy"
    site_conf = "migrator-proxy-fcgi.conf"
    modules = ["mpm_event", "authz_core", "alias", "mime", "setenvif", "env", "proxy", "proxy_fcgi", "headers", "dir"]
    backend_procs = 2

    def fill_in(self, text):
        import re
        text = Apache.fill_in(self, text)
        self.sock = os.path.join(self.dir, "fcgi.sock")
        m = re.search(r'^ProxyPass /api/v1 "unix:([^|"]+)\|', text, re.M)
        if not m:
            raise HarnessError("%s: no 'ProxyPass /api/v1 \"unix:...' line" % self.site_conf)
        return text.replace(m.group(1), self.sock)

    def extra_main_conf(self):
        return []

    def start_backend(self):
        fcgi = os.path.join(BUILDDIR, "migrator.fcgi")
        self.sock = os.path.join(self.dir, "fcgi.sock")
        env_vars = dict(os.environ, TZ=self.stack.tz, MIGRATOR_CONFIG=self.config_path)
        argv = ["spawn-fcgi", "-n", "-s", self.sock, "-M", "0660"]
        if os.geteuid() == 0:
            argv += ["-u", APACHE_USER, "-g", APACHE_USER, "-U", APACHE_USER, "-G", APACHE_USER]
        argv += ["--", fcgi]
        # spawn-fcgi -n execs one process on the socket; more processes share it
        # (each one accepts on the same listening socket, as with -F N).
        self.backends = [Proc("spawn-fcgi-%s" % self.label, argv,
                              os.path.join(self.dir, "fcgi.log"), env=env_vars)]
        deadline = time.time() + 10
        while not os.path.exists(self.sock):
            if not self.backends[0].alive() or time.time() > deadline:
                raise HarnessError("spawn-fcgi did not create %s:\n%s" % (self.sock, tail(self.backends[0].log)))
            time.sleep(0.05)

    def stop(self):
        Apache.stop(self)
        for p in getattr(self, "backends", []):
            p.stop()
        self.backends = []

    def log_files(self):
        return Apache.log_files(self) + [p.log for p in getattr(self, "backends", [])]


WEB_SERVERS = {"lighttpd": Lighttpd, "apache": Apache, "apache-proxy": ApacheProxy}


# ---------------------------------------------------------------------- galera

GALERA_PROVIDER = "/usr/lib/galera/libgalera_smm.so"
# Replication the way users should leave it on (docs/deploy.md): STRICT_REPLICATION refuses what
# Galera cannot replicate (e.g. MEMORY tables). MIGRATOR_GALERA_WSREP_MODE overrides it, only to
# try an older commit whose schema predates the cluster (never in CI).
GALERA_WSREP_MODE = os.environ.get("MIGRATOR_GALERA_WSREP_MODE", "STRICT_REPLICATION")
# MIGRATOR_GALERA_ONE_HOST=1: configs name their node with `socket =` instead of a `hosts` list
# (no failover), likewise only to try a commit older than the hosts list.
GALERA_ONE_HOST = os.environ.get("MIGRATOR_GALERA_ONE_HOST") == "1"


class GaleraNode:
    """One MariaDB node of the stack's Galera cluster: its folder tmp/node<i> (datadir, socket,
    error log, tmpdir), a TCP port, and the Galera ports (group communication, IST, SST) on
    127.0.0.1."""

    def __init__(self, stack, index, user, port, gport, ist_port, sst_port):
        self.stack = stack
        self.index = index
        self.user = user
        self.port, self.gport, self.ist_port, self.sst_port = port, gport, ist_port, sst_port
        self.dir = os.path.join(stack.tmp, "node%d" % index)
        self.datadir = os.path.join(self.dir, "data")
        self.tmpdir = os.path.join(self.dir, "tmp")
        self.sock = os.path.join(self.dir, "mysql.sock")
        self.err = os.path.join(self.dir, "mysqld.err")
        self.proc = None
        self.ready = False

    def argv(self, new_cluster=False):
        members = ",".join("127.0.0.1:%d" % n.gport for n in self.stack.nodes)
        argv = [
            "mariadbd", "--no-defaults", "--user=" + self.user, "--datadir=" + self.datadir,
            "--socket=" + self.sock, "--port=%d" % self.port, "--bind-address=127.0.0.1",
            "--pid-file=" + os.path.join(self.dir, "mysqld.pid"), "--log-error=" + self.err,
            "--tmpdir=" + self.tmpdir, "--innodb-buffer-pool-size=128M",
            "--innodb-flush-log-at-trx-commit=2", "--skip-log-bin",
            "--wsrep-on=ON", "--wsrep-provider=" + GALERA_PROVIDER,
            "--wsrep-cluster-name=migrator-it", "--wsrep-cluster-address=gcomm://" + members,
            "--wsrep-node-name=node%d" % self.index, "--wsrep-node-address=127.0.0.1:%d" % self.gport,
            "--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:%d;ist.recv_addr=127.0.0.1:%d;"
            "gcache.size=256M" % (self.gport, self.ist_port),
            "--wsrep-sst-method=rsync", "--wsrep-sst-receive-address=127.0.0.1:%d" % self.sst_port,
            "--binlog-format=ROW", "--innodb-autoinc-lock-mode=2",
        ]
        if GALERA_WSREP_MODE:
            argv.append("--wsrep-mode=" + GALERA_WSREP_MODE)
        if new_cluster:
            argv.append("--wsrep-new-cluster")
        return argv

    def start(self, new_cluster=False):
        if self.proc is not None and self.proc.alive():
            raise HarnessError("galera node %d is running" % self.index)
        self.ready = False
        self.proc = self.stack._spawn("node%d" % self.index, self.argv(new_cluster), env=self.env())

    def env(self):
        # its own temporary files (and a state transfer's) in its own folder, which its user owns
        return dict(self.stack._mariadb_env(), TMPDIR=self.tmpdir)

    def kill(self):
        """kill -9 (the process group: mariadbd and a state transfer it runs)."""
        p = self.proc
        self.ready = False
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.stop(timeout=5)
        if p in self.stack.procs:
            self.stack.procs.remove(p)

    def stop(self, timeout=60):
        """A clean shutdown (SIGTERM)."""
        p = self.proc
        self.ready = False
        p.stop(timeout=timeout)
        if p in self.stack.procs:
            self.stack.procs.remove(p)

    def client_argv(self, db="migrator"):
        argv = ["mariadb", "--no-defaults", "-uroot", "--socket=" + self.sock]
        return argv + ([db] if db else [])

    def status(self, name):
        r = subprocess.run(self.client_argv(None) + ["-N", "-B", "-e", "SHOW STATUS LIKE %s" % q(name)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        if r.returncode != 0:
            return None
        fields = r.stdout.decode(errors="replace").split()
        return fields[1] if len(fields) >= 2 else None

    def wait_synced(self, size=3, timeout=180):
        """Until this node answers wsrep_cluster_size=size, wsrep_ready=ON and
        wsrep_local_state_comment=Synced."""
        deadline = time.time() + timeout
        last = None
        while True:
            if not self.proc.alive():
                raise HarnessError("galera node %d exited:\n%s" % (self.index, tail(self.err)))
            r = subprocess.run(self.client_argv(None) + ["-N", "-B", "-e",
                               "SHOW STATUS WHERE Variable_name IN ('wsrep_cluster_size', 'wsrep_ready', "
                               "'wsrep_local_state_comment')"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
            if r.returncode == 0:
                st = dict(l.split("\t", 1) for l in r.stdout.decode(errors="replace").splitlines() if "\t" in l)
                last = st
                if (st.get("wsrep_cluster_size") == str(size) and st.get("wsrep_ready") == "ON"
                        and st.get("wsrep_local_state_comment") == "Synced"):
                    self.ready = True
                    return
            else:
                last = r.stderr.decode(errors="replace").strip()
            if time.time() > deadline:
                raise HarnessError("galera node %d not synced in a cluster of %d after %ds (%s):\n%s" % (
                    self.index, size, timeout, last, tail(self.err)))
            time.sleep(0.2)


class HAProxy:
    """Debian's haproxy in the stack's folder (tmp/haproxy), in the foreground (`haproxy -db -f
    haproxy.cfg`), in front of the three Galera nodes' TCP ports: the one-writer set-up of
    docs/deploy.md ("HAProxy with one writer"), whose `listen galera-writer` section it writes as
    the document shows it: node `writer` the one server, the other two `backup` (the first of them
    takes over), health checked with `option mysql-check user haproxy_check` (that user exists on
    the cluster, without password or grants). The global and defaults sections are the test's own:
    log to stdout (haproxy.log: a server going DOWN or UP is logged there), a stats socket
    (stats()), and Debian's default `timeout connect 5s`. Started by Stack.start_haproxy, stopped
    by Stack.stop_haproxy or Stack.stop()."""

    # the doc's health-check timing is this (docs/deploy.md shows the same section)
    CHECK = "inter 500ms fall 2 rise 2"

    def __init__(self, stack, writer):
        self.stack = stack
        self.writer = writer
        n = len(stack.nodes)
        self.order = [(writer + k) % n for k in range(n)]  # the writer, then its backups in turn
        self.dir = os.path.join(stack.tmp, "haproxy")
        self.conf = os.path.join(self.dir, "haproxy.cfg")
        self.stats_sock = os.path.join(self.dir, "stats.sock")
        self.port = None
        self.proc = None
        self.log = None

    def config_text(self):
        servers = ["    server node%d 127.0.0.1:%d check%s" % (i, self.stack.nodes[i].port,
                                                              "" if i == self.writer else " backup")
                   for i in self.order]
        return "\n".join([
            "global",
            "    log stdout format raw local0",
            "    stats socket %s mode 600 level admin" % self.stats_sock,
            "",
            "defaults",
            "    log global",
            "    option tcplog",
            "    timeout connect 5s",
            "",
            "listen galera-writer",
            "    bind 127.0.0.1:%d" % self.port,
            "    mode tcp",
            "    option tcpka",
            "    option mysql-check user haproxy_check",
            "    timeout client 1h",
            "    timeout server 1h",
            "    default-server " + self.CHECK,
        ] + servers) + "\n"

    def start(self, timeout=20):
        os.makedirs(self.dir, exist_ok=True)
        self.port = free_port()
        with open(self.conf, "w") as f:
            f.write(self.config_text())
        r = subprocess.run(["haproxy", "-c", "-f", self.conf], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise HarnessError("haproxy -c refused %s:\n%s" % (self.conf, r.stdout.decode(errors="replace")))
        self.proc = self.stack._spawn("haproxy", ["haproxy", "-db", "-f", self.conf])
        self.log = self.proc.log
        deadline = time.time() + timeout
        while True:
            if not self.proc.alive():
                raise HarnessError("haproxy exited:\n" + tail(self.log))
            try:
                if self.server_status(self.writer) == "UP":
                    return
            except OSError:
                pass
            if time.time() > deadline:
                raise HarnessError("haproxy: node %d not UP after %ds:\n%s" % (self.writer, timeout, tail(self.log)))
            time.sleep(0.1)

    def stats(self):
        """`show stat` of the listen section's servers: node index -> its row (dict of the CSV's
        fields: status UP/DOWN, stot sessions so far, scur current, chkdown, lastchg ...)."""
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        try:
            s.connect(self.stats_sock)
            s.sendall(b"show stat\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        finally:
            s.close()
        lines = data.decode(errors="replace").splitlines()
        head = lines[0].lstrip("# ").split(",")
        out = {}
        for line in lines[1:]:
            row = dict(zip(head, line.split(",")))
            if row.get("pxname") == "galera-writer" and row.get("svname", "").startswith("node"):
                out[int(row["svname"][4:])] = row
        return out

    def server_status(self, i):
        """UP, DOWN (or e.g. "DOWN 1/2" while the checks change their mind) of node i."""
        return self.stats()[i]["status"]

    def sessions(self):
        """node index -> sessions the proxy sent it so far (stot)."""
        return {i: int(row["stot"] or 0) for i, row in self.stats().items()}


# ---------------------------------------------------------------------- stack

class Stack:
    """MariaDB + config + schema + web server (+ fakes). Use as a context
    manager or call start()/stop(); stop() is safe to call more than once."""

    def __init__(self, web="lighttpd", keep=False, fakes=False, tz=DEFAULT_TZ,
                 requests_per_minute=1000000, log=None, galera=False, mysqld_args=()):
        if web not in WEB_SERVERS:
            raise HarnessError("unknown web server %r (choose from %s)" % (web, ", ".join(WEB_SERVERS)))
        self.web_kind = web
        self.keep = keep
        self.want_fakes = fakes
        self.tz = tz
        self.requests_per_minute = requests_per_minute
        self.logfn = log or (lambda msg: None)
        self.tmp = None
        self.procs = []
        self.webs = {}
        self.web = None
        self.mysqld = None
        self.mysqld_ready = False
        # galera: three MariaDB Galera nodes (GaleraNode) instead of one server; node 0 is
        # self.mysqld/self.sock, the node schema migrations and the harness's own SQL use
        self.galera = galera
        # more options for the one server (the benches: durable commits), after the defaults
        self.mysqld_args = list(mysqld_args)
        self.nodes = []
        self.bringup = None  # galera: (seconds to a synced 3-node cluster, resident MB of the 3 nodes)
        self._node_seq = 0   # galera: the next runner's node (runner k -> node k mod 3)
        self._node_configs = {}  # galera: config path -> its variant for each node
        self.haproxy = None  # galera: an HAProxy in front of the nodes (start_haproxy)
        self.haproxy_log = None  # galera: its log, once one was started (kept after it stops)
        self._proxy_configs = set()  # galera: config paths that name the proxy alone
        self.fakes = None
        self.fake_port = None
        self.history = collections.deque(maxlen=8)
        self._lock = threading.Lock()
        self._seq = 0
        self._stopped = False
        self.ctl_path = os.path.join(BUILDDIR, "migratorctl")
        self.runner_path = os.path.join(BUILDDIR, "migrator-runner")
        atexit.register(self.stop)

    # -- lifecycle

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        for prog in ("migrator.fcgi", "migratorctl", "migrator-runner"):
            path = os.path.join(BUILDDIR, prog)
            if not os.access(path, os.X_OK):
                raise HarnessError("%s not found or not executable (MIGRATOR_BUILDDIR=%s)" % (path, BUILDDIR))
        if not os.path.isdir(os.path.join(SRCDIR, "sql")):
            raise HarnessError("%s/sql not found (MIGRATOR_SRCDIR)" % SRCDIR)
        self.tmp = tempfile.mkdtemp(prefix="migrator-it-", dir="/tmp")
        self.logfn("temp folder %s" % self.tmp)
        self.sock = os.path.join(self.tmp, "mysql.sock")
        self.key_file = os.path.join(self.tmp, "credentials.key")
        if self.galera:
            self._start_galera()
        else:
            self._start_mariadb()
        if self.want_fakes:
            self._start_fakes()
        self.config = self.write_config("main", requests_per_minute=self.requests_per_minute)
        out = self.ctl("keygen", "--out", self.key_file)
        if not os.path.exists(self.key_file):
            raise HarnessError("keygen did not create %s: %s" % (self.key_file, out))
        self.ctl("db", "migrate", "--sql-dir", os.path.join(SRCDIR, "sql"))
        self.ctl("flag", "set", "migrator", "on")
        self.web = self.add_web("main", self.config)
        self.logfn("%s on %s" % (self.web.kind, self.web.base))

    def stop(self):
        """Stop everything started, newest first. Safe to call again (also
        after an interrupted stop): what is already stopped is skipped."""
        if self._stopped:
            return
        for w in list(self.webs.values()):
            w.stop()
        while self.procs:
            p = self.procs[-1]
            # a ready mariadbd gets time for a clean shutdown; one still starting is killed soon
            ready_db = (p is self.mysqld and self.mysqld_ready) or any(
                p is n.proc and n.ready for n in self.nodes)
            p.stop(timeout=30 if ready_db else 5)
            self.procs.pop()
        if self.tmp and os.path.isdir(self.tmp):
            if self.keep:
                self.logfn("kept temp folder %s" % self.tmp)
            else:
                shutil.rmtree(self.tmp, ignore_errors=True)
        self._stopped = True

    def _spawn(self, name, argv, env=None):
        p = Proc(name, argv, os.path.join(self.tmp, name + ".log"), env=env)
        self.procs.append(p)
        return p

    def _mariadb_env(self):
        # TMPDIR: the server's own temporary files (tmpdir) in the stack's folder, apart from any other
        # server on the machine (a bootstrap once failed deleting a /tmp/#sql-temptable file)
        return dict(os.environ, TZ=self.tz, TMPDIR=os.path.join(self.tmp, "mysqltmp"))

    def _start_mariadb(self):
        data = os.path.join(self.tmp, "data")
        os.makedirs(os.path.join(self.tmp, "mysqltmp"), exist_ok=True)
        # In its own process group, so that an interrupt stops its bootstrap mariadbd too.
        install = self._spawn("mariadb-install-db", [
            "mariadb-install-db", "--no-defaults", "--user=root", "--datadir=" + data,
            "--auth-root-authentication-method=normal", "--skip-test-db"], env=self._mariadb_env())
        rc = install.p.wait()
        install.stop()
        self.procs.remove(install)
        if rc != 0:
            raise HarnessError("mariadb-install-db failed:\n" + tail(install.log, 40))
        self.mysqld_err = os.path.join(self.tmp, "mysqld.err")
        self.mysqld = self._spawn("mysqld", [
            "mariadbd", "--no-defaults", "--user=root", "--datadir=" + data,
            "--socket=" + self.sock, "--skip-networking",
            "--pid-file=" + os.path.join(self.tmp, "mysqld.pid"),
            "--log-error=" + self.mysqld_err, "--innodb-buffer-pool-size=128M",
            "--innodb-flush-log-at-trx-commit=2", "--skip-log-bin",
        ] + self.mysqld_args, env=self._mariadb_env())
        deadline = time.time() + 60
        while True:
            if not self.mysqld.alive():
                raise HarnessError("mariadbd exited:\n" + tail(self.mysqld_err))
            r = subprocess.run(self._client_argv(db=None) + ["-e", "SELECT 1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if r.returncode == 0:
                self.mysqld_ready = True
                break
            if time.time() > deadline:
                raise HarnessError("mariadbd did not accept connections (%s):\n%s" % (
                    r.stderr.decode(errors="replace").strip(), tail(self.mysqld_err)))
            time.sleep(0.2)
        self.sql("CREATE DATABASE migrator", db=None)

    # -- galera: three MariaDB Galera nodes on 127.0.0.1

    def _start_galera(self):
        """Three MariaDB nodes of one Galera cluster (Debian's galera-4), each with its own datadir,
        unix socket, TCP port and Galera ports on 127.0.0.1, in the stack's folder: node 0
        bootstraps the cluster (--wsrep-new-cluster), nodes 1 and 2 join it by rsync state transfer.
        Returns when wsrep_cluster_size is 3 and every node is ready and synced.

        As root, the nodes run as `nobody` (--user=nobody): the rsync daemon of a state transfer
        run by root drops to nobody, so a joiner's datadir must be nobody's, and so must every
        file a node writes later (a node killed and started again is sent its state by rsync
        into the same folder)."""
        if not os.path.exists(GALERA_PROVIDER):
            raise HarnessError("%s not found: install galera-4 (scripts/install-deps.sh)" % GALERA_PROVIDER)
        t0 = time.time()
        os.makedirs(os.path.join(self.tmp, "mysqltmp"), exist_ok=True)
        user = "root"
        if os.geteuid() == 0:
            import pwd
            user = "nobody"
            owner = pwd.getpwnam(user)
            os.chmod(self.tmp, 0o711)  # nobody passes through to its node folders
        ports = [listen_port() for _ in range(12)]
        self.nodes = [GaleraNode(self, i, user, *ports[4 * i:4 * i + 4]) for i in range(3)]
        for n in self.nodes:
            for d in (n.dir, n.datadir, n.tmpdir):
                os.makedirs(d, exist_ok=True)
                if user == "nobody":
                    os.chown(d, owner.pw_uid, owner.pw_gid)
        install = self._spawn("mariadb-install-db", [
            "mariadb-install-db", "--no-defaults", "--user=" + user, "--datadir=" + self.nodes[0].datadir,
            "--auth-root-authentication-method=normal", "--skip-test-db"], env=self.nodes[0].env())
        rc = install.p.wait()
        install.stop()
        self.procs.remove(install)
        if rc != 0:
            raise HarnessError("mariadb-install-db failed:\n" + tail(install.log, 40))
        self.nodes[0].start(new_cluster=True)
        self.nodes[0].wait_synced(size=1)
        for n in self.nodes[1:]:
            n.start()
            n.wait_synced(size=n.index + 1)
        for n in self.nodes:
            n.wait_synced()
        took = time.time() - t0
        self.sock = self.nodes[0].sock
        self.mysqld = self.nodes[0].proc
        self.mysqld_err = self.nodes[0].err
        self.mysqld_ready = True
        self.bringup = (took, self.galera_rss_mb())
        self.logfn("galera: 3 nodes synced in %.1f s, %d MB resident (%s)" % (
            took, self.bringup[1], ", ".join("node %d %s" % (n.index, n.sock) for n in self.nodes)))
        self.sql("CREATE DATABASE migrator", db=None)

    def galera_rss_mb(self):
        """The nodes' resident memory in MB (VmRSS of each mariadbd)."""
        kb = 0
        for n in self.nodes:
            try:
                with open("/proc/%d/status" % n.proc.pid) as f:
                    kb += int([l for l in f if l.startswith("VmRSS:")][0].split()[1])
            except (OSError, IndexError, AttributeError):
                pass
        return kb // 1024

    def kill_node(self, i):
        """kill -9 Galera node i (the others go on as a 2-node primary component)."""
        self.nodes[i].kill()

    def start_node(self, i, timeout=180):
        """Start Galera node i again (after kill_node or stop_node): it rejoins the cluster (state
        transfer from a donor); returns when wsrep_cluster_size is 3 and it is synced."""
        n = self.nodes[i]
        n.start()
        n.wait_synced(timeout=timeout)
        for other in self.nodes:
            other.wait_synced(timeout=timeout)

    def node_status(self, i, name):
        """A wsrep status variable of node i (e.g. wsrep_cluster_size), as text."""
        return self.nodes[i].status(name)

    def start_haproxy(self, writer=1):
        """galera: an HAProxy (HAProxy) in front of the three nodes, node `writer` the one it sends
        connections to and the next nodes its backups; its health-check user haproxy_check is made
        on the cluster first (no password, no grants, as docs/deploy.md says). While one runs, a
        second call returns it. stop_haproxy() or Stack.stop() stops it."""
        if not self.galera:
            raise HarnessError("start_haproxy needs the Galera cluster (run.py --galera)")
        if self.haproxy is None:
            if shutil.which("haproxy") is None:
                raise HarnessError("haproxy not found: install it (scripts/install-deps.sh)")
            self.sql("CREATE USER IF NOT EXISTS 'haproxy_check'@'127.0.0.1'", db=None)
            proxy = HAProxy(self, writer)
            proxy.start()
            self.haproxy = proxy
            self.haproxy_log = proxy.log
        return self.haproxy

    def stop_haproxy(self):
        """Stop the proxy start_haproxy started (if any); configs naming it then reach nothing."""
        proxy, self.haproxy = self.haproxy, None
        if proxy is not None and proxy.proc is not None:
            proxy.proc.stop()
            if proxy.proc in self.procs:
                self.procs.remove(proxy.proc)

    def proxy_config(self, label, **overrides):
        """galera: a config file (as write_config: overrides, the fakes' base_url) whose [database]
        names the proxy alone (host = 127.0.0.1, port = the proxy's port; no hosts list), as every
        host of the one-writer set-up does. Runners and web servers given it use the proxy whatever
        node= they are given."""
        if self.haproxy is None:
            raise HarnessError("proxy_config: no proxy (start_haproxy)")
        path = self._write_config_file(label, None, overrides, proxy=self.haproxy)
        self._proxy_configs.add(path)
        return path

    def next_node(self):
        """The node the next runner uses (runner k -> node k mod 3); 0 without galera."""
        if not self.galera:
            return 0
        with self._lock:
            k = self._node_seq
            self._node_seq += 1
        return k % len(self.nodes)

    def config_for_node(self, config, node):
        """The variant of config file `config` (written by write_config) whose [database] hosts
        list starts with node `node`; config itself without galera or for a file not written by
        write_config."""
        if not self.galera or node is None:
            return config
        variants = self._node_configs.get(config)
        return variants[node % len(self.nodes)] if variants else config

    def _start_fakes(self):
        script = os.path.join(SRCDIR, "tests", "fakes", "fakeprov.py")
        if not os.path.exists(script):
            raise HarnessError("%s not found (--fakes)" % script)
        port_file = os.path.join(self.tmp, "fakeprov.port")
        self.fakes = self._spawn("fakeprov", ["python3", script, "--port", "0", "--port-file", port_file])
        deadline = time.time() + 20
        while True:
            try:
                with open(port_file) as f:
                    txt = f.read().strip()
                if txt:
                    self.fake_port = int(txt)
                    break
            except (OSError, ValueError):
                pass
            if not self.fakes.alive():
                raise HarnessError("fakeprov.py exited:\n" + tail(self.fakes.log))
            if time.time() > deadline:
                raise HarnessError("fakeprov.py wrote no port file:\n" + tail(self.fakes.log))
            time.sleep(0.1)

    @property
    def fake_base(self):
        return "http://127.0.0.1:%d" % self.fake_port if self.fake_port else None

    def write_config(self, label, node=None, **overrides):
        """Write a config file for this stack. overrides: keys of [limits],
        [runner] etc. as name=value (None leaves the key out, i.e. default).

        galera: [database] hosts lists the three nodes' sockets, node `node` (default 0) first
        and then the other two; the files for the other nodes are written beside it (same
        overrides) and config_for_node(path, i) names them, so that a test that writes one config
        can still spread runners and web servers over the nodes."""
        if self.galera:
            first = node or 0
            paths = [self._write_config_file(label if i == first else "%s.node%d" % (label, i), i, overrides)
                     for i in range(len(self.nodes))]
            for path in paths:
                self._node_configs[path] = paths
            return paths[first]
        return self._write_config_file(label, None, overrides)

    def _write_config_file(self, label, node, overrides, proxy=None):
        limits = {"requests_per_minute": None, "starts_per_minute": None, "max_body": None, "max_resources": None,
                  "max_pages": None, "provider_wait_min": None, "provider_wait_max": None}
        runner = {"max_attempts": 3, "lease_seconds": 30}
        security = {"credentials_retention": 3600}
        for k, v in overrides.items():
            for sect in (limits, runner, security):
                if k in sect:
                    sect[k] = v
                    break
            else:
                raise HarnessError("unknown config override %s" % k)
        path = os.path.join(self.tmp, "migrator-%s.conf" % label)
        prov_port = self.fake_port or 9  # nothing listens on port 9 (REST never calls providers)
        if proxy is not None:
            database = ["host = 127.0.0.1", "port = %d" % proxy.port]
        elif node is None:
            database = ["socket = " + self.sock]
        elif GALERA_ONE_HOST:
            database = ["socket = " + self.nodes[node].sock]
        else:  # the node first, then the others in order
            order = [self.nodes[(node + k) % len(self.nodes)] for k in range(len(self.nodes))]
            database = ["hosts = " + ", ".join(n.sock for n in order)]
        lines = ["[database]"] + database + ["user = root", "password =", "name = migrator", "",
                 "[security]", "key_file = " + self.key_file]
        lines += ["%s = %s" % (k, v) for k, v in security.items() if v is not None]
        lines += ["allow_http_urls = true", "allow_private_urls = true", "", "[limits]"]
        lines += ["%s = %s" % (k, v) for k, v in limits.items() if v is not None]
        lines += ["", "[runner]"]
        lines += ["%s = %s" % (k, v) for k, v in runner.items() if v is not None]
        lines += ["", "[features]", "migrator = off", ""]
        for p in PROVIDERS:
            # whmcs and healthchecks take the address from the user's credentials (url, base_url):
            # an administrator's base_url would refuse those fields
            lines += ["[provider.%s]" % p] + ([] if p in USER_URL_PROVIDERS else
                                              ["base_url = http://127.0.0.1:%d/%s" % (prov_port, p)])
            lines += ["timeout = 5", ""]
        with open(path, "w") as f:
            f.write("\n".join(lines))
        return path

    def add_web(self, label, config_path=None, kind=None, node=None):
        """Start another web server (same DB) with its own config file.

        galera: it uses node `node` first (default: the web servers rotate over the nodes,
        web server i -> node i mod 3, the stack's own being 0), with the variant of config_path
        for that node."""
        if label in self.webs:
            return self.webs[label]
        config_path = config_path or self.config
        if self.galera and config_path in self._proxy_configs:
            node = None  # the proxy's
        elif self.galera:
            if node is None:
                node = len(self.webs) % len(self.nodes)
            config_path = self.config_for_node(config_path, node)
        w = WEB_SERVERS[kind or self.web_kind](self, label, config_path)
        w.node = node
        self.webs[label] = w
        w.start()
        return w

    def web_on_node(self, k):
        """galera: a web server with the stack's own config on node k mod 3 (node 0's is the
        stack's own; the others are started on first use, which must not be in a thread that
        ends before them: a child is ended with the thread that started it, PR_SET_PDEATHSIG);
        without galera, the stack's own."""
        if not self.galera or k % len(self.nodes) == 0:
            return self.web
        node = k % len(self.nodes)
        return self.add_web("main-node%d" % node, self.config, node=node)

    def web_with_default_limits(self, label="default"):
        """A web server whose config leaves [limits] at the built-in defaults."""
        if label not in self.webs:
            self.add_web(label, self.write_config(label))
        return self.webs[label]

    # -- tools

    def ctl(self, *args, check=True, config=None):
        """Run migratorctl; returns stdout (stripped). Raises on failure if check."""
        argv = [self.ctl_path, "--config", config or self.config] + [str(a) for a in args]
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self._mariadb_env())
        out = r.stdout.decode("utf-8", "replace").strip()
        if check and r.returncode != 0:
            raise HarnessError("migratorctl %s failed (%d): %s %s" % (
                " ".join(args), r.returncode, out, r.stderr.decode(errors="replace")))
        if not check:
            return r.returncode, out, r.stderr.decode("utf-8", "replace")
        return out

    def run_runner(self, *args, timeout=120, env=None, node=None):
        """Run migrator-runner once; returns CompletedProcess (text). galera: on node `node`
        first (default: the next in turn, see next_node)."""
        config = self.config_for_node(self.config, self.next_node() if node is None else node)
        argv = [self.runner_path, "--config", config] + [str(a) for a in args]
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=timeout, env=dict(self._mariadb_env(), **(env or {})))

    def _client_argv(self, db="migrator", node=0):
        """The mariadb client's command line. galera: to node `node` (default 0), with
        wsrep_sync_wait=15: every read waits until the node has applied what the cluster
        committed before it, so a test never reads a stale node."""
        if self.galera:
            argv = self.nodes[node].client_argv(None) + ["--init-command=SET SESSION wsrep_sync_wait=15"]
        else:
            argv = ["mariadb", "--no-defaults", "-uroot", "--socket=" + self.sock]
        if db:
            argv.append(db)
        return argv

    def sql_results(self, query, db="migrator", node=0):
        """Run SQL; returns the list of result sets, each a list of dict rows
        (values str or None). galera: on node `node`."""
        r = subprocess.run(self._client_argv(db, node) + ["--xml", "-e", query],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            raise HarnessError("SQL failed: %s\n%s" % (query[:500], r.stderr.decode(errors="replace")))
        out = r.stdout.decode("utf-8", "replace")
        out = "\n".join(l for l in out.splitlines() if not l.startswith("<?xml"))
        if not out.strip():
            return []
        root = ET.fromstring("<root>" + out + "</root>")
        nil = "{http://www.w3.org/2001/XMLSchema-instance}nil"
        sets = []
        for rs in root.findall("resultset"):
            rows = []
            for row in rs.findall("row"):
                d = collections.OrderedDict()
                for fld in row.findall("field"):
                    d[fld.get("name")] = None if fld.get(nil) == "true" else (fld.text or "")
                rows.append(d)
            sets.append(rows)
        return sets

    def sql_dicts(self, query, db="migrator", node=0):
        sets = self.sql_results(query, db, node)
        return sets[-1] if sets else []

    def sql(self, query, db="migrator", node=0):
        """Run SQL; returns the rows of the last result set as tuples."""
        return [tuple(r.values()) for r in self.sql_dicts(query, db, node)]

    def sql_value(self, query, node=0):
        rows = self.sql(query, node=node)
        return rows[0][0] if rows else None

    def dump_db(self):
        sync = ["--init-command=SET SESSION wsrep_sync_wait=15"] if self.galera else []
        r = subprocess.run(["mariadb-dump", "--no-defaults", "-uroot", "--socket=" + self.sock] + sync +
                           ["--skip-extended-insert", "migrator"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            raise HarnessError("mariadb-dump failed: " + r.stderr.decode(errors="replace"))
        return r.stdout

    # -- HTTP

    def request(self, method, path, token=None, body=None, headers=None, raw_body=None,
                web=None, source=None, timeout=30, chunks=None):
        """One HTTP request on a fresh connection. body: a JSON value (sent with
        Content-Type: application/json); raw_body: bytes/str sent as is (with
        Content-Type application/json unless headers override; a header whose
        value is None is removed); chunks: list of bytes sent with
        Transfer-Encoding: chunked. source: local IP to connect from (127.x.y.z)."""
        hdrs = {"Accept": "application/json"}
        data = None
        if chunks is not None:
            data = b"".join(chunks)
            hdrs["Content-Type"] = "application/json"
        elif raw_body is not None:
            data = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
            hdrs["Content-Type"] = "application/json"
        elif body is not None:
            data = json.dumps(body).encode("utf-8")
            hdrs["Content-Type"] = "application/json"
        if token is not None:
            hdrs["Authorization"] = "Bearer " + token
        for k, v in (headers or {}).items():
            for existing in [h for h in hdrs if h.lower() == k.lower()]:
                del hdrs[existing]
            if v is not None:
                hdrs[k] = v
        w = web or self.web
        conn = http.client.HTTPConnection("127.0.0.1", w.port, timeout=timeout,
                                          source_address=(source, 0) if source else None)
        try:
            if chunks is not None:
                conn.request(method, path, body=iter(chunks), headers=hdrs, encode_chunked=True)
            else:
                conn.request(method, path, body=data, headers=hdrs)
            r = conn.getresponse()
            rbody = r.read()
            resp = Response(method, path, hdrs, data, r.status, r.reason, r.getheaders(), rbody)
        finally:
            conn.close()
        self.history.append(resp)
        record_response(resp)
        return resp

    # -- fixtures

    def unique(self, prefix="x"):
        with self._lock:
            self._seq += 1
            return "%s%d-%s" % (prefix, self._seq, uuid.uuid4().hex[:8])

    def new_user(self, scopes=None, name=None):
        name = name or self.unique("user")
        email = name + "@example.test"
        out = self.ctl("user", "add", "--name", name, "--email", email)
        uid = int(out.splitlines()[-1].strip())
        scopes = list(ALL_SCOPES if scopes is None else scopes)
        token = self.new_token(uid, scopes)
        return User(self, uid, name, email, token, scopes)

    def new_token(self, user_id, scopes=None, name=None):
        scopes = ALL_SCOPES if scopes is None else scopes
        out = self.ctl("token", "create", "--user", user_id, "--name", name or self.unique("tok"),
                       "--scopes", ",".join(scopes))
        lines = [l for l in out.splitlines() if l.strip()]
        if len(lines) != 1 or "|" not in lines[0]:
            raise HarnessError("token create printed %r (expected only the token)" % out)
        return lines[0].strip()

    def set_flag(self, on, user_id=None):
        args = ["flag", "set", "migrator", "on" if on else "off"]
        if user_id is not None:
            args += ["--user", user_id]
        self.ctl(*args)

    def insert_run(self, user_id, status="awaiting_review", provider="uptimerobot",
                   created_at=None, updated_at=None, **cols):
        """Insert a migration_runs row directly; returns its id. Extra columns
        as keyword arguments (values go through q())."""
        rid = cols.pop("id", None) or str(uuid.uuid4())
        values = {"id": rid, "user_id": user_id, "provider": provider, "status": status}
        values.update(cols)
        names = list(values) + ["created_at", "updated_at"]
        lits = [q(v) for v in values.values()]
        lits.append(q(created_at) if created_at else "UTC_TIMESTAMP(6)")
        lits.append(q(updated_at) if updated_at else (q(created_at) if created_at else "UTC_TIMESTAMP(6)"))
        self.sql("INSERT INTO migration_runs (%s) VALUES (%s)" % (", ".join(names), ", ".join(lits)))
        return rid

    def insert_runs(self, user_id, rows):
        """Many runs at once: rows = list of dicts (status, provider, created_at, ...)."""
        ids = []
        tuples = []
        for row in rows:
            row = dict(row)
            rid = row.pop("id", None) or str(uuid.uuid4())
            ids.append(rid)
            ca = row.pop("created_at")
            tuples.append("(%s, %s, %s, %s, %s, %s)" % (
                q(rid), q(user_id), q(row.pop("provider", "uptimerobot")),
                q(row.pop("status", "awaiting_review")), q(ca), q(row.pop("updated_at", ca))))
            if row:
                raise HarnessError("insert_runs: unsupported columns %s" % list(row))
        self.sql("INSERT INTO migration_runs (id, user_id, provider, status, created_at, updated_at) VALUES "
                 + ", ".join(tuples))
        return ids

    def insert_resources(self, run_id, n=1, status="pending", resource_type="monitor",
                         action="create", attempts=0, error_message=None, **cols):
        """Insert n resources for a run, each with its data row (migration_run_resource_data, as
        discovery writes them: external_data, normalized_data and dropped among cols go there);
        returns their ids in id order."""
        prefix = self.unique("ext")
        data = {k: cols.pop(k) for k in ("external_data", "normalized_data", "dropped") if k in cols}
        names = ["run_id", "resource_type", "external_id", "action", "status", "attempts",
                 "error_message"] + list(cols) + ["created_at", "updated_at"]
        tuples = []
        for i in range(n):
            vals = [run_id, resource_type, "%s-%05d" % (prefix, i), action, status, attempts,
                    error_message] + list(cols.values())
            tuples.append("(%s, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))" % ", ".join(q(v) for v in vals))
        for start in range(0, len(tuples), 500):
            self.sql("INSERT INTO migration_run_resources (%s) VALUES %s" % (
                ", ".join(names), ", ".join(tuples[start:start + 500])))
        mine = "FROM migration_run_resources WHERE run_id=%s AND external_id LIKE %s" % (q(run_id), q(prefix + "-%"))
        self.sql("INSERT INTO migration_run_resource_data (run_id, resource_id%s) SELECT run_id, id%s %s" % (
            "".join(", " + k for k in data), "".join(", " + q(v) for v in data.values()), mine))
        return [int(r[0]) for r in self.sql("SELECT id %s ORDER BY id" % mine)]

    def insert_resource_rows(self, run_id, items):
        """items: (resource_type, external_id, normalized dict), inserted pending in their order,
        each with its data row as discovery writes them (migration_run_resource_data)."""
        for start in range(0, len(items), 200):
            part = items[start:start + 200]
            self.sql("INSERT INTO migration_run_resources (run_id, resource_type, external_id, status, created_at, "
                     "updated_at) VALUES " + ", ".join("(%s, %s, %s, 'pending', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))"
                                                      % (q(run_id), q(t), q(ext)) for t, ext, _ in part))
            self.sql("INSERT INTO migration_run_resource_data (run_id, resource_id, normalized_data) "
                     "SELECT r.run_id, r.id, j.norm FROM JSON_TABLE(%s, '$[*]' COLUMNS (type VARCHAR(32) PATH '$[0]', "
                     "ext VARCHAR(191) PATH '$[1]', norm JSON PATH '$[2]')) j JOIN migration_run_resources r "
                     "ON r.run_id = %s AND r.resource_type = j.type AND r.external_id = j.ext"
                     % (q(json.dumps(part)), q(run_id)))

    def insert_logs(self, run_id, entries):
        """entries: list of (level, message, context_or_None, logged_at 'YYYY-MM-DD HH:MM:SS[.ffffff]').
        Returns ids in insertion order."""
        ids = []
        for level, message, context, logged_at in entries:
            rows = self.sql_results(
                "INSERT INTO migration_run_logs (run_id, level, message, context, logged_at) "
                "VALUES (%s, %s, %s, %s, %s); SELECT LAST_INSERT_ID()" % (
                    q(run_id), q(level), q(message), q(context), q(logged_at)))
            ids.append(int(list(rows[-1][0].values())[0]))
        return ids

    def drop_leftover_jobs(self):
        """Delete every queued job: what earlier tests left (their runs stay as they are). Runners
        claim the work of whoever has had least of them first (fair share), so a test that drives
        its own run step by step would otherwise get another test's job first. run.py calls it
        before each test."""
        self.sql("DELETE FROM jobs")

    def insert_job(self, run_id, queue="discovery", resource_id=None):
        self.sql("INSERT INTO jobs (queue, run_id, resource_id, payload, available_at, created_at) "
                 "VALUES (%s, %s, %s, NULL, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))"
                 % (q(queue), q(run_id), q(resource_id)))

    def run_status(self, run_id):
        return self.sql_value("SELECT status FROM migration_runs WHERE id=%s" % q(run_id))

    def count(self, table, where):
        return int(self.sql_value("SELECT COUNT(*) FROM %s WHERE %s" % (table, where)))


def wait_for_window(min_left):
    """Rate limits use one-minute windows: make sure at least min_left
    seconds remain in the current wall-clock minute (sleeps otherwise)."""
    left = 60 - (time.time() % 60)
    if left < min_left:
        time.sleep(left + 0.3)


# ------------------------------------------------------------ test base class

class ApiTestCase(unittest.TestCase):
    """Base for integration tests. run.py sets ApiTestCase.stack."""

    stack = None
    maxDiff = 4000

    def req(self, method, path, **kw):
        return self.stack.request(method, path, **kw)

    def user(self, scopes=None):
        return self.stack.new_user(scopes)

    def assertStatus(self, r, status, msg=None):
        statuses = status if isinstance(status, (tuple, list, set)) else (status,)
        if r.status not in statuses:
            self.fail("%sexpected HTTP %s, got %s\n  %s" % (
                (msg + ": ") if msg else "", "/".join(map(str, statuses)), r.status, r.describe()))

    def assertJsonObject(self, r):
        if not isinstance(r.json, dict):
            self.fail("expected a JSON object body\n  %s" % r.describe())
        return r.json

    def assertError(self, r, status, code, field=None, msg=None):
        """Error shape: status, {"message": str, "code": code}; with field, errors[field] is a
        non-empty list of strings."""
        self.assertStatus(r, status, msg)
        body = self.assertJsonObject(r)
        problems = []
        if not isinstance(body.get("message"), str) or not body.get("message"):
            problems.append("'message' missing or not a non-empty string")
        if code is not None and body.get("code") != code:
            problems.append("code %r, expected %r" % (body.get("code"), code))
        if field is not None:
            errs = body.get("errors")
            if not isinstance(errs, dict):
                problems.append("'errors' missing or not an object")
            elif field not in errs:
                problems.append("errors has no key %r (keys: %s)" % (field, sorted(errs)))
            elif (not isinstance(errs[field], list) or not errs[field]
                  or not all(isinstance(m, str) and m for m in errs[field])):
                problems.append("errors[%r] is not a non-empty list of strings: %r" % (field, errs[field]))
        if problems:
            self.fail("%s%s\n  %s" % ((msg + ": ") if msg else "", "; ".join(problems), r.describe()))

    def check(self, problems, cond, text, r=None):
        """Collect a problem instead of failing at once (for table-driven tests)."""
        if not cond:
            problems.append(text + ("\n    " + r.describe() if r is not None else ""))

    def assertNoProblems(self, problems):
        if problems:
            self.fail("%d problem(s):\n- %s" % (len(problems), "\n- ".join(problems)))


# ------------------------------------------------------------ runner helpers
# (added for tests/integration/test_runner.py; new functions only)

def ensure_fakes(stack):
    """Start tests/fakes/fakeprov.py for this stack if it is not running yet."""
    if stack.fakes is None or not stack.fakes.alive():
        stack._start_fakes()
    return stack.fake_base


def runner_config(stack, label, **overrides):
    """A config file whose [provider.*] base_url values point at the fake
    providers (started if needed). overrides as for Stack.write_config
    (max_attempts, lease_seconds, credentials_retention, ...)."""
    ensure_fakes(stack)
    return stack.write_config(label, **overrides)


def fake_call(stack, method, path, body=None, timeout=30):
    """Call the fake providers' control API (e.g. POST /_control/uptimerobot/account).
    Returns the parsed JSON answer (or None); raises HarnessError on HTTP >= 400."""
    ensure_fakes(stack)
    conn = http.client.HTTPConnection("127.0.0.1", stack.fake_port, timeout=timeout)
    try:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        conn.request(method, path, body=data,
                     headers={"Content-Type": "application/json"} if data is not None else {})
        r = conn.getresponse()
        raw = r.read()
    finally:
        conn.close()
    if r.status >= 400:
        raise HarnessError("fake %s %s: HTTP %d %s" % (method, path, r.status, raw[:300]))
    try:
        return json.loads(raw.decode("utf-8")) if raw else None
    except ValueError:
        return None


def run_runner_config(stack, config, *args, timeout=120, node=None, env=None):
    """Run migrator-runner with the given config file; returns CompletedProcess (text).
    galera: on node `node` first (default: the next in turn, runner k -> node k mod 3)."""
    config = stack.config_for_node(config, stack.next_node() if node is None else node)
    argv = [stack.runner_path, "--config", config] + [str(a) for a in args]
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout, env=dict(stack._mariadb_env(), **(env or {})))


def spawn_runner(stack, config, *args, name=None, node=None, env=None):
    """Start migrator-runner in the background (its own process group, output
    in the stack's folder). Returns the Proc; stop it with proc.stop(), or kill
    it with os.kill(proc.pid, signal.SIGKILL). galera: on node `node` first
    (default: the next in turn); proc.node says which."""
    name = name or stack.unique("runner")
    node = stack.next_node() if node is None else node
    proc = stack._spawn(name, [stack.runner_path, "--config", stack.config_for_node(config, node)]
                        + [str(a) for a in args], env=dict(stack._mariadb_env(), **(env or {})))
    proc.node = node
    return proc


class RowLock:
    """Rows held in a MariaDB session of its own, by a statement whose
    transaction stays open (SELECT ... FOR UPDATE, or an INSERT not committed),
    so that a runner that needs them waits there: a test stops a runner at a
    known point, on any machine, without racing it. Use as a context manager
    or call release(); waiting(like) counts the sessions waiting for a lock in
    a statement LIKE that pattern, blocked() names one waiting for this
    session's rows. Both read INNODB_TRX: poll them at most every 0.15 s (see
    below)."""

    def __init__(self, stack, query, node=0):
        # galera: the rows are held on node `node` only (Galera certifies written rows at commit;
        # a lock taken on one node holds no session of another node), so the runner it stops must
        # use that node
        self.stack = stack
        self.node = node
        self.p = subprocess.Popen(stack._client_argv(node=node) + ["--unbuffered", "--batch", "--skip-column-names"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        self.p.stdin.write("BEGIN;\n%s;\n" % query)
        self.trx_id = None
        while self.trx_id is None:
            # INNODB_TRX is a copy that InnoDB refreshes only when it was last read more than 0.1 s ago
            # (so every poll of it waits longer than that): ask until it lists this session
            self.p.stdin.write("SELECT CONCAT('locked ', COALESCE((SELECT trx_id FROM information_schema.INNODB_TRX "
                               "WHERE trx_mysql_thread_id = CONNECTION_ID()), '-'));\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
            while line and not line.startswith("locked "):  # the rows of the query itself
                line = self.p.stdout.readline()
            if not line:
                raise HarnessError("RowLock: %s" % self.p.stderr.read())
            if line.split()[1] != "-":
                self.trx_id = line.split()[1]
            else:
                time.sleep(0.15)

    def waiting(self, like):
        return int(self.stack.sql_value("SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE "
                                        "trx_state = 'LOCK WAIT' AND trx_query LIKE %s" % q(like), node=self.node))

    def blocked(self):
        """(connection id, rows it has written) of a transaction waiting for
        this session's rows, or None."""
        rows = self.stack.sql("SELECT t.trx_mysql_thread_id, t.trx_rows_modified FROM "
                              "information_schema.INNODB_LOCK_WAITS w JOIN information_schema.INNODB_TRX t "
                              "ON t.trx_id = w.requesting_trx_id WHERE w.blocking_trx_id = %s" % q(self.trx_id),
                              node=self.node)
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    def release(self):
        if self.p.poll() is None:
            self.p.stdin.write("ROLLBACK;\n")
            self.p.stdin.close()
            self.p.wait(30)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()


def restart_mariadb(stack, down_seconds=0.0, timeout=60, while_down=None):
    """Stop the stack's MariaDB (SIGTERM: a clean shutdown that rolls back open
    transactions), wait down_seconds (and call while_down(), if given), and start
    it again on the same data folder and socket. Blocks until it accepts
    connections; it is started again even when while_down raises."""
    if stack.galera:
        # "the database" is the cluster: every node stops (node 0 last, so it may bootstrap the
        # cluster again), and the cluster starts again (see restart_cluster)
        restart_cluster(stack, down_seconds, timeout, while_down)
        return
    old = stack.mysqld
    old.stop(timeout=60)
    if old in stack.procs:
        stack.procs.remove(old)
    time.sleep(down_seconds)
    try:
        if while_down is not None:
            while_down()
    finally:
        _start_mariadb_again(stack, old, timeout)


def _start_mariadb_again(stack, old, timeout):
    stack.mysqld = stack._spawn("mysqld", old.argv, env=stack._mariadb_env())
    deadline = time.time() + timeout
    while True:
        if not stack.mysqld.alive():
            raise HarnessError("mariadbd exited:\n" + tail(stack.mysqld_err))
        r = subprocess.run(stack._client_argv(db=None) + ["-e", "SELECT 1"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            return
        if time.time() > deadline:
            raise HarnessError("mariadbd did not come back:\n" + tail(stack.mysqld_err))
        time.sleep(0.2)


def restart_cluster(stack, down_seconds=0.0, timeout=180, while_down=None):
    """galera: a clean shutdown of the whole cluster (nodes 2, 1, then 0, which leaves node 0 the
    one safe to bootstrap from), down_seconds, while_down(), then node 0 bootstraps the cluster
    again and nodes 1 and 2 rejoin it; blocks until the three are synced."""
    for n in reversed(stack.nodes):
        n.stop(timeout=60)
    time.sleep(down_seconds)
    try:
        if while_down is not None:
            while_down()
    finally:
        stack.nodes[0].start(new_cluster=True)
        stack.nodes[0].wait_synced(size=1, timeout=timeout)
        stack.mysqld = stack.nodes[0].proc
        for n in stack.nodes[1:]:
            n.start()
            n.wait_synced(size=n.index + 1, timeout=timeout)
        for n in stack.nodes:
            n.wait_synced(timeout=timeout)
