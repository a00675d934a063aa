#!/bin/sh
# Seeds of fuzz_jsonw: the recorded provider answers of the unit tests'
# fixtures and the request bodies of fuzz_rest's and fuzz_mcp's seeds, each
# turned into the target's program (the op bytes of gen_value in
# fuzz_jsonw.c) that writes the same value; every third object is spliced,
# every fifth stored.
# Usage: fuzz_jsonw.sh TOP CORPUS
set -eu
top=$1 corpus=$2
requests=$(mktemp -d)
trap 'rm -rf "$requests"' EXIT
sh "$top/tests/fuzz/seeds/fuzz_rest.sh" "$top" "$requests"
sh "$top/tests/fuzz/seeds/fuzz_mcp.sh" "$top" "$requests"
python3 - "$top" "$corpus" "$requests" <<'EOF'
import glob, json, os, struct, sys

top, corpus, requests = sys.argv[1], sys.argv[2], sys.argv[3]
NULL, BOOL, INT, STRING, TIME, ARRAY, OBJECT, SPLICE, STORED = range(9)
count = [0]


def text(s):
    """A string's bytes: the short form holds up to 223 (cut on a character)."""
    b = s.encode("utf-8")
    while len(b) > 223:
        s = s[:-1]
        b = s.encode("utf-8")
    return bytes([len(b)]) + b


def value(v, depth=0):
    if v is None:
        return bytes([NULL, 0])
    if isinstance(v, bool):
        return bytes([BOOL, int(v)])
    if isinstance(v, float):
        v = int(v) if v == v and abs(v) < 2 ** 63 else str(v)
    if isinstance(v, int):
        if not -2 ** 63 <= v < 2 ** 63:
            return bytes([STRING]) + text(str(v)) + b"\0"
        return bytes([INT, 7]) + struct.pack("<q", v)
    if isinstance(v, str):
        return bytes([STRING]) + text(v) + b"\0"
    if depth >= 19:
        return bytes([NULL, 0])
    if isinstance(v, list):
        v = v[:15]
        return bytes([ARRAY, len(v)]) + b"".join(value(x, depth + 1) for x in v)
    items = list(v.items())[:15]
    body = bytes([len(items)]) + b"".join(text(k) + value(x, depth + 1) for k, x in items)
    count[0] += 1
    if count[0] % 5 == 0:
        return bytes([STORED]) + body
    if count[0] % 3 == 0:
        return bytes([SPLICE, OBJECT]) + body
    return bytes([OBJECT]) + body


docs = []
for f in sorted(glob.glob(os.path.join(top, "tests/unit/fixtures/*/*.json"))):
    try:
        docs.append((os.path.basename(os.path.dirname(f)) + "-" + os.path.basename(f)[:-5],
                     json.load(open(f, encoding="utf-8"))))
    except ValueError:
        pass  # the truncated and malformed answers
for f in sorted(glob.glob(os.path.join(requests, "*"))):
    if f.endswith("-rows"):
        continue
    body = open(f, "rb").read().split(b"\0")[0].partition(b"\n\n")[2]
    try:
        docs.append(("request-" + os.path.basename(f), json.loads(body)))
    except ValueError:
        pass
for name, doc in docs:
    with open(os.path.join(corpus, "json-" + name), "wb") as out:
        out.write(value(doc))
# Strings with every escape, and a long one that crosses the 4096-byte block.
with open(os.path.join(corpus, "escapes"), "wb") as out:
    every = bytes(range(0, 128)) + "/é\u2028😀".encode("utf-8")
    out.write(bytes([ARRAY, 3, STRING, len(every)]) + every + b"\0" +
              bytes([STRING, 0xe0 | 2]) + b'a"\\' + struct.pack("<H", 8191) + b"\0" +
              bytes([TIME]) + struct.pack("<H", 1024) + bytes([2, 3, 4, 5, 6, 6]))
EOF
