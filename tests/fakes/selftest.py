#!/usr/bin/env python3
"""Quick self-check of fakeprov.py (standard library only).

Starts the fake on a free port in a subprocess (--demo), exercises every
provider's list endpoints with right and wrong keys, pagination, one fault of
each kind, a 100000-monitor UptimeRobot account's last page, mutate, the
request log and reset, then stops it.  Prints "N passed, N failed" last and
exits non-zero on any failure.

    python3 tests/fakes/selftest.py [-v]
"""

import base64
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlencode, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fakeprov.py")
HC_KEY = "demo-key-" + "0" * 23
SECRETS = ("demo-key", "demo-secret", "wrong-key-123", "big-key-1", "acc-key-9", HC_KEY)
VERBOSE = "-v" in sys.argv


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, cond, detail=""):
        if cond:
            self.passed += 1
            if VERBOSE:
                print("ok   " + name)
        else:
            self.failed += 1
            print("FAIL " + name + ((": " + str(detail)[:300]) if detail != "" else ""))
        return cond


R = Results()
PORT = None


class Resp:
    def __init__(self, status, headers, body, error=None):
        self.status = status
        self.headers = headers
        self.body = body
        self.error = error

    def json(self):
        try:
            return json.loads(self.body.decode("utf-8"))
        except Exception:
            return None

    def h(self, name):
        return self.headers.get(name.lower())


def call(method, path, body=None, headers=None, timeout=5.0, form=None, js=None):
    headers = dict(headers or {})
    if form is not None:
        body = urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if js is not None:
        body = json.dumps(js).encode()
        headers["Content-Type"] = "application/json"
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        data = r.read()
        return Resp(r.status, {k.lower(): v for k, v in r.getheaders()}, data)
    except (OSError, http.client.HTTPException) as e:
        return Resp(None, {}, b"", e)
    finally:
        conn.close()


def ctl(method, path, js=None):
    r = call(method, "/_control/" + path, js=js if js is not None else ({} if method == "POST" else None))
    return r.json()


def bearer(tok):
    return {"Authorization": "Bearer " + tok}


def basic(user):
    return {"Authorization": "Basic " + base64.b64encode((user + ":").encode()).decode()}


def faults(pid, *fs):
    ctl("POST", pid + "/faults", {"faults": list(fs)})


# ------------------------------------------------------------------------------------------

def t_uptimerobot():
    p = "/uptimerobot/v2/"
    r = call("POST", p + "getMonitors", form={"api_key": "demo-key", "format": "json", "alert_contacts": "1"})
    j = r.json()
    R.check("ur monitors 200 ok", r.status == 200 and j and j["stat"] == "ok", r.body)
    mons = j["monitors"]
    R.check("ur monitors total 12+2", j["pagination"] == {"offset": 0, "limit": 50, "total": 14}, j["pagination"])
    R.check("ur rate headers", all(r.h(k) for k in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")))
    R.check("ur sub_type empty string on http", mons[0]["sub_type"] == "" and mons[0]["port"] == "")
    R.check("ur port as string on a port monitor", any(m["type"] == 4 and isinstance(m["port"], str) and m["port"]
                                                       for m in mons))
    R.check("ur heartbeats are type 5", [m["type"] for m in mons[-2:]] == [5, 5])
    R.check("ur paused every 5th", mons[4]["status"] == 0 and mons[3]["status"] != 0)
    ac = mons[0]["alert_contacts"][0]["id"]
    R.check("ur monitor contact id is string with leading zero", isinstance(ac, str) and ac.startswith("0"), ac)
    r2 = call("POST", p + "getMonitors", js={"api_key": "demo-key", "format": "json", "offset": 10, "limit": 50})
    j2 = r2.json()
    R.check("ur JSON body + offset", j2 and len(j2["monitors"]) == 4 and j2["pagination"]["offset"] == 10, r2.body)
    R.check("ur alert_contacts absent without flag", "alert_contacts" not in j2["monitors"][0])
    r = call("POST", p + "getAlertContacts", form={"api_key": "demo-key", "limit": "2", "offset": "0"})
    j = r.json()
    R.check("ur contacts top-level paging", j and j.get("total") == 3 and j.get("limit") == 2 and "pagination" not in j, j)
    R.check("ur contact ids match monitor refs", j["alert_contacts"][0]["id"] == ac)
    r = call("POST", p + "getPSPs", form={"api_key": "demo-key"})
    j = r.json()
    R.check("ur psps nested paging", j and j["pagination"]["total"] == 2, j)
    R.check("ur psp monitors list and single 0", isinstance(j["psps"][0]["monitors"], list) and j["psps"][1]["monitors"] == 0)
    r = call("POST", p + "getAccountDetails", form={"api_key": "demo-key"})
    R.check("ur account details", r.json() and r.json()["account"]["total_monitors_count"] == 14)
    r = call("POST", p + "getMonitors", form={"api_key": "wrong-key-123", "format": "json"})
    j = r.json()
    R.check("ur bad key: 200 + stat fail echoing key", r.status == 200 and j == {"stat": "fail", "error": {
        "type": "invalid_parameter", "parameter_name": "api_key", "passed_value": "wrong-key-123",
        "message": "api_key not found."}}, r.body)
    r = call("POST", p + "getAlertContacts?api_key=demo-key", form={"format": "json"})
    R.check("ur query key refused outside getMonitors", r.json()["error"]["message"] == "api_key parameter is missing.")
    r = call("POST", p + "getMonitors?api_key=demo-key", form={"format": "json"})
    R.check("ur query key allowed on getMonitors", r.json()["stat"] == "ok")
    r = call("POST", p + "getMonitors", form={"api_key": "demo-key", "types": "5"})
    R.check("ur types filter", r.json()["pagination"]["total"] == 2)


def t_uptimerobot_v3():
    bearer_demo = {"Authorization": "Bearer demo-key"}
    r = call("GET", "/uptimerobot/v3/monitors", headers=bearer_demo)
    j = r.json()
    R.check("ur v3 monitors data + nextLink", r.status == 200 and j and len(j["data"]) == 14 and j["nextLink"] is None,
            r.body[:200])
    kw = [m for m in j["data"] if m["type"] == "KEYWORD"]
    R.check("ur v3 keyword modes both ways", {m["keywordType"] for m in kw} == {"ALERT_EXISTS", "ALERT_NOT_EXISTS"}, kw)
    R.check("ur v3 heartbeats", [m["type"] for m in j["data"][-2:]] == ["HEARTBEAT", "HEARTBEAT"])
    R.check("ur v3 tags, groups, regions", any(m["tags"] for m in j["data"]) and any(m["groupId"] for m in j["data"])
            and any("regionData" in m for m in j["data"]) and any(m.get("regionalData") == "eu" for m in j["data"]))
    R.check("ur v3 POST body and headers", any(m["postValueData"] for m in j["data"])
            and any(m["customHttpHeaders"] for m in j["data"]))
    R.check("ur v3 windows on monitors", j["data"][0]["maintenanceWindows"][0]["interval"] == "weekly")
    r = call("POST", "/uptimerobot/v2/getMonitors", form={"api_key": "demo-key", "alert_contacts": "1", "ssl": "1",
                                                          "custom_http_headers": "1", "custom_http_statuses": "1",
                                                          "mwindows": "1"})
    mons = r.json()["monitors"]
    R.check("ur v2 keyword_type both ways", {m["keyword_type"] for m in mons if m["type"] == 2} == {1, 2})
    R.check("ur v2 method, body, statuses, headers", any(m["post_value"] for m in mons)
            and any(m["custom_http_statuses"] for m in mons) and any(m["custom_http_headers"] for m in mons)
            and any(m["custom_http_headers"] == [] for m in mons))
    R.check("ur v2 port sub_type 1 with the real port", any(m["type"] == 4 and m["sub_type"] == 1 and m["port"] not in
                                                            ("", 80) for m in mons))
    R.check("ur v2 mwindows on monitors", mons[0]["mwindows"] and "ssl" in mons[0])
    r = call("POST", "/uptimerobot/v2/getMWindows", form={"api_key": "demo-key"})
    j = r.json()
    R.check("ur v2 getMWindows", j["stat"] == "ok" and j["pagination"]["total"] == 2 and j["mwindows"][1]["type"] == 1
            and isinstance(j["mwindows"][1]["start_time"], int) and j["mwindows"][0]["value"], j)
    r = call("GET", "/uptimerobot/v3/user/alert-contacts", headers=bearer_demo)
    personal = r.json()
    r = call("GET", "/uptimerobot/v3/integrations", headers=bearer_demo)
    integ = r.json()
    R.check("ur v3 contacts split: bare array + integrations", isinstance(personal, list) and len(personal) == 1
            and personal[0]["type"] == "Email" and len(integ["data"]) == 2 and integ["nextLink"] is None, (personal, integ))
    r = call("GET", "/uptimerobot/v3/maintenance-windows", headers=bearer_demo)
    R.check("ur v3 windows", len(r.json()["data"]) == 2 and "nextCursorId" in r.json())
    r = call("GET", "/uptimerobot/v3/psps", headers=bearer_demo)
    R.check("ur v3 psps", len(r.json()["data"]) == 2 and r.json()["data"][0]["monitorIds"])
    r = call("GET", "/uptimerobot/v3/monitors", headers={"Authorization": "Bearer nope"})
    R.check("ur v3 bad key 401", r.status == 401 and r.json()["statusCode"] == 401)
    # a legacy key: v3 refuses it; a v3-only key: v2 does not know it; refuse option; cursor paging
    ctl("POST", "uptimerobot/account", {"credentials": {"api_key": "old-key-1"}, "counts": {"monitors": 3}})
    r = call("GET", "/uptimerobot/v3/monitors", headers={"Authorization": "Bearer old-key-1"})
    r2 = call("POST", "/uptimerobot/v2/getMonitors", form={"api_key": "old-key-1"})
    R.check("ur legacy key: v3 401, v2 ok", r.status == 401 and r2.json()["stat"] == "ok", r.status)
    ctl("POST", "uptimerobot/account", {"credentials": {"api_key": "new-key-1"}, "options": {"api": "v3"},
                                        "counts": {"monitors": 120, "maintenance": 3}, "refuse": ["maintenance"]})
    r = call("POST", "/uptimerobot/v2/getMonitors", form={"api_key": "new-key-1"})
    R.check("ur v3-only key unknown to v2", r.json()["error"]["message"] == "api_key not found.")
    h = {"Authorization": "Bearer new-key-1"}
    r = call("GET", "/uptimerobot/v3/monitors", headers=h)
    j = r.json()
    cur = j["nextLink"].rsplit("=", 1)[1] if j["nextLink"] else ""
    R.check("ur v3 page of 50 with a cursor", len(j["data"]) == 50 and cur == str(j["data"][-1]["id"]), j["nextLink"])
    R.check("ur v3-only types", {"DNS", "API", "UDP"} <= {m["type"] for m in j["data"]})
    r = call("GET", "/uptimerobot/v3/monitors?cursor=" + cur, headers=h)
    R.check("ur v3 next page", r.json()["data"][0]["id"] == int(cur) + 1)
    r = call("GET", "/uptimerobot/v3/maintenance-windows", headers=h)
    R.check("ur refuse option: v3 403", r.status == 403 and r.json()["statusCode"] == 403)
    ctl("POST", "uptimerobot/account", {"credentials": {"api_key": "old-key-2"}, "refuse": ["contacts"]})
    r = call("POST", "/uptimerobot/v2/getAlertContacts", form={"api_key": "old-key-2"})
    R.check("ur refuse option: v2 not_authorized", r.status == 200 and r.json()["error"]["type"] == "not_authorized")
    ctl("POST", "demo?provider=uptimerobot")


def t_uptimerobot_big():
    t0 = time.time()
    s = ctl("POST", "uptimerobot/account", {"credentials": {"api_key": "big-key-1"},
                                            "counts": {"monitors": 100000, "heartbeats": 0, "contacts": 7,
                                                       "status_pages": 2}, "seed": 3, "paused_every": 10})
    R.check("big account created fast", s and s["counts"]["monitors"] == 100000 and time.time() - t0 < 1.0, s)
    r = call("POST", "/uptimerobot/v2/getMonitors", form={"api_key": "big-key-1", "offset": "99950", "limit": "50"})
    j = r.json()
    ok = j and j["pagination"] == {"offset": 99950, "limit": 50, "total": 100000} and len(j["monitors"]) == 50
    R.check("big last page", ok, j and j.get("pagination"))
    if ok:
        R.check("big last id matches summary", j["monitors"][-1]["id"] == s["ids"]["monitors"]["last"])
        R.check("big 100000th monitor paused", j["monitors"][-1]["status"] == 0)
        R.check("big names from index", j["monitors"][-1]["friendly_name"] == "Demo Monitor 100000")
    r = call("POST", "/uptimerobot/v2/getMonitors", form={"api_key": "big-key-1", "offset": "0", "limit": "500"})
    R.check("big limit capped at 50", len(r.json()["monitors"]) == 50 and r.json()["pagination"]["limit"] == 50)
    s2 = ctl("POST", "uptimerobot/account", {"credentials": {"api_key": "big-key-1"},
                                             "counts": {"monitors": 100000}, "seed": 3})
    R.check("same seed same ids", s2["ids"]["monitors"]["first"] == s["ids"]["monitors"]["first"])
    R.check("big run under 2s", time.time() - t0 < 2.0, time.time() - t0)
    ctl("POST", "demo?provider=uptimerobot")


def t_pingdom():
    p = "/pingdom/api/3.1/"
    r = call("GET", p + "checks?limit=5&offset=10", headers=bearer("demo-key"))
    j = r.json()
    R.check("pd checks page", r.status == 200 and len(j["checks"]) == 2 and j["counts"]["total"] == 12, r.body)
    R.check("pd Req-Limit headers", (r.h("req-limit-short") or "").startswith("Remaining: ")
            and "Time until reset:" in (r.h("req-limit-long") or ""))
    R.check("pd type is string in list", isinstance(j["checks"][0]["type"], str))
    R.check("pd list has no tags unless asked", "tags" not in j["checks"][0])
    r = call("GET", p + "checks?include_tags=true", headers=basic("demo-key"))
    checks = r.json()["checks"]
    R.check("pd basic auth", r.status == 200 and len(checks) == 12)
    R.check("pd include_tags", checks[0]["tags"][0] == {"name": "demo", "type": "u", "count": 12}, checks[0])
    R.check("pd demo has every type", {c["type"] for c in checks} ==
            {"http", "httpcustom", "tcp", "ping", "dns", "smtp", "udp", "pop3", "imap"})
    cid = checks[0]["id"]
    r = call("GET", p + "checks/%d?include_teams=true" % cid, headers=bearer("demo-key"))
    d = r.json()["check"]
    h = d["type"].get("http", {})
    R.check("pd detail type object", r.status == 200 and isinstance(d["type"], dict) and "http" in d["type"])
    R.check("pd detail http settings", h.get("url") == "/health/1?probe=pingdom&v=0" and h.get("encryption") is True
            and h.get("port") == 8443 and h.get("shouldcontain") == "OK-1"
            and h["requestheaders"]["User-Agent"].startswith("Pingdom.com_bot")
            and h.get("ssl_down_days_before") == 7, h)
    R.check("pd detail links", len(d["userids"]) == 1 and len(d["teams"]) == 1
            and "teamids" not in d and d["probe_filters"] == ["region: EU"], d)
    r = call("GET", p + "checks/%d" % (cid + 1), headers=bearer("demo-key"))
    d = r.json()["check"]
    R.check("pd teams only with include_teams", "teams" not in d, d)
    R.check("pd shouldnotcontain + postdata", d["type"]["http"].get("shouldnotcontain") == "Error 2"
            and d["type"]["http"].get("postdata") == "user=demo2&remember=1", d["type"])
    r = call("GET", p + "alerting/contacts", headers=bearer("demo-key"))
    R.check("pd contacts", r.status == 200 and len(r.json()["contacts"]) == 3)
    r = call("GET", p + "alerting/teams", headers=bearer("demo-key"))
    t = r.json()["teams"]
    R.check("pd teams", r.status == 200 and len(t) == 1 and len(t[0]["members"]) == 2, r.body)
    r = call("GET", p + "maintenance?limit=1&offset=1", headers=bearer("demo-key"))
    mw = r.json()["maintenance"]
    R.check("pd maintenance page", r.status == 200 and len(mw) == 1 and mw[0]["recurrencetype"] == "week"
            and len(mw[0]["checks"]["uptime"]) == 3, r.body)
    r = call("GET", p + "checks", headers=bearer("wrong-key-123"))
    R.check("pd bad token 401 envelope", r.status == 401 and r.json()["error"]["statuscode"] == 401, r.body)
    R.check("pd headers on 401 too", r.h("req-limit-short") is not None)
    ctl("POST", "pingdom/account", {"credentials": {"api_token": "demo-key"},
                                    "options": {"refuse": ["maintenance", "teams"]}})
    r1 = call("GET", p + "maintenance", headers=bearer("demo-key"))
    r2 = call("GET", p + "alerting/teams", headers=bearer("demo-key"))
    r3 = call("GET", p + "alerting/contacts", headers=bearer("demo-key"))
    R.check("pd refuse option: 403 envelope", r1.status == 403 and r2.status == 403 and r3.status == 200
            and r1.json()["error"]["statuscode"] == 403, (r1.status, r2.status, r3.status))
    ctl("POST", "demo?provider=pingdom")


def t_statuscake():
    seen, page = [], 1
    while True:
        r = call("GET", "/statuscake/v1/uptime?page=%d&limit=5" % page, headers=bearer("demo-key"))
        j = r.json()
        if not R.check("sc uptime page %d" % page, r.status == 200 and j, r.body):
            return
        seen += [d["id"] for d in j["data"]]
        if page >= j["metadata"]["page_count"]:
            break
        page += 1
    R.check("sc paged to 12 string ids", len(set(seen)) == 12 and all(isinstance(i, str) for i in seen), seen)
    R.check("sc x-ratelimit headers", r.h("x-ratelimit-remaining") is not None and r.h("x-ratelimit-limit"))
    R.check("sc list entries are overviews", "find_string" not in j["data"][0] and "tags" in j["data"][0])
    for path, n in (("heartbeat", 2), ("contact-groups", 3), ("ssl", 2), ("maintenance-windows", 2)):
        r = call("GET", "/statuscake/v1/" + path, headers=bearer("demo-key"))
        R.check("sc " + path, r.status == 200 and r.json()["metadata"]["total_count"] == n, r.body)
    dets = [call("GET", "/statuscake/v1/uptime/" + i, headers=bearer("demo-key")).json()["data"] for i in seen]
    R.check("sc single item", dets[0]["id"] == seen[0])
    R.check("sc detail carries request settings", all(k in dets[0] for k in (
        "find_string", "do_not_find", "custom_header", "status_codes", "timeout", "follow_redirects", "servers",
        "trigger_rate", "confirmation", "enable_ssl_alert", "user_agent", "port", "post_body", "post_raw")))
    R.check("sc keyword both ways", dets[0]["find_string"] and not dets[0]["do_not_find"]
            and dets[2]["find_string"] and dets[2]["do_not_find"] and dets[2]["test_type"] == "HEAD")
    R.check("sc custom_header is a JSON string", json.loads(dets[0]["custom_header"])["X-Env"] == "prod")
    R.check("sc post body, constant rate, tcp port", dets[1]["post_body"] and dets[2]["check_rate"] == 0
            and dets[4]["test_type"] == "TCP" and dets[4]["port"] == 8004)
    R.check("sc url with port, path and query", dets[1]["website_url"] == "https://m2.example.com:8443/health/2?probe=1&env=prod",
            dets[1]["website_url"])
    g = call("GET", "/statuscake/v1/contact-groups", headers=bearer("demo-key")).json()["data"]
    R.check("sc groups: several addresses, ping_url", len(g[0]["email_addresses"]) == 2 and g[0]["mobile_numbers"]
            and g[0]["ping_url"].startswith("https://") and "ping_url" not in g[1] and g[2]["integrations"])
    r = call("GET", "/statuscake/v1/uptime?tags=prod&matchany=true&limit=100", headers=bearer("demo-key"))
    R.check("sc tags filter", r.json()["metadata"]["total_count"] == 6 and all("prod" in d["tags"] for d in r.json()["data"]))
    w = call("GET", "/statuscake/v1/maintenance-windows", headers=bearer("demo-key")).json()["data"]
    R.check("sc windows name checks", all(t in seen for t in w[0]["tests"]) and w[1]["tags"] == ["team-1"], w)
    r = call("GET", "/statuscake/v1/uptime?limit=101", headers=bearer("demo-key"))
    R.check("sc limit > 100 is 400", r.status == 400)
    r = call("GET", "/statuscake/v1/uptime", headers=bearer("wrong-key-123"))
    R.check("sc bad token 401", r.status == 401)
    ctl("POST", "statuscake/account", {"credentials": {"api_token": "refuse-key"},
                                       "options": {"refuse": ["maintenance", "ssl"]}})
    r1 = call("GET", "/statuscake/v1/maintenance-windows", headers=bearer("refuse-key"))
    r2 = call("GET", "/statuscake/v1/uptime", headers=bearer("refuse-key"))
    R.check("sc refused kind 403, others served", r1.status == 403 and r1.json()["message"] and r2.status == 200,
            (r1.status, r2.status))
    ctl("POST", "demo?provider=statuscake")


def t_better_stack():
    url, ids, pages = "/better_stack/api/v2/monitors?per_page=5", [], 0
    mons = []
    while url and pages < 10:
        r = call("GET", url, headers=bearer("demo-key"))
        j = r.json()
        if not R.check("bs page %d" % pages, r.status == 200 and j, r.body):
            return
        ids += [d["id"] for d in j["data"]]
        mons += j["data"]
        nxt = j["pagination"]["next"]
        if nxt:
            u = urlsplit(nxt)
            R.check("bs next is absolute URL to this server", u.scheme == "http" and u.port == PORT, nxt)
            url = u.path + "?" + u.query
        else:
            url = None
        pages += 1
    R.check("bs followed next to the end", len(ids) == 12 and pages == 3, (len(ids), pages))
    types = [m["attributes"]["monitor_type"] for m in mons]
    R.check("bs every monitor type once", len(set(types)) == 12 and "keyword_absence" in types, types)
    m1 = mons[1]["attributes"]
    R.check("bs rich monitor", m1["url"].startswith("https://m2.example.com:8443/health/2?")
            and m1["http_method"] == "head" and m1["request_headers"][0]["name"] == "X-Probe"
            and m1["expected_status_codes"] == ["200", "301"], m1)
    R.check("bs smtp port string", mons[7]["attributes"]["port"] == "25,465,587")
    R.check("bs policy on monitor 4", mons[3]["attributes"]["policy_id"] is not None
            and mons[0]["attributes"]["policy_id"] is None)
    R.check("bs maintenance on monitor 1", mons[0]["attributes"]["maintenance_from"] == "01:00:00"
            and mons[0]["attributes"]["maintenance_days"] == ["sat", "sun"])
    for path, n in (("heartbeats", 2), ("status-pages", 1)):
        r = call("GET", "/better_stack/api/v2/" + path, headers=bearer("demo-key"))
        j = r.json()
        R.check("bs " + path, r.status == 200 and len(j["data"]) == n and j["pagination"]["next"] is None, r.body)
    r = call("GET", "/better_stack/api/v2/on-calls", headers=bearer("demo-key"))
    j = r.json()
    default = [c for c in j["data"] if c["attributes"]["default_calendar"]]
    R.check("bs on-calls default calendar with included users", r.status == 200 and len(default) == 1
            and len(default[0]["relationships"]["on_call_users"]["data"]) == 2
            and {i["type"] for i in j["included"]} == {"on_call_user"}, r.body)
    r = call("GET", "/better_stack/api/v3/policies", headers=bearer("demo-key"))
    j = r.json()
    R.check("bs policies with user step members", r.status == 200 and len(j["data"]) == 1
            and j["data"][0]["attributes"]["steps"][0]["step_members"][0]["type"] == "user", r.body)
    for path in ("email-integrations", "outgoing-webhooks"):
        r = call("GET", "/better_stack/api/v2/" + path, headers=bearer("demo-key"))
        R.check("bs %s not served (never contacts)" % path, r.status == 404, r.status)
    sp = call("GET", "/better_stack/api/v2/status-pages", headers=bearer("demo-key")).json()["data"][0]["id"]
    r = call("GET", "/better_stack/api/v2/status-pages/%s/resources" % sp, headers=bearer("demo-key"))
    res = [d["attributes"] for d in r.json()["data"]]
    R.check("bs status page resources reference monitors",
            r.status == 200 and int(ids[0]) in [d["resource_id"] for d in res]
            and "ManuallyTrackedItem" in [d["resource_type"] for d in res])
    r = call("GET", "/better_stack/api/v2/status-pages/%s/sections" % sp, headers=bearer("demo-key"))
    R.check("bs status page sections", r.status == 200 and len(r.json()["data"]) == 2, r.body)
    r = call("GET", "/better_stack/api/v2/status-pages/%s/status-reports" % sp, headers=bearer("demo-key"))
    reps = r.json()["data"]
    R.check("bs status reports, oldest first", r.status == 200 and len(reps) == 3
            and [x["attributes"]["report_type"] for x in reps] == ["automatic", "maintenance", "manual"]
            and reps[-1]["attributes"]["ends_at"] is None, r.body)
    r = call("GET", "/better_stack/api/v2/status-pages/%s/status-reports/%s/status-updates" % (sp, reps[1]["id"]),
             headers=bearer("demo-key"))
    ups = [x["attributes"] for x in r.json()["data"]]
    R.check("bs status updates, newest first", r.status == 200 and len(ups) == 3
            and ups[0]["published_at"] > ups[-1]["published_at"]
            and [x["id"] for x in r.json()["data"]] == [x["id"] for x in reps[1]["relationships"]["status_updates"]["data"]],
            r.body)
    ctl("POST", "better_stack/mutate", {"options": {"refuse": ["status-updates"]}})
    r = call("GET", "/better_stack/api/v2/status-pages/%s/status-reports/%s/status-updates" % (sp, reps[1]["id"]),
             headers=bearer("demo-key"))
    r2 = call("GET", "/better_stack/api/v2/status-pages/%s/status-reports" % sp, headers=bearer("demo-key"))
    R.check("bs refuse status-updates only", r.status == 403 and r2.status == 200, (r.status, r2.status))
    ctl("POST", "better_stack/mutate", {"options": {"refuse": []}})
    r = call("GET", "/better_stack/api/v2/monitors", headers=bearer("wrong-key-123"))
    R.check("bs bad token 401 errors string", r.status == 401 and isinstance(r.json()["errors"], str))
    ctl("POST", "better_stack/mutate", {"options": {"refuse": ["policies"]}})
    r = call("GET", "/better_stack/api/v3/policies", headers=bearer("demo-key"))
    R.check("bs refuse option answers 403", r.status == 403 and isinstance(r.json()["errors"], str), r.status)
    ctl("POST", "better_stack/mutate", {"options": {"refuse": []}})


def t_updown():
    r = call("GET", "/updown/api/checks", headers={"X-API-KEY": "demo-key"})
    j = r.json()
    R.check("ud checks array: 12 checks then 2 pulses", r.status == 200 and isinstance(j, list) and len(j) == 14
            and [c["type"] for c in j[12:]] == ["pulse", "pulse"], r.body[:200])
    R.check("ud paused = enabled false", j[4]["enabled"] is False and j[0]["enabled"] is True)
    R.check("ud keyword POST check", j[1]["string_match"] == "All systems go" and j[1]["http_verb"] == "POST"
            and j[1]["custom_headers"]["X-Env"] == "prod" and j[1]["disabled_locations"] == ["sin", "tok"]
            and j[1]["url"] == "https://m2.example.com/api/health?deep=1", j[1])
    R.check("ud forms", [c["type"] for c in j[:6]] == ["https", "https", "http", "tcp", "icmp", "tcps"]
            and j[2]["url"] == "http://m3.example.com:8080/status?full=true" and j[3]["url"] == "tcp://db4.example.com:5432")
    R.check("ud pulse url redacted", "[redacted]" in j[12]["url"] and j[12]["period"] == 300)
    r = call("GET", "/updown/api/checks/" + j[12]["token"], headers={"X-API-KEY": "demo-key"})
    R.check("ud one pulse", r.status == 200 and r.json()["type"] == "pulse")
    r = call("GET", "/updown/api/recipients?api-key=demo-key")
    rc = r.json()
    R.check("ud recipients via query key", r.status == 200 and len(rc) == 3
            and [x["type"] for x in rc] == ["email", "sms", "webhook"]
            and rc[0]["value"] == "Demo Contact 1 <contact1@example.com>")
    R.check("ud check references recipients", j[0]["recipients"] == [rc[0]["id"], rc[1]["id"]])
    for path in ("status_pages", "status-pages"):
        r = call("GET", "/updown/api/" + path, headers={"X-API-KEY": "demo-key"})
        R.check("ud " + path, r.status == 200 and r.json()[0]["checks"][0] == j[0]["token"]
                and r.json()[0]["checks"][-1] == j[12]["token"])
    r = call("GET", "/updown/api/checks", headers={"X-API-KEY": "wrong-key-123"})
    R.check("ud bad key 401", r.status == 401 and "error" in r.json())
    ctl("POST", "updown/mutate", {"options": {"refuse": ["recipients", "status_pages"]}})
    r = call("GET", "/updown/api/recipients", headers={"X-API-KEY": "demo-key"})
    r2 = call("GET", "/updown/api/status_pages", headers={"X-API-KEY": "demo-key"})
    R.check("ud refuse option answers 401", r.status == 401 and r2.status == 401 and "error" in r.json())
    ctl("POST", "demo?provider=updown")     # the demo account again (version 0)


def t_healthchecks():
    r = call("GET", "/healthchecks/api/v3/checks/", headers={"X-Api-Key": HC_KEY})
    j = r.json()
    R.check("hc checks", r.status == 200 and len(j["checks"]) == 3, r.body)
    c = j["checks"]
    R.check("hc cron check with tz, tags", c[2]["schedule"] == "*/5 * * * *" and c[2]["tz"] == "Europe/Riga"
            and "timeout" not in c[2] and c[0]["timeout"] == 3600 and c[0]["tags"] == "prod backup", c[2])
    r2 = call("GET", "/healthchecks/api/v3/channels/", headers={"X-Api-Key": HC_KEY})
    ch = r2.json()
    R.check("hc channels", r2.status == 200 and len(ch["channels"]) == 3
            and set(ch["channels"][0]) == {"id", "name", "kind"})
    R.check("hc check channels reference channel ids", c[0]["channels"].split(",") ==
            [ch["channels"][0]["id"], ch["channels"][1]["id"]])
    r = call("GET", "/healthchecks/api/v3/checks/", headers={"X-Api-Key": "x" * 32})
    R.check("hc wrong key", r.status == 401 and r.json() == {"error": "wrong api key"})
    r = call("GET", "/healthchecks/api/v3/checks/", headers={"X-Api-Key": "short"})
    R.check("hc short key is missing", r.status == 401 and r.json() == {"error": "missing api key"})
    r = call("GET", "/healthchecks/api/v3/checks/")
    R.check("hc no key is missing", r.status == 401 and r.json() == {"error": "missing api key"})
    ctl("POST", "healthchecks/mutate", {"options": {"refuse": ["channels"], "append_slash": True,
                                                    "moved_from": "/old"}})
    r = call("GET", "/healthchecks/api/v3/channels/", headers={"X-Api-Key": HC_KEY})
    R.check("hc refuse option: read-only 401", r.status == 401 and r.json() == {"error": "wrong api key"})
    r = call("GET", "/healthchecks/api/v3/checks", headers={"X-Api-Key": HC_KEY})
    R.check("hc append_slash 301", r.status == 301 and r.h("Location") == "/healthchecks/api/v3/checks/",
            (r.status, r.headers))
    r = call("GET", "/healthchecks/old/api/v3/checks/", headers={"X-Api-Key": HC_KEY})
    R.check("hc moved_from 301", r.status == 301 and r.h("Location") == "/healthchecks/api/v3/checks/")
    ctl("POST", "demo?provider=healthchecks")
    r = call("GET", "/healthchecks/api/v3/checks", headers={"X-Api-Key": HC_KEY})
    R.check("hc without append_slash the bare path answers", r.status == 200)


def t_cronitor():
    r = call("GET", "/cronitor/api/monitors?page=1", headers=basic("demo-key"))
    j = r.json()
    R.check("cr monitors page string", r.status == 200 and j["page"] == "1" and j["page_size"] == 50
            and j["total_monitor_count"] == 14 and len(j["monitors"]) == 14, r.body)
    s = ctl("POST", "cronitor/account", {"credentials": {"api_key": "demo-key"}, "counts": {"monitors": 60, "heartbeats": 5,
                                                                                          "contacts": 2, "status_pages": 1}})
    r = call("GET", "/cronitor/api/monitors?page=2", headers=basic("demo-key"))
    j = r.json()
    R.check("cr page 2 of 65", j["page"] == "2" and len(j["monitors"]) == 15, j and j.get("page"))
    R.check("cr last key from summary", j["monitors"][-1]["key"] == s["ids"]["heartbeats"]["last"])
    ctl("POST", "demo?provider=cronitor")
    r = call("GET", "/cronitor/api/notifications", headers=basic("demo-key"))
    R.check("cr notification templates", r.status == 200 and len(r.json()["templates"]) == 3)
    r = call("GET", "/cronitor/api/statuspages?withComponents=true", headers=basic("demo-key"))
    R.check("cr statuspages data", r.status == 200 and len(r.json()["data"]) == 1 and r.json()["data"][0]["components"])
    r = call("GET", "/cronitor/api/monitors", headers=basic("wrong-key-123"))
    R.check("cr bad key 403", r.status == 403 and r.json() == {"error": "Invalid API key"})
    ms = call("GET", "/cronitor/api/monitors", headers=basic("demo-key")).json()["monitors"]
    R.check("cr check 0: URL with port, path, query; keyword present; list key",
            ms[0]["request"]["url"].startswith("https://m1.example.com:8443/health/1?") and ms[0]["notify"] == ["default"]
            and 'response.body contains "OK-1"' in ms[0]["assertions"] and ms[0]["regions"] == ["us-east-1", "eu-central-1"])
    R.check("cr check 1: POST body, !contains, direct e-mail", ms[1]["request"]["method"] == "POST"
            and ms[1]["request"]["body"] and 'response.body !contains "Error 2"' in ms[1]["assertions"]
            and "email:oncall2@example.com" in ms[1]["notify"])
    R.check("cr check 2: map form with Slack; 3: notify omitted; 4: tcp; 5: site",
            ms[2]["notify"]["alerts"][1] == "slack:#mon-3" and "notify" not in ms[3]
            and ms[4]["request"]["url"] == "tcp://m5.example.com:5436" and ms[5]["type"] == "site")
    R.check("cr heartbeats: job with cron and timezone, heartbeat interval",
            ms[12]["type"] == "job" and ms[12]["timezone"] == "Europe/Stockholm" and ms[13]["schedule"] == "every 10 minutes")
    t = call("GET", "/cronitor/api/notifications", headers=basic("demo-key")).json()["templates"]
    R.check("cr list targets of several kinds", t[0]["notifications"]["emails"] == ["contact1@example.com", "ops@example.com"]
            and t[1]["notifications"]["phones"] == ["+15550000001"] and t[2]["notifications"]["webhooks"])
    r = call("GET", "/cronitor/api/maintenance_windows", headers=basic("demo-key"))
    w = r.json()["data"]
    R.check("cr maintenance windows", r.status == 200 and len(w) == 2 and w[0]["monitors"]
            and w[0]["start"] == "2023-11-16T00:13:20Z" and w[0]["end"] == "2023-11-16T01:13:20Z", w)
    ctl("POST", "cronitor/account", {"credentials": {"api_key": "demo-key"}, "refuse": ["notifications", "maintenance"]})
    r = call("GET", "/cronitor/api/notifications", headers=basic("demo-key"))
    R.check("cr refused kind 403", r.status == 403 and "permission" in r.json()["detail"])
    r = call("GET", "/cronitor/api/monitors", headers=basic("demo-key"))
    R.check("cr refuse leaves monitors", r.status == 200)
    ctl("POST", "demo?provider=cronitor")


def t_statuspage():
    s = ctl("GET", "statuspage/account")
    oauth = {"Authorization": "OAuth demo-key"}
    r = call("GET", "/statuspage/v1/pages", headers=oauth)
    j = r.json()
    R.check("sp pages bare array", r.status == 200 and isinstance(j, list) and j[0]["id"] == s["page_ids"][0], r.body)
    R.check("sp page fields", j[0]["domain"] == "status1.demo.example" and j[0]["time_zone"] == "America/New_York"
            and j[0]["url"] == "https://www.company1.example" and j[0]["page_description"], j[0])
    pid = s["page_ids"][0]
    sp = "/statuspage/v1/pages/%s/" % pid
    rows = call("GET", sp + "components?page=1&per_page=100", headers=oauth).json()
    R.check("sp components: group rows first, then 12 components", len(rows) == 15
            and [x["group"] for x in rows[:4]] == [True, True, True, False], [x["group"] for x in rows])
    comps = rows[3:]
    groups = call("GET", sp + "component-groups", headers=oauth).json()
    R.check("sp component groups", [g["name"] for g in groups] == ["Core API", "Web apps", "Infrastructure"]
            and groups[0]["components"] == [comps[0]["id"], comps[6]["id"], comps[9]["id"]], groups)
    R.check("sp component group_id", comps[1]["group_id"] == groups[1]["id"] and comps[3]["group_id"] is None)
    # page base: default numbered from 1 (page 0 read as 1); option 0 and strict1
    got, page = [], 1
    while page < 10:
        r = call("GET", sp + "components?page=%d&per_page=5" % page, headers=oauth)
        got += r.json()
        if len(r.json()) < 5:
            break
        page += 1
    R.check("sp components 1-based pages", len(got) == 15 and page == 4, (len(got), page))
    r0 = call("GET", sp + "components?page=0&per_page=5", headers=oauth).json()
    R.check("sp page 0 read as page 1", [x["id"] for x in r0] == [x["id"] for x in got[:5]])
    for base, want in (("0", 5), ("strict1", 0)):
        ctl("POST", "statuspage/mutate", {"options": {"page_base": base}})
        r1 = call("GET", sp + "components?page=1&per_page=5", headers=oauth).json()
        r0 = call("GET", sp + "components?page=0&per_page=5", headers=oauth).json()
        R.check("sp page_base " + base, len(r0) == want and (base != "0" or r1[0]["id"] == got[5]["id"]), (len(r0), base))
    ctl("POST", "statuspage/mutate", {"options": {"page_base": 1}})
    r = call("GET", sp + "subscribers.json?page=0&limit=2&api_key=demo-key")
    r2 = call("GET", sp + "subscribers?page=1&limit=2&api_key=demo-key")
    R.check("sp subscribers 0-based pages, active by default", len(r.json()) == 2 and len(r2.json()) == 2
            and r.json()[0]["id"] != r2.json()[0]["id"], (r.body, r2.body))
    subs = call("GET", sp + "subscribers?state=all", headers=oauth).json()
    R.check("sp subscribers: every mode", [x["mode"] for x in subs] ==
            ["email", "sms", "webhook", "slack", "integration_partner", "email"], subs)
    R.check("sp subscriber fields", subs[0]["email"] == "reader1@customer1.example" and subs[0]["components"] == []
            and subs[1]["display_phone_number"] == "+1 (202) 555-0001" and len(subs[1]["components"]) == 2
            and subs[3]["workspace_name"] == "Customer 1", subs[:4])
    unc = call("GET", sp + "subscribers?state=unconfirmed", headers=oauth).json()
    R.check("sp unconfirmed subscribers", [x["id"] for x in unc] == [subs[2]["id"], subs[5]["id"]], unc)
    r = call("GET", sp + "subscribers?state=bogus", headers=oauth)
    R.check("sp bad state 400", r.status == 400)
    ctl("POST", "statuspage/mutate", {"options": {"refuse": ["subscribers", "component_groups"]}})
    r = call("GET", sp + "subscribers", headers=oauth)
    r2 = call("GET", sp + "component-groups", headers=oauth)
    r3 = call("GET", sp + "components", headers=oauth)
    R.check("sp refuse option: 403 ErrorEntity", r.status == 403 and r2.status == 403 and r3.status == 200
            and r.json() == {"message": "You are not authorized to access this resource."}, (r.status, r2.status, r3.status))
    ctl("POST", "statuspage/mutate", {"options": {"refuse": []}})
    incs = call("GET", sp + "incidents?page=0&limit=100", headers=oauth).json()
    R.check("sp incidents: 4 incidents then 2 maintenances", [x["name"] for x in incs] ==
            ["Demo Incident %d" % n for n in (1, 2, 3, 4)] + ["Demo Maintenance 1", "Demo Maintenance 2"], incs)
    R.check("sp incident updates newest first", [u["status"] for u in incs[0]["incident_updates"]] ==
            ["resolved", "identified", "investigating"] and incs[0]["resolved_at"]
            and incs[2]["resolved_at"] is None, incs[:3])
    sched = call("GET", sp + "incidents/scheduled", headers=oauth).json()
    R.check("sp scheduled maintenances: the upcoming one", [x["id"] for x in sched] == [incs[4]["id"]]
            and sched[0]["status"] == "scheduled" and sched[0]["scheduled_for"], sched)
    ctl("POST", "statuspage/mutate", {"options": {"refuse": ["scheduled"]}})
    r = call("GET", sp + "incidents/scheduled", headers=oauth)
    r2 = call("GET", sp + "incidents", headers=oauth)
    R.check("sp refuse scheduled only", r.status == 403 and r2.status == 200, (r.status, r2.status))
    ctl("POST", "statuspage/mutate", {"options": {"refuse": []}})
    r = call("GET", "/statuspage/v1/pages", headers={"Authorization": "OAuth wrong-key-123"})
    R.check("sp bad key", r.status == 401 and r.json() == {"error": "Could not authenticate"})


def whmcs(action, ident="demo-id", secret="demo-secret", **extra):
    form = {"action": action, "responsetype": "json", "identifier": ident, "secret": secret}
    form.update(extra)
    return call("POST", "/whmcs/includes/api.php", form=form)


def t_whmcs():
    r = whmcs("GetClients")
    j = r.json()
    R.check("wh clients doubly wrapped", r.status == 200 and len(j["clients"]["client"]) == 3, r.body)
    r = whmcs("GetClientsProducts", limitnum="2", limitstart="2")
    j = r.json()
    R.check("wh products page", len(j["products"]["product"]) == 2 and j["startnumber"] == 2)
    R.check("wh numbers as strings", isinstance(j["totalresults"], str) and isinstance(j["products"]["product"][0]["id"], str))
    R.check("wh domains", len(whmcs("GetClientsDomains").json()["domains"]["domain"]) == 2)
    R.check("wh invoices", len(whmcs("GetInvoices").json()["invoices"]["invoice"]) == 5)
    e = {a: whmcs(a, limitstart="1000").json() for a in ("GetClients", "GetClientsProducts", "GetClientsDomains",
                                                        "GetInvoices")}
    R.check("wh empty GetClients: key absent", "clients" not in e["GetClients"] and e["GetClients"]["numreturned"] == 0)
    R.check("wh empty GetClientsProducts: \"\"", e["GetClientsProducts"].get("products") == "")
    R.check("wh empty GetClientsDomains: \"\"", e["GetClientsDomains"].get("domains") == "")
    R.check("wh empty GetInvoices: []", e["GetInvoices"].get("invoices") == [])
    cid = whmcs("GetClients").json()["clients"]["client"][0]["id"]
    r = whmcs("GetClientsProducts", clientid=str(cid))
    R.check("wh clientid filter", all(p["clientid"] == str(cid) for p in r.json()["products"]["product"]))
    r = whmcs("GetClients", secret="wrong-key-123")
    R.check("wh bad secret 403", r.status == 403 and r.json() == {"result": "error", "message": "Authentication Failed"})
    r = whmcs("GetClients", ident="nobody")
    R.check("wh unknown identifier 403", r.status == 403 and r.json()["result"] == "error")
    r = whmcs("FrobnicateAll")
    R.check("wh unknown action", r.status == 200 and r.json() == {"result": "error", "message": "Command Not Found"})
    ctl("POST", "whmcs/account", {"credentials": {"api_identifier": "demo-id", "api_secret": "demo-secret",
                                                  "access_key": "acc-key-9"}})
    R.check("wh access key required", whmcs("GetClients").status == 403)
    R.check("wh access key accepted", whmcs("GetClients", accesskey="acc-key-9").status == 200)
    t_whmcs_detail()
    ctl("POST", "demo?provider=whmcs")


def t_whmcs_detail():
    """The per-client and per-invoice actions, currencies, refusals and the redirect option."""
    ctl("POST", "whmcs/account", {"credentials": {"api_identifier": "demo-id", "api_secret": "demo-secret"},
                                  "counts": {"clients": 3, "contacts": 4, "services": 4, "addons": 5,
                                             "domains": 3, "invoices": 6, "transactions": 6},
                                  "options": {"currencies": ["USD", "EUR", "GBP"]}})
    cids = [c["id"] for c in whmcs("GetClients").json()["clients"]["client"]]
    d = whmcs("GetClientsDetails", clientid=str(cids[1])).json()["client"]
    R.check("wh details address and currency", d["address1"] and d["countrycode"] == "DE" and d["currency"] == 2
            and d["currency_code"] == "EUR" and d["phonenumberformatted"].startswith("+49."), d)
    R.check("wh details unknown client", whmcs("GetClientsDetails", clientid="1").json()["message"] == "Client Not Found")
    cur = whmcs("GetCurrencies").json()
    R.check("wh currencies", [c["code"] for c in cur["currencies"]["currency"]] == ["USD", "EUR", "GBP"], cur)
    c = whmcs("GetContacts", limitnum="3").json()
    R.check("wh contacts page", c["numreturned"] == "3" and c["totalresults"] == "4"
            and len(c["contacts"]["contact"]) == 3, c)
    R.check("wh contacts userid filter", all(x["userid"] == str(cids[0]) for x in
                                             whmcs("GetContacts", userid=str(cids[0])).json()["contacts"]["contact"]))
    sids = [p["id"] for p in whmcs("GetClientsProducts").json()["products"]["product"]]
    ad = whmcs("GetClientsAddons", serviceid=",".join(sids[:2])).json()
    R.check("wh addons by service csv", {x["serviceid"] for x in ad["addons"]["addon"]} == set(sids[:2])
            and ad["totalresults"] == "3", ad)
    R.check("wh addons none: key absent", "addons" not in whmcs("GetClientsAddons", serviceid="1").json())
    dm = whmcs("GetClientsDomains").json()["domains"]["domain"]
    R.check("wh domains regperiod/donotrenew", [x["regperiod"] for x in dm] == ["1", "2", "3"]
            and [x["donotrenew"] for x in dm] == ["0", "1", "0"])
    inv = whmcs("GetInvoices").json()["invoices"]["invoice"]
    R.check("wh invoices currency of the client", [x["currencycode"] for x in inv[:3]] == ["USD", "EUR", "GBP"])
    gi = whmcs("GetInvoice", invoiceid=inv[0]["id"]).json()
    lines = gi["items"]["item"]
    R.check("wh invoice lines add up", sum(int(x["amount"].replace(".", "")) for x in lines)
            == int(gi["subtotal"].replace(".", "")) and lines[0]["type"] == "Hosting", gi)
    R.check("wh invoice transactions", gi["transactions"]["transaction"][0]["invoiceid"] == inv[0]["id"], gi)
    R.check("wh invoice not found", whmcs("GetInvoice", invoiceid="1").json()["message"] == "Invoice ID Not Found")
    tx = whmcs("GetTransactions", clientid=str(cids[0])).json()
    R.check("wh transactions per client", tx["numreturned"] == 2 and all(t["userid"] == str(cids[0])
                                                                        for t in tx["transactions"]["transaction"]), tx)
    R.check("wh transaction without invoice", tx["transactions"]["transaction"][1]["invoiceid"] == "0")
    ctl("POST", "whmcs/mutate", {"options": {"refuse": ["contacts", "GetInvoice"], "old_whmcs": True}})
    r = whmcs("GetContacts")
    R.check("wh refused kind", r.status == 403 and r.json()["message"]
            == 'Invalid Permissions: API action "getcontacts" is not allowed', r.body)
    R.check("wh refused action", whmcs("GetInvoice", invoiceid=inv[0]["id"]).status == 403)
    R.check("wh other actions still allowed", whmcs("GetClients").status == 200)
    R.check("wh old_whmcs: no currency codes", "currency_code" not in
            whmcs("GetClientsDetails", clientid=str(cids[0])).json()["client"]
            and "currencycode" not in whmcs("GetInvoices").json()["invoices"]["invoice"][0])
    ctl("POST", "whmcs/mutate", {"options": {"refuse": [], "redirect": True}})
    r = whmcs("GetClients")
    R.check("wh redirect 301", r.status == 301 and r.h("location").endswith("/whmcs/billing/includes/api.php"), r.headers)
    form = {"action": "GetClients", "responsetype": "json", "identifier": "demo-id", "secret": "demo-secret"}
    r = call("POST", "/whmcs/billing/includes/api.php", form=form)
    R.check("wh redirect target answers the POST", r.status == 200 and len(r.json()["clients"]["client"]) == 3)


def t_statuspage_rolling_window():
    oauth = {"Authorization": "OAuth demo-key"}
    ctl("POST", "statuspage/mutate", {"options": {"rolling_window": 1}})
    since = time.time()
    time.sleep(1.0)  # the requests of t_statuspage leave the window
    r1 = call("GET", "/statuspage/v1/pages", headers=oauth)
    r2 = call("GET", "/statuspage/v1/pages", headers=oauth)
    R.check("statuspage: a second request within the second refused with 420", r1.status == 200 and r2.status == 420
            and r2.h("retry-after") == "1", (r1.status, r2.status, r2.headers))
    time.sleep(1.0)
    R.check("statuspage: a second later it answers", call("GET", "/statuspage/v1/pages", headers=oauth).status == 200)
    ctl("POST", "statuspage/mutate", {"options": {"rolling_window": 0}})
    R.check("statuspage: rolling_window 0 turns it off", all(
        call("GET", "/statuspage/v1/pages", headers=oauth).status == 200 for _ in range(3)))
    ctl("POST", "statuspage/mutate", {"options": {"rolling_window": None}})
    log = [e for e in ctl("GET", "requests?provider=statuspage&since=%f" % since) if e["fault"] == "rate_limit"]
    R.check("statuspage: the refusal is in the request log", len(log) == 1, log)


def t_faults():
    p = "/uptimerobot/v2/getMonitors"
    f = {"api_key": "demo-key"}
    faults("uptimerobot", {"kind": "429", "retry_after": 2, "times": 2, "match": "getMonitors"})
    r1, r2, r3 = (call("POST", p, form=f) for _ in range(3))
    R.check("fault 429 twice with Retry-After", r1.status == 429 and r2.status == 429 and r1.h("retry-after") == "2"
            and r1.h("x-ratelimit-remaining") == "0", (r1.status, r1.headers))
    R.check("fault 429 then ok", r3.status == 200)
    faults("statuscake", {"kind": "429", "retry_after": 5, "retry_after_date": True})
    r = call("GET", "/statuscake/v1/uptime", headers=bearer("demo-key"))
    R.check("fault retry_after_date", r.status == 429 and (r.h("retry-after") or "").endswith("GMT"), r.headers)
    faults("uptimerobot", {"kind": "429", "retry_after": 30, "no_retry_after": True, "match": "getMonitors"})
    r = call("POST", p, form=f)
    reset = int(r.h("x-ratelimit-reset") or 0) - int(time.time())
    R.check("fault no_retry_after: the provider's reset still says when", r.status == 429
            and r.h("retry-after") is None and 28 <= reset <= 30 and r.h("x-ratelimit-remaining") == "0", r.headers)
    faults("pingdom", {"kind": "429", "no_retry_after": True, "no_limit_headers": True})
    r = call("GET", "/pingdom/api/3.1/checks", headers=bearer("demo-key"))
    R.check("fault no_limit_headers: nothing says when", r.status == 429 and r.h("retry-after") is None
            and r.h("req-limit-short") is None and r.h("req-limit-long") is None, r.headers)
    faults("pingdom", {"kind": "429", "retry_after": 7})
    r = call("GET", "/pingdom/api/3.1/checks", headers=bearer("demo-key"))
    R.check("fault 429 pingdom windows used up", r.h("req-limit-short") == "Remaining: 0 Time until reset: 7", r.headers)
    faults("statuspage", {"kind": "429"}, {"kind": "429", "status": 429})
    r1 = call("GET", "/statuspage/v1/pages", headers={"Authorization": "OAuth demo-key"})
    r2 = call("GET", "/statuspage/v1/pages", headers={"Authorization": "OAuth demo-key"})
    R.check("fault statuspage 420 default, 429 selectable", r1.status == 420 and r2.status == 429, (r1.status, r2.status))
    for kind in ("500", "502", "503"):
        faults("pingdom", {"kind": kind})
        r = call("GET", "/pingdom/api/3.1/checks", headers=bearer("demo-key"))
        R.check("fault " + kind, r.status == int(kind), r.status)
    faults("better_stack", {"kind": "slow", "seconds": 1.0})
    t0 = time.time()
    r = call("GET", "/better_stack/api/v2/monitors", headers=bearer("demo-key"), timeout=0.3)
    R.check("fault slow exceeds client timeout", r.error is not None and time.time() - t0 < 0.9, r.error)
    faults("updown", {"kind": "truncated"})
    r = call("GET", "/updown/api/checks", headers={"X-API-KEY": "demo-key"})
    R.check("fault truncated: valid start, invalid JSON", r.status == 200 and r.body.startswith(b"[{")
            and r.json() is None, r.body[:50])
    faults("healthchecks", {"kind": "bad_json"})
    r = call("GET", "/healthchecks/api/v3/checks/", headers={"X-Api-Key": HC_KEY})
    R.check("fault bad_json", r.status == 200 and "json" in (r.h("content-type") or "") and r.json() is None)
    faults("cronitor", {"kind": "bad_key"})
    r = call("GET", "/cronitor/api/monitors", headers=basic("demo-key"))
    R.check("fault bad_key", r.status == 403 and r.json() == {"error": "Invalid API key"})
    faults("uptimerobot", {"kind": "bad_key", "match": "getPSPs"})
    r = call("POST", "/uptimerobot/v2/getPSPs", form=f)
    R.check("fault bad_key uptimerobot echoes sent key", r.json()["error"]["passed_value"] == "demo-key")
    faults("statuspage", {"kind": "empty"})
    r = call("GET", "/statuspage/v1/pages", headers={"Authorization": "OAuth demo-key"})
    R.check("fault empty", r.status == 200 and r.body == b"")
    faults("whmcs", {"kind": "reset", "match": "GetInvoices"})
    r_ok = whmcs("GetClients")
    r = whmcs("GetInvoices")
    R.check("fault reset: action match skips other actions", r_ok.status == 200)
    R.check("fault reset closes without answer", r.status is None and r.error is not None, r.status)
    faults("pingdom", {"kind": "503", "match": "offset=25", "after": 1})
    a = call("GET", "/pingdom/api/3.1/checks?limit=25&offset=25", headers=bearer("demo-key"))
    b = call("GET", "/pingdom/api/3.1/checks?limit=25&offset=0", headers=bearer("demo-key"))
    c = call("GET", "/pingdom/api/3.1/checks?limit=25&offset=25", headers=bearer("demo-key"))
    R.check("fault match + after", (a.status, b.status, c.status) == (200, 200, 503), (a.status, b.status, c.status))
    faults("uptimerobot", {"kind": "endless", "times": 2, "match": "getMonitors"})
    e1 = call("POST", p, form=dict(f, offset="0", limit="50")).json()
    e2 = call("POST", p, form=dict(f, offset="5000", limit="50")).json()
    R.check("fault endless: the first page at every offset, the total always past it",
            e1["stat"] == "ok" and e1["monitors"] and [m["id"] for m in e1["monitors"]] == [m["id"] for m in e2["monitors"]]
            and e2["pagination"] == {"offset": 5000, "limit": 50, "total": 5051}, e2.get("pagination"))
    faults("pingdom", {"kind": "endless"})
    r = call("GET", "/pingdom/api/3.1/checks", headers=bearer("demo-key"))
    R.check("fault endless not served by other fakes: 501", r.status == 501, r.status)
    for where in ("body", "error_body", "retry_after", "content_type", "location"):
        faults("pingdom", {"kind": "bad_utf8", "where": where})
        r = call("GET", "/pingdom/api/3.1/checks", headers=bearer("demo-key"))
        raw = r.body + "".join(r.headers.values()).encode("latin-1")
        R.check("fault bad_utf8 %s: bytes that are not UTF-8" % where, b"\xff\xfe" in raw, (r.status, r.headers))
    pend = ctl("GET", "pingdom/faults")
    R.check("fault queue drained", pend == {"pending": []}, pend)


def t_mutate():
    before = call("GET", "/updown/api/checks", headers={"X-API-KEY": "demo-key"}).json()
    s = ctl("POST", "updown/mutate", {"rename_prefix": "Renamed", "rename_every": 2})
    after = call("GET", "/updown/api/checks", headers={"X-API-KEY": "demo-key"}).json()
    R.check("mutate keeps ids", [c["token"] for c in before] == [c["token"] for c in after])
    R.check("mutate renames every 2nd", after[0]["alias"] == "Renamed Monitor 1" and after[1]["alias"] == "Demo Monitor 2",
            (after[0]["alias"], after[1]["alias"]))
    R.check("mutate bumps version", s["version"] == 1)
    s = ctl("POST", "updown/mutate", {"counts": {"monitors": 13}})
    after2 = call("GET", "/updown/api/checks", headers={"X-API-KEY": "demo-key"}).json()
    R.check("mutate adds items, old ids kept", len([c for c in after2 if c["type"] != "pulse"]) == 13
            and after2[0]["token"] == before[0]["token"])


def t_log_and_reset(stderr_path):
    log = call("GET", "/_control/requests?provider=whmcs").json()
    R.check("request log has entries", isinstance(log, list) and len(log) > 5 and {"method", "path", "query", "status", "ts"}
            <= set(log[0]))
    all_log = call("GET", "/_control/requests").body.decode()
    R.check("request log has no secrets", not any(s in all_log for s in SECRETS),
            [s for s in SECRETS if s in all_log])
    ctl("POST", "reset")
    r = call("GET", "/updown/api/checks", headers={"X-API-KEY": "demo-key"})
    R.check("after reset the key is unknown", r.status == 401)
    log = call("GET", "/_control/requests").json()
    R.check("after reset log holds only the new request", len(log) == 1 and log[0]["status"] == 401, log)
    r = call("GET", "/_control/health")
    R.check("health", r.json() == {"ok": True})
    with open(stderr_path) as fh:
        err = fh.read()
    R.check("stderr has one line per request and no secrets", "GET /updown/api/checks 401" in err
            and not any(s in err for s in SECRETS), [s for s in SECRETS if s in err])


def main():
    global PORT
    t_start = time.time()
    tmp = tempfile.mkdtemp(prefix="fakeprov-selftest-")
    port_file = os.path.join(tmp, "port")
    err_path = os.path.join(tmp, "stderr.log")
    with open(err_path, "w") as err:
        proc = subprocess.Popen([sys.executable, FAKE, "--port", "0", "--port-file", port_file, "--demo"],
                                stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.time() + 10
        while time.time() < deadline and not os.path.exists(port_file):
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        if not os.path.exists(port_file):
            R.check("server started", False, open(err_path).read())
        else:
            PORT = int(open(port_file).read().strip())
            R.check("server started", True)
            for fn in (t_uptimerobot, t_uptimerobot_v3, t_uptimerobot_big, t_pingdom, t_statuscake, t_better_stack, t_updown,
                       t_healthchecks, t_cronitor, t_statuspage, t_statuspage_rolling_window, t_whmcs, t_faults,
                       t_mutate):
                try:
                    fn()
                except Exception as e:  # a crash in one group is one failure, the rest still run
                    R.check(fn.__name__ + " raised", False, repr(e))
            t_log_and_reset(err_path)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    R.check("stopped on SIGTERM", proc.returncode == 0, proc.returncode)
    R.check("finished well under 30 s", time.time() - t_start < 20, time.time() - t_start)
    print("%d passed, %d failed" % (R.passed, R.failed))
    return 1 if R.failed else 0


if __name__ == "__main__":
    sys.exit(main())
