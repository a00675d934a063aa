#!/bin/sh
# Seeds of fuzz_fcgi: the requests of fuzz_rest's and fuzz_mcp's seeds (the
# integration suite's), as a web server sends them over FastCGI, written as
# the target's choices (build() in fuzz_fcgi.c): method, URI, the headers
# fcgi.c reads, the body with its Content-Length; each in one record per
# stream, in small padded records, with FCGI_KEEP_CONN and a management
# record first, with stdin not ended, and with stdin as records of its own
# (first byte odd: the body in records as test_fastcgi.py builds them, then a
# second FCGI_BEGIN_REQUEST and a record of another type).
# Usage: fuzz_fcgi.sh TOP CORPUS
set -eu
top=$1 corpus=$2
requests=$(mktemp -d)
trap 'rm -rf "$requests"' EXIT
sh "$top/tests/fuzz/seeds/fuzz_rest.sh" "$top" "$requests"
sh "$top/tests/fuzz/seeds/fuzz_mcp.sh" "$top" "$requests"
python3 - "$corpus" "$requests" <<'EOF'
import glob, os, struct, sys

corpus, requests = sys.argv[1], sys.argv[2]
METHODS = {b"GET": 0, b"POST": 1, b"DELETE": 2}
HEADERS = [b"authorization", b"origin", b"host", b"content-type", b"mcp-protocol-version"]


def value(v):
    """A short value: its length (below 64) and its bytes."""
    v = v[:63]
    return bytes([len(v)]) + v


def choices(method, uri, headers, body, variant, rid):
    hostile = variant == 4
    flags = METHODS.get(method, 3) << 4 | (1 if variant == 2 else 0) | (2 if variant == 2 else 0) \
        | (8 if variant == 3 else 0)
    out = bytes([1 if hostile else 0]) + struct.pack("<H", rid - 1) + bytes([flags, 0]) + value(uri)
    have = {k.lower(): v for k, v in headers}
    for name in HEADERS:
        out += b"\1" + value(have[name]) if name in have else b"\0"
    out += struct.pack("<H", len(body)) + body
    # records: one per stream ("\0\0"), or of 62 bytes padded by 4 ("\1\4")
    chunk = b"\1\4" if variant == 1 else b"\0\0"
    out += chunk * 4  # the params
    if hostile:  # the body in 5-byte stdin records, an empty one, a second begin, a stray type
        for i in range(0, len(body), 5):
            out += bytes([5, 0]) + struct.pack(">H", len(body[i:i + 5])) + b"\3" + body[i:i + 5]
        out += bytes([5, 0, 0, 0, 0]) + bytes([1, 0, 0, 8, 0]) + struct.pack(">HB5x", 1, 0)
        out += bytes([0x0b, 7, 0, 2, 0]) + b"zz"
    else:
        out += chunk * 4  # stdin
    return out + b"\0\2\1\2"  # the fake's answer: 200, two headers


n = 0
for f in sorted(glob.glob(os.path.join(requests, "*"))):
    if "-" in os.path.basename(f):
        continue  # the same request with a database tail
    head, _, body = open(f, "rb").read().split(b"\0")[0].partition(b"\n\n")
    lines = head.split(b"\n")
    method, _, uri = lines[0].partition(b" ")
    headers = [(b"content-type", b"application/json"),
               (b"authorization", b"Bearer 7|FuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzz0123")]
    headers += [tuple(x.strip() for x in line.split(b":", 1)) for line in lines[1:] if b":" in line]
    for variant in range(5):
        n += 1
        with open(os.path.join(corpus, "fcgi%d" % n), "wb") as out:
            out.write(choices(method, uri, headers, body, variant, 1 + n % 65535))
EOF
