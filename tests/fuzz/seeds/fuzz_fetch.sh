#!/bin/sh
# Seeds of fuzz_fetch: for each provider, the recorded answers of its unit
# tests' fixtures (tests/unit/fixtures/<provider>/) as the target's answers:
# each alone (with the status its name says: unauthorized 401, forbidden
# 403, not_found 404, rate_limited 429 with Retry-After, server_error 500,
# else 200), and a whole discovery: the answers in the order the adapter asks
# for them (FLOWS), with the administrator's base URL and the optional
# credentials, and without, and resumed at made-up checkpoints.
# Usage: fuzz_fetch.sh TOP CORPUS
set -eu
top=$1 corpus=$2
python3 - "$top" "$corpus" <<'EOF'
import glob, os, sys

top, corpus = sys.argv[1], sys.argv[2]
PROVIDERS = ["uptimerobot", "pingdom", "statuscake", "better_stack", "updown", "healthchecks", "cronitor",
             "statuspage", "whmcs"]  # the order of provider_list (src/providers/registry.c)
FLOWS = {
    "uptimerobot": "v3_monitors_scan1 v3_monitors_scan2 v3_alert_contacts v3_integrations v3_mwindows v3_monitors "
                   "v3_psps",
    "pingdom": "checks contacts teams detail_http detail_dns detail_tcp checks_last detail_gopingdom checks_fetch "
               "contacts maintenance",
    "statuscake": "uptime_page1 uptime_detail_http contact_groups uptime_detail_dns uptime_detail_tcp uptime_page2 "
                  "uptime_detail_head contact_groups uptime_detail_http heartbeat ssl contact_groups maintenance_windows",
    "better_stack": "monitors_page1 heartbeats_last policies on_calls status_pages resources sections",
    "updown": "checks recipients status_pages",
    "healthchecks": "checks channels",
    "cronitor": "monitors_page1 notifications monitors_page2 statuspages maintenance",
    "statuspage": "pages components_page0 components_last component_groups subscribers_page0 subscribers_last",
    "whmcs": "clients currencies client_details contacts products addons domains invoices invoice transactions",
}
STATUS = {"unauthorized": b"401", "invalid_key": b"401", "missing_key": b"401", "forbidden": b"403",
          "not_found": b"404", "rate_limited": b"429\nretry-after: 7", "server_error": b"500"}


def answer(path):
    name = os.path.basename(path)[:-5]
    status = next((v for k, v in STATUS.items() if k in name), b"200")
    return status + b"\ncontent-type: application/json\n\n" + open(path, "rb").read()


for i, provider in enumerate(PROVIDERS):
    files = sorted(glob.glob(os.path.join(top, "tests/unit/fixtures", provider, "*.json")))
    for n, f in enumerate(files):
        with open(os.path.join(corpus, "%s-%s" % (provider, os.path.basename(f)[:-5])), "wb") as out:
            out.write(bytes([i, n % 4]) + answer(f))
    flow = [answer(os.path.join(top, "tests/unit/fixtures", provider, f + ".json")) for f in FLOWS[provider].split()]
    for flags in range(4):
        with open(os.path.join(corpus, "%s-flow%d" % (provider, flags)), "wb") as out:
            out.write(bytes([i, flags]) + b"\n%%\n".join(flow))
    # resumed at a checkpoint (first line): made up, malformed, or out of range
    for n, cursor in enumerate([b"x:1", b":", b"", b"checks:99999999999999999999", b"page:-1"]):
        with open(os.path.join(corpus, "%s-resume%d" % (provider, n)), "wb") as out:
            out.write(bytes([i, 4]) + cursor + b"\n" + b"\n%%\n".join(flow))
EOF
