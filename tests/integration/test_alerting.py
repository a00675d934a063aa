"""Issue 24 item 4: what a monitor's alerting carries (sql/017_alerting.sql):
alert timing, each alert link's delay and repeat, DNS expectations,
assertions and basic auth, written by the importer from the normalized keys
(src/providers/common.h), kept by a re-import that could not read them, and
put back by a revert. Runs are written straight into the database
(synthetic_run): each provider's mapping into these keys is tested in its
fidelity test against its fake."""

import json

from test_revert import RevertTestCase

SEALED = "c2VhbGVkIGJsb2IgYXMgZGlzY292ZXJ5IHN0b3JlcyBpdA=="  # base64, as discovery stores a sealed secret

MONITOR = {"name": "Shop DNS", "type": "dns", "url": "shop.example.com", "interval": 60,
           "alert_after_checks": 3, "alert_after_s": 120, "recovery_s": 180, "realert_s": 3600,
           "muted_until": "2027-01-02T03:04:05Z", "dns_record_type": "aaaa",
           "dns_expected": ["2001:db8::1", "2001:db8::2"], "dns_nameserver": "ns1.example.net",
           "assertions": [{"source": "json", "property": "$.status", "comparison": "equals", "target": "ok"}],
           "auth_username": "probe", "auth_password_sealed": SEALED,
           "contact_ids": ["c1", "c2"], "contact_timing": {"c1": {"delay_s": 300, "repeat_s": 900}}}
HEARTBEAT = {"name": "Backup", "interval": 3600, "grace": 300, "realert_s": 7200,
             "contact_ids": ["c2"], "contact_timing": {"c2": {"delay_s": 60, "repeat_s": None}}}
CONTACTS = [("contact", "c1", {"name": "Ops", "type": "email", "value": "ops@example.com"}),
            ("contact", "c2", {"name": "Night", "type": "sms", "value": "+15550100"})]
COLS = ("alert_after_checks, alert_after_s, recovery_s, realert_s, muted_until, dns_record_type, dns_expected, "
        "dns_nameserver, assertions, auth_username, auth_password_sealed")


class TestAlerting(RevertTestCase):

    def imported(self, user, monitor, heartbeat=HEARTBEAT):
        rid = self.synthetic_run(user, "pingdom", CONTACTS + [("monitor", "m1", monitor),
                                                              ("heartbeat", "h1", heartbeat)])
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, "completed"), "completed")
        return rid

    def monitor(self, user):
        row = self.stack.sql("SELECT %s FROM monitors WHERE user_id=%d" % (COLS, user.id))
        self.assertEqual(len(row), 1)
        return dict(zip([c.strip() for c in COLS.split(",")], row[0]))

    def links(self, user, table="monitor"):
        return self.stack.sql(
            "SELECT c.name, x.delay_s, x.repeat_s FROM {t}_contacts x JOIN {t}s o ON o.id = x.{t}_id "
            "JOIN contacts c ON c.id = x.contact_id WHERE o.user_id={u} ORDER BY c.name".format(t=table, u=user.id))

    def test_timing_dns_assertions_and_login_arrive(self):
        user = self.user()
        self.imported(user, MONITOR)
        m = self.monitor(user)
        self.assertEqual((m["alert_after_checks"], m["alert_after_s"], m["recovery_s"], m["realert_s"]),
                         ("3", "120", "180", "3600"))
        self.assertEqual(str(m["muted_until"]), "2027-01-02 03:04:05")
        self.assertEqual((m["dns_record_type"], json.loads(m["dns_expected"]), m["dns_nameserver"]),
                         ("AAAA", ["2001:db8::1", "2001:db8::2"], "ns1.example.net"))
        self.assertEqual(json.loads(m["assertions"]), MONITOR["assertions"])
        self.assertEqual((m["auth_username"], m["auth_password_sealed"]), ("probe", SEALED))
        # each link with its own timing; a link without one alerts at once, once
        self.assertEqual(self.links(user), [("Night", None, None), ("Ops", "300", "900")])
        self.assertEqual(self.links(user, "heartbeat"), [("Night", "60", None)])
        self.assertEqual(self.stack.sql_value("SELECT realert_s FROM heartbeats WHERE user_id=%d" % user.id), "7200")

    def test_a_reimport_that_could_not_read_them_keeps_them(self):
        user = self.user()
        self.imported(user, MONITOR)
        before, links = self.monitor(user), self.links(user)
        later = dict(MONITOR, alert_after_s=30, dns_expected=["192.0.2.9"], contact_ids=[], contact_timing={},
                     auth_password_sealed=None,
                     unread={"keys": ["alert_after_s", "dns_expected", "auth_password_sealed", "contact_ids"],
                             "why": "its details could not be read (HTTP 500)"})
        self.imported(user, later)
        self.assertEqual(self.monitor(user), before)
        self.assertEqual(self.links(user), links)

    def test_a_revert_puts_the_timing_back(self):
        user = self.user()
        self.imported(user, MONITOR)
        before, links, hb = self.monitor(user), self.links(user), self.links(user, "heartbeat")
        changed = dict(MONITOR, alert_after_checks=None, recovery_s=30, muted_until=None, dns_expected=[],
                       assertions=[], auth_username=None, auth_password_sealed=None,
                       contact_timing={"c1": {"delay_s": 10, "repeat_s": None}, "c2": {"delay_s": None,
                                                                                       "repeat_s": 60}})
        rid = self.imported(user, changed, dict(HEARTBEAT, contact_timing={}))
        self.assertEqual(self.links(user), [("Night", None, "60"), ("Ops", "10", None)])
        self.assertEqual(self.monitor(user)["recovery_s"], "30")
        self.revert(user, rid)
        self.assertEqual(self.drive(rid, "reverted"), "reverted")
        self.assertEqual(self.monitor(user), before)
        self.assertEqual(self.links(user), links)
        self.assertEqual(self.links(user, "heartbeat"), hb)

    def test_a_record_type_with_digits_arrives(self):
        # DNS record types are letters and digits (NSEC3, UptimeRobot's DnsRecordsDto)
        user = self.user()
        self.imported(user, dict(MONITOR, dns_record_type="nsec3"))
        self.assertEqual(self.monitor(user)["dns_record_type"], "NSEC3")
