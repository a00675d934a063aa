"""migrator.fcgi spoken to in FastCGI directly, as a web server speaks it: one
process on a unix socket, started by spawn-fcgi as the mod_proxy_fcgi setup
starts it. The records are those of the FastCGI specification 1.0
(https://fastcgi-archives.github.io/FastCGI_Specification.html, section 8:
the record header, FCGI_BEGIN_REQUEST's body, name-value pairs)."""

import errno
import json
import os
import socket
import struct
import time

from harness import BUILDDIR, ApiTestCase, Proc, q

BEGIN_REQUEST, END_REQUEST, PARAMS, STDIN, STDOUT, STDERR = 1, 3, 4, 5, 6, 7
RESPONDER = 1
MAX_BODY = 65536  # [limits] max_body's default


def record(rtype, content=b"", request_id=1):
    """One record: version 1, type, request id, content length, no padding."""
    return struct.pack(">BBHHBx", 1, rtype, request_id, len(content), 0) + content


def pairs(params):
    """Name-value pairs: each length in 1 byte below 128, else 4 with the high bit set.
    A value may be bytes (sent as they are) or text (sent as UTF-8)."""
    out = b""
    for k, v in params.items():
        k, v = k.encode(), v if isinstance(v, bytes) else v.encode()
        for s in (k, v):
            out += struct.pack(">B", len(s)) if len(s) < 128 else struct.pack(">I", len(s) | 0x80000000)
        out += k + v
    return out


def request_records(params, body=b"", end_stdin=True):
    """BEGIN_REQUEST (responder, no keep-conn), the params, the body as stdin
    and, unless told not to, stdin's empty end record."""
    out = record(BEGIN_REQUEST, struct.pack(">HB5x", RESPONDER, 0)) + record(PARAMS, pairs(params)) + record(PARAMS)
    for i in range(0, len(body), 65535):
        out += record(STDIN, body[i:i + 65535])
    return out + (record(STDIN) if end_stdin else b"")


def read_answer(sock):
    """The stdout stream up to FCGI_END_REQUEST, split into (status, headers, body)."""
    buf, out = b"", b""
    while True:
        while len(buf) < 8:
            chunk = sock.recv(65536)
            if not chunk:
                raise AssertionError("the connection ended before FCGI_END_REQUEST")
            buf += chunk
        _, rtype, _, clen, plen = struct.unpack(">BBHHBx", buf[:8])
        while len(buf) < 8 + clen + plen:
            chunk = sock.recv(65536)
            if not chunk:
                raise AssertionError("the connection ended inside a record")
            buf += chunk
        content, buf = buf[8:8 + clen], buf[8 + clen + plen:]
        if rtype == STDOUT:
            out += content
        elif rtype == END_REQUEST:
            break
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(headers["Status"].split()[0]), headers, body


class FcgiDirect(ApiTestCase):
    """One migrator.fcgi process under spawn-fcgi, and a user (owner)."""

    @classmethod
    def setUpClass(cls):
        cls.dir = os.path.join(cls.stack.tmp, "fastcgi-direct")
        os.makedirs(cls.dir, exist_ok=True)
        cls.sock_path = os.path.join(cls.dir, "fcgi.sock")
        env = dict(os.environ, TZ=cls.stack.tz, MIGRATOR_CONFIG=cls.stack.config)
        cls.proc = Proc("fcgi-direct", ["spawn-fcgi", "-n", "-s", cls.sock_path, "--",
                                        os.path.join(BUILDDIR, "migrator.fcgi")],
                        os.path.join(cls.dir, "fcgi.log"), env=env)
        deadline = time.time() + 10
        while not os.path.exists(cls.sock_path):
            if not cls.proc.alive() or time.time() > deadline:
                raise AssertionError("spawn-fcgi did not create " + cls.sock_path)
            time.sleep(0.05)
        cls.owner = cls.stack.new_user()

    @classmethod
    def tearDownClass(cls):
        cls.proc.stop()

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(self.sock_path)
        self.addCleanup(s.close)
        return s

    def me(self):
        return {"REQUEST_METHOD": "GET", "REQUEST_URI": "/api/v1/me", "REMOTE_ADDR": "127.0.0.1",
                "HTTP_AUTHORIZATION": "Bearer " + self.owner.token, "HTTP_HOST": "127.0.0.1"}

    def ask(self, method, uri, body=b""):
        """One request as a web server passes it (uri and body as bytes, as
        they came): (status, headers, body)."""
        params = dict(self.me(), REQUEST_METHOD=method, REQUEST_URI=uri)
        if body:
            params.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(body)))
        s = self.connect()
        s.sendall(request_records(params, body))
        answer = read_answer(s)
        s.close()  # at once: a process draining a body it did not read waits for the close
        return answer


class TestTheServerDoesNotHoldTheProcess(FcgiDirect):
    """The process closes a connection as soon as it has answered and read all
    the server sent, so a server that holds its end open does not hold the
    process (input left unread keeps libfcgi's lingering close, which drains
    it so the close cannot reset the connection and lose the answer); and a
    large answer waits in the socket for the server, not in the process."""

    def test_a_connection_held_open_by_the_server_does_not_hold_the_process(self):
        held = self.connect()
        held.sendall(request_records(self.me()))
        status, _, body = read_answer(held)
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body)["data"]["email"], self.owner.email)
        self.assertEqual(held.recv(1), b"", "the process ends the connection after its answer")
        # Closed, not only shut down for writing: what the server sends now goes nowhere.
        with self.assertRaises(OSError) as gone:
            for _ in range(3):
                held.sendall(record(STDIN, b"x"))
                time.sleep(0.05)
        self.assertIn(gone.exception.errno, (errno.EPIPE, errno.ECONNRESET))
        # The one process answers the next connection while the first is still open.
        started = time.monotonic()
        nxt = self.connect()
        nxt.sendall(request_records(self.me()))
        status, _, body = read_answer(nxt)
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body)["data"]["id"], self.owner.id)
        self.assertLess(time.monotonic() - started, 1.5, "libfcgi's lingering close waits 2 s")

    def test_a_body_left_unread_is_drained_and_the_answer_arrives_whole(self):
        s = self.connect()
        params = dict(self.me(), REQUEST_METHOD="POST", REQUEST_URI="/mcp",
                      CONTENT_TYPE="application/json", CONTENT_LENGTH=str(MAX_BODY + 1))
        s.sendall(request_records(params, b"[" * 4096, end_stdin=False))
        status, headers, body = read_answer(s)
        self.assertEqual(status, 413)
        self.assertEqual(int(headers["Content-Length"]), len(body))
        self.assertIsInstance(json.loads(body)["error"]["message"], str)
        self.assertEqual(s.recv(1), b"", "the process shuts its side down after the answer")
        # and still reads what the server sends (a closed socket would refuse it).
        for _ in range(3):
            s.sendall(record(STDIN, b"[" * 20000))
            time.sleep(0.05)
        s.sendall(record(STDIN))

    def test_an_answer_the_socket_can_hold_does_not_wait_for_the_server_to_read_it(self):
        """A run detail of about 300 KB, more than Linux's default socket buffer (208 KB) and less
        than the most it lets a process ask for (twice net.core.wmem_max: 416 KB by default):
        while the server has not read it, the process answers the next connection."""
        rid = self.stack.insert_run(self.owner.id)
        self.stack.insert_resources(rid, 500)
        self.stack.sql("UPDATE migration_run_resources SET error_message = REPEAT('e', 400) WHERE run_id = %s" % q(rid))
        detail = dict(self.me(), REQUEST_URI="/api/v1/migrations/" + rid)
        unread = self.connect()
        unread.sendall(request_records(detail))
        nxt = self.connect()
        nxt.settimeout(3)
        nxt.sendall(request_records(self.me()))
        status, _, body = read_answer(nxt)
        self.assertEqual((status, json.loads(body)["data"]["id"]), (200, self.owner.id))
        status, headers, body = read_answer(unread)
        self.assertEqual(status, 200)
        self.assertTrue(250000 < len(body) < 400000, "the answer is not the size this test needs: %d" % len(body))
        self.assertEqual(int(headers["Content-Length"]), len(body))
        self.assertEqual([x["error_message"] for x in json.loads(body)["data"]["resources"]], ["e" * 400] * 500)
