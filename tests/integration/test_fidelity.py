"""Integration tests of the importer's account model (issue 10), independent
of any one provider: every resource kind lands in its table with every field,
and a site that is already in the account, whichever provider (or person)
created it, is planned as a conflict naming that object, never created twice.

Runs are written straight into the database as discovery would leave them
(RunnerTestCase.synthetic_run), then executed by the real runner. Each
provider's own end-to-end test (fake provider -> account tables) is in
test_fidelity_<provider>.py.
"""

import json

from harness import q
from test_runner import RunnerTestCase


def monitor(name, url, type_="http", **kw):
    norm = {"name": name, "url": url, "type": type_, "interval": 60, "paused": False, "port": None,
            "keyword": None, "contact_ids": []}
    norm.update(kw)
    return norm


class TestEveryKindLandsInItsTable(RunnerTestCase):

    def items(self):
        return [
            ("contact", "c-mail", {"name": "Ops", "type": "email", "value": "ops@example.com",
                                   "needs_address": False}),
            ("contact", "c-slack", {"name": "#alerts", "type": "slack", "value": None, "needs_address": True}),
            ("monitor", "m1", monitor(
                "Shop", "https://shop.example.com:8443/health?x=1", "keyword", keyword="All systems go",
                keyword_up_when="absent", keyword_case_sensitive=False, http_method="post",
                request_body='{"ping":1}', request_headers={"X-Env": "prod"},
                expected_status_codes=["200", "201"], alert_status_codes=[], timeout=15,
                follow_redirects=True, verify_ssl=False, ssl_expiry_days=14, regions=["eu", "us"],
                tags=["prod", "shop"], contact_ids=["c-mail", "c-slack"])),
            ("monitor", "m2", monitor("DB port", "db.example.com", "port", port=5432)),
            ("heartbeat", "h1", {"name": "Nightly backup", "interval": 86400, "grace": 600, "paused": False,
                                 "ping_url": None, "schedule": "15 5 * * *", "timezone": "Europe/Riga",
                                 "tags": ["backup"], "contact_ids": ["c-mail"]}),
            ("maintenance_window", "w1", {"name": "Weekly DB", "recurrence": "weekly", "start": "03:30",
                                          "end": None, "duration": 120, "days": [1, 3],
                                          "timezone": "Europe/London", "paused": False,
                                          "monitor_ids": ["m1", "h1"]}),
            ("status_page", "p1", {"name": "Status", "url": "https://status.example.com", "public": True,
                                   "timezone": "UTC", "items": [
                                       {"monitor_id": "m1", "name": "Public shop", "section": "Web"},
                                       {"monitor_id": None, "name": "Email delivery", "section": "Mail"},
                                       {"monitor_id": "h1", "name": None, "section": None}]}),
            ("status_page_subscriber", "s1", {"status_page_id": "p1", "kind": "email",
                                              "address": "reader@example.org", "state": "active",
                                              "created": "2024-01-23T04:56:07Z", "components": ["b13yz"]}),
            ("hosting_client", "cl1", {"email": "client@example.com", "first_name": "Ann", "last_name": "Lee",
                                       "company": "Lee Ltd", "status": "Active", "created": "2016-01-15",
                                       "address1": "123 Test Street", "address2": "", "city": "Test",
                                       "state": "Tester", "postcode": "TE5 5ST", "country": "GB",
                                       "phone": "+44.1234567890", "currency": "GBP", "credit": "5.00"}),
            ("hosting_contact", "hc1", {"client_id": "cl1", "first_name": "Bob", "last_name": "Lee",
                                        "email": "bob@example.com", "phone": "+44.1", "company": None,
                                        "address1": None, "address2": None, "city": "Leeds", "state": None,
                                        "postcode": None, "country": "GB"}),
            ("hosting_service", "sv1", {"client_id": "cl1", "product": "VPS", "domain": "lee.example",
                                        "status": "Active", "billing_cycle": "Monthly", "amount": "15.95",
                                        "next_due": "2024-05-01", "first_amount": "10.00",
                                        "registered": "2016-01-15", "currency": "GBP"}),
            ("hosting_addon", "ad1", {"client_id": "cl1", "service_id": "sv1", "name": "Backups",
                                      "status": "Active", "billing_cycle": "Monthly", "amount": "2.50",
                                      "setup_fee": "0.00", "next_due": "2024-05-01",
                                      "registered": "2016-02-01", "currency": "GBP"}),
            ("hosting_domain", "d1", {"client_id": "cl1", "domain": "lee.example", "registrar": "enom",
                                      "status": "Active", "expiry": "2025-01-01", "next_due": "2024-12-01",
                                      "amount": "9.99", "registered": "2016-01-15", "currency": "GBP",
                                      "period": 2, "auto_renew": False}),
            ("invoice", "i1", {"client_id": "cl1", "number": "INV-1", "date": "2016-01-01",
                               "due": "2020-12-30", "paid_at": None, "total": "15.95", "currency": "GBP",
                               "status": "Unpaid", "subtotal": "15.95", "tax": "0.00", "tax2": "0.00",
                               "credit": "0.00", "balance": "15.95", "payment_method": "paypalcheckout",
                               "lines": [{"description": "Sample Monthly Product (01/01/2016 - 31/01/2016)",
                                          "amount": "15.95", "type": "Hosting", "relid": "1", "taxed": False},
                                         {"description": "Setup", "amount": "-1.5", "type": "",
                                          "relid": "0", "taxed": True}]}),
            ("payment", "t1", {"client_id": "cl1", "invoice_id": "i1", "date": "2016-01-02",
                               "gateway": "paypal", "transaction_id": "TX-9", "description": "Invoice 1",
                               "amount_in": "15.95", "fees": "0.76", "amount_out": "0.00", "currency": "GBP"}),
        ]

    def test_every_field_of_every_kind_arrives(self):
        user = self.user()
        items = self.items()
        rid = self.synthetic_run(user, "whmcs", list(reversed(items)))  # references before their targets
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed",
                         self.resources(rid, "status <> 'imported'"))
        self.assertEqual(self.get(user, rid)["data"]["stats"]["imported"], len(items))
        u = "user_id=%d" % user.id
        one = lambda sql: self.stack.sql_dicts(sql)[0]  # noqa: E731

        m = one("SELECT * FROM monitors WHERE %s AND name='Shop'" % u)
        self.assertEqual(m["url"], "https://shop.example.com:8443/health?x=1")
        self.assertEqual((m["type"], m["keyword"], m["keyword_up_when"], m["keyword_case_sensitive"]),
                         ("keyword", "All systems go", "absent", "0"))
        self.assertEqual((m["http_method"], m["request_body"]), ("POST", '{"ping":1}'))
        self.assertEqual(json.loads(m["request_headers"]), {"X-Env": "prod"})
        self.assertEqual(json.loads(m["expected_status_codes"]), ["200", "201"])
        self.assertIsNone(m["alert_status_codes"])
        self.assertEqual((m["timeout_s"], m["follow_redirects"], m["verify_ssl"], m["ssl_expiry_days"]),
                         ("15", "1", "0", "14"))
        self.assertEqual(json.loads(m["regions"]), ["eu", "us"])
        self.assertEqual(json.loads(m["tags"]), ["prod", "shop"])
        recipients = [r[0] for r in self.stack.sql(
            "SELECT c.value FROM monitor_contacts mc JOIN contacts c ON c.id = mc.contact_id "
            "WHERE mc.monitor_id=%s ORDER BY c.name" % m["id"])]
        self.assertEqual(recipients, [None, "ops@example.com"])
        port = one("SELECT * FROM monitors WHERE %s AND name='DB port'" % u)
        self.assertEqual((port["url"], port["port"], port["keyword_up_when"]), ("db.example.com", "5432", None))
        slack = one("SELECT * FROM contacts WHERE %s AND type='slack'" % u)
        self.assertEqual((slack["name"], slack["needs_address"]), ("#alerts", "1"))

        h = one("SELECT * FROM heartbeats WHERE %s" % u)
        self.assertEqual((h["schedule"], h["timezone"], h["grace_s"]), ("15 5 * * *", "Europe/Riga", "600"))
        self.assertEqual(json.loads(h["tags"]), ["backup"])
        self.assertEqual(self.stack.count("heartbeat_contacts", "heartbeat_id=%s" % h["id"]), 1)

        w = one("SELECT * FROM maintenance_windows WHERE %s" % u)
        self.assertEqual((w["recurrence"], w["starts"], w["duration_min"], w["timezone"]),
                         ("weekly", "03:30", "120", "Europe/London"))
        self.assertEqual(json.loads(w["days"]), [1, 3])
        self.assertEqual(self.stack.sql("SELECT monitor_id, heartbeat_id FROM maintenance_window_monitors "
                                        "WHERE window_id=%s ORDER BY position" % w["id"]),
                         [(m["id"], None), (None, h["id"])])

        p = one("SELECT * FROM status_pages WHERE %s" % u)
        self.assertEqual(p["timezone"], "UTC")
        self.assertEqual(self.stack.sql("SELECT monitor_id, heartbeat_id, name, section FROM status_page_monitors "
                                        "WHERE status_page_id=%s ORDER BY position" % p["id"]),
                         [(m["id"], None, "Public shop", "Web"), (None, None, "Email delivery", "Mail"),
                          (None, h["id"], None, None)])
        s = one("SELECT * FROM status_page_subscribers WHERE %s" % u)
        self.assertEqual((s["status_page_id"], s["kind"], s["address"], s["state"], s["subscribed_on"]),
                         (p["id"], "email", "reader@example.org", "active", "2024-01-23"))
        self.assertEqual(self.stack.count("contacts", "%s AND value='reader@example.org'" % u), 0,
                         "a subscriber is never a contact")

        c = one("SELECT * FROM hosting_clients WHERE %s" % u)
        self.assertEqual((c["address1"], c["city"], c["postcode"], c["country"], c["phone"], c["currency"],
                          c["credit"]), ("123 Test Street", "Test", "TE5 5ST", "GB", "+44.1234567890", "GBP", "5.00"))
        hc = one("SELECT * FROM hosting_contacts WHERE %s" % u)
        self.assertEqual((hc["client_id"], hc["email"], hc["city"]), (c["id"], "bob@example.com", "Leeds"))
        sv = one("SELECT * FROM hosting_services WHERE %s" % u)
        self.assertEqual((sv["client_id"], sv["amount"], sv["first_amount"], sv["registered"], sv["currency"]),
                         (c["id"], "15.95", "10.00", "2016-01-15", "GBP"))
        ad = one("SELECT * FROM hosting_addons WHERE %s" % u)
        self.assertEqual((ad["client_id"], ad["service_id"], ad["name"], ad["amount"], ad["currency"]),
                         (c["id"], sv["id"], "Backups", "2.50", "GBP"))
        d = one("SELECT * FROM hosting_domains WHERE %s" % u)
        self.assertEqual((d["currency"], d["period_years"], d["auto_renew"], d["registered"]),
                         ("GBP", "2", "0", "2016-01-15"))
        inv = one("SELECT * FROM invoices WHERE %s" % u)
        self.assertEqual((inv["total"], inv["currency"], inv["balance"], inv["payment_method"]),
                         ("15.95", "GBP", "15.95", "paypalcheckout"))
        self.assertEqual(self.stack.sql("SELECT position, description, amount, type, relid, taxed FROM invoice_items "
                                        "WHERE invoice_id=%s ORDER BY position" % inv["id"]),
                         [("0", "Sample Monthly Product (01/01/2016 - 31/01/2016)", "15.95", "Hosting", "1", "0"),
                          ("1", "Setup", "-1.50", None, "0", "1")])
        pay = one("SELECT * FROM payments WHERE %s" % u)
        self.assertEqual((pay["client_id"], pay["invoice_id"], pay["paid_on"], pay["amount_in"], pay["fees"],
                          pay["currency"]), (c["id"], inv["id"], "2016-01-02", "15.95", "0.76", "GBP"))

        # Importing the same run's account again updates every object in place.
        rid2 = self.synthetic_run(user, "whmcs", items)
        self.execute(user, rid2)
        self.assertEqual(self.drive(rid2, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        self.assertEqual(self.get(user, rid2)["data"]["stats"]["planned"], {"update": len(items)})
        self.assertEqual(self.stack.count("invoice_items", "invoice_id=%s" % inv["id"]), 2)


class TestEntriesNameTheirKind(RunnerTestCase):

    def test_a_heartbeat_entry_never_links_the_monitor_with_the_same_id(self):
        """Some providers number monitors and heartbeats apart (Better Stack): a
        status page entry or window that names a heartbeat links that heartbeat."""
        user = self.user()
        items = [
            ("monitor", "7", monitor("Seven", "https://seven.example.com/")),
            ("heartbeat", "7", {"name": "Seven job", "interval": 60, "grace": 0, "paused": False, "ping_url": None,
                                "schedule": None, "contact_ids": []}),
            ("status_page", "p", {"name": "P", "url": None, "public": True, "items": [
                {"monitor_id": "7", "name": None, "section": None},
                {"heartbeat_id": "7", "name": None, "section": None}]}),
            ("maintenance_window", "w", {"name": "W", "recurrence": "daily", "start": "01:00", "duration": 30,
                                         "monitor_ids": [], "heartbeat_ids": ["7"]}),
        ]
        rid = self.synthetic_run(user, "better_stack", items)
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors")), "completed")
        m = self.stack.sql_value("SELECT id FROM monitors WHERE user_id=%d" % user.id)
        h = self.stack.sql_value("SELECT id FROM heartbeats WHERE user_id=%d" % user.id)
        self.assertEqual(self.stack.sql("SELECT e.monitor_id, e.heartbeat_id FROM status_page_monitors e JOIN "
                                        "status_pages p ON p.id = e.status_page_id WHERE p.user_id=%d "
                                        "ORDER BY e.position" % user.id), [(m, None), (None, h)])
        self.assertEqual(self.stack.sql("SELECT l.monitor_id, l.heartbeat_id FROM maintenance_window_monitors l "
                                        "JOIN maintenance_windows w ON w.id = l.window_id WHERE w.user_id=%d"
                                        % user.id), [(None, h)])


class TestTheSameSiteIsNeverImportedTwice(RunnerTestCase):

    def run_to_plan(self, user, provider, items):
        rid = self.synthetic_run(user, provider, items)
        self.execute(user, rid)
        st = self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts"))
        return rid, st

    def test_a_site_imported_from_another_provider_is_a_conflict_naming_it(self):
        user = self.user()
        rid, st = self.run_to_plan(user, "pingdom", [
            ("contact", "1:email:0", {"name": "Ann", "type": "email", "value": "Ann@Example.com"}),
            ("monitor", "85975", monitor("Shop", "HTTPS://Shop.Example.com:443/health/?x=1")),
            ("monitor", "85976", monitor("Mail", "Mail.Example.com.", "port", port=25)),
            ("heartbeat", "hb1", {"name": "Backup", "interval": 3600, "grace": 0, "paused": False,
                                  "ping_url": "https://hc-ping.com/abc", "schedule": None, "contact_ids": []}),
        ])
        self.assertEqual(st, "completed")
        shop = self.stack.sql_value("SELECT id FROM monitors WHERE user_id=%d AND name='Shop'" % user.id)
        rid2, st = self.run_to_plan(user, "uptimerobot", [
            ("contact", "0993765", {"name": "Ann L.", "type": "email", "value": "ann@example.com"}),
            ("monitor", "777712827", monitor("Shop (UR)", "https://shop.example.com/health?x=1")),
            ("monitor", "777712828", monitor("Mail (UR)", "mail.example.com", "port", port=25)),
            ("monitor", "777712829", monitor("Shop path case", "https://shop.example.com/Health?x=1")),
            ("monitor", "777712830", monitor("Mail other port", "mail.example.com", "port", port=587)),
            ("monitor", "777712831", monitor("Shop as keyword", "https://shop.example.com/health?x=1", "keyword",
                                             keyword="OK")),
            ("heartbeat", "777712832", {"name": "Backup", "interval": 3600, "grace": 0, "paused": False,
                                        "ping_url": "https://hc-ping.com/abc", "schedule": None,
                                        "contact_ids": []}),
            ("heartbeat", "777712833", {"name": "Backup", "interval": 3600, "grace": 0, "paused": False,
                                        "ping_url": "https://hc-ping.com/other", "schedule": None,
                                        "contact_ids": []}),
        ])
        self.assertEqual(st, "paused_conflicts")
        res = {r["external_id"]: r for r in self.resources(rid2)}
        for ext in ("0993765", "777712827", "777712828", "777712832"):
            self.assertEqual((res[ext]["action"], res[ext]["status"]), ("conflict", "conflict"), ext)
            self.assertIn("imported from Pingdom", res[ext]["reason"])
        # the object is named as a person knows it: name, address and number
        url = self.stack.sql_value("SELECT url FROM monitors WHERE id=%s" % shop)
        self.assertIn('Exists: monitor "Shop" at %s (no. %s), imported from Pingdom, with the same type and URL.'
                      % (url, shop), res["777712827"]["reason"])
        for ext in ("777712829", "777712830", "777712831", "777712833"):
            self.assertEqual(res[ext]["action"], "create", ext)
        # resolved with skip: nothing is created twice
        r = user.request("POST", "/api/v1/migrations/%s/resolve-conflicts" % rid2, body={"strategy": "skip"})
        self.assertStatus(r, 200)
        self.execute(user, rid2)
        self.assertEqual(self.drive(rid2, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        self.assertEqual(self.count("monitors", user), 2 + 3)
        self.assertEqual(self.stack.count("monitors", "user_id=%d AND type='http' AND url COLLATE utf8mb4_bin IN "
                                                      "('HTTPS://Shop.Example.com:443/health/?x=1', "
                                                      "'https://shop.example.com/health?x=1')" % user.id), 1)
        self.assertEqual(self.count("contacts", user), 1)

    def test_a_site_the_user_made_by_hand_is_a_conflict_too(self):
        user = self.user()
        self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, updated_at) "
                       "VALUES (%d, 'Mine', 'http', 'http://Example.org:80/', 60, 0, UTC_TIMESTAMP(6), "
                       "UTC_TIMESTAMP(6))" % user.id)
        mine = self.stack.sql_value("SELECT id FROM monitors WHERE user_id=%d" % user.id)
        rid, st = self.run_to_plan(user, "updown", [("monitor", "ngg8", monitor("Example", "http://example.org"))])
        self.assertEqual(st, "paused_conflicts")
        msg = self.resources(rid)[0]["reason"]
        self.assertIn('Exists: monitor "Mine" at http://Example.org:80/ (no. %s), created in your account '
                      '(not by an import)' % mine, msg)

    def test_a_monitor_other_software_wrote_or_changed_is_found_by_its_url(self):
        """The account tables are shared with the rest of the product: a monitor
        inserted by plain SQL, and an imported one whose URL plain SQL changed
        afterwards, are conflicts by the URL they hold now, among many others."""
        user = self.user()
        rid, st = self.run_to_plan(user, "updown", [("monitor", "u1", monitor("Old", "https://old.example.com/a"))])
        self.assertEqual(st, "completed")
        moved = self.stack.sql_value("SELECT id FROM monitors WHERE user_id=%d" % user.id)
        self.stack.sql("UPDATE monitors SET url='HTTPS://Moved.Example.com:443/a/' WHERE id=%s" % moved)
        self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, updated_at) "
                       "SELECT %d, CONCAT('Other ', seq), 'http', CONCAT('https://other-', seq, '.example.com/a'), "
                       "60, 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_500" % user.id)
        mine = self.stack.sql_value("SELECT id FROM monitors WHERE user_id=%d AND name='Other 250'" % user.id)
        rid2, st = self.run_to_plan(user, "pingdom", [
            ("monitor", "p1", monitor("Moved", "https://moved.example.com/a")),
            ("monitor", "p2", monitor("Old", "https://old.example.com/a")),
            ("monitor", "p3", monitor("Mine", "HTTPS://OTHER-250.example.com/a/")),
            ("monitor", "p4", monitor("New", "https://other-2500.example.com/a")),
        ])
        self.assertEqual(st, "paused_conflicts")
        res = {r["external_id"]: r for r in self.resources(rid2)}
        self.assertEqual(res["p1"]["action"], "conflict")
        self.assertIn('Exists: monitor "Old" at HTTPS://Moved.Example.com:443/a/ (no. %s), imported from updown.io'
                      % moved, res["p1"]["reason"])
        self.assertEqual(res["p2"]["action"], "create")
        self.assertEqual(res["p3"]["action"], "conflict")
        self.assertIn('Exists: monitor "Other 250" at https://other-250.example.com/a (no. %s), created in your account'
                      % mine, res["p3"]["reason"])
        self.assertEqual(res["p4"]["action"], "create")

    def test_planning_reads_only_the_monitors_that_start_like_the_url(self):
        """The natural-key lookup is a range of the index on the URL's start
        (monitor_find): planning 40 monitors for a user with 4,000 on other
        hosts reads far fewer rows than one pass over them (MariaDB's own
        count of rows read, not a time)."""
        user = self.user()
        self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, updated_at) "
                       "SELECT %d, CONCAT('Mine ', seq), 'http', CONCAT('https://mine-', seq, '.example.com/'), "
                       "60, 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_4000" % user.id)
        items = [("monitor", "n%d" % i, monitor("New %d" % i, "https://new-%d.example.com/" % i)) for i in range(39)]
        items.append(("monitor", "n39", monitor("Mine", "https://MINE-17.example.com")))
        rid = self.synthetic_run(user, "updown", items)
        self.execute(user, rid)
        rows_read = ("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                     " WHERE VARIABLE_NAME = 'ROWS_READ'")
        before = int(self.stack.sql_value(rows_read))
        self.assertEqual(self.drive(rid, "paused_conflicts"), "paused_conflicts")
        read = int(self.stack.sql_value(rows_read)) - before
        self.assertLess(read, 4000, "rows read while planning 40 monitors")
        self.assertEqual([r["action"] for r in self.resources(rid)], ["create"] * 39 + ["conflict"])

    def test_equal_urls_are_one_site_whoever_wrote_them(self):
        """The planner compares the normalized URL (url_key, src/core/url.c) of an
        incoming monitor with each of the user's monitors made by hand. Each stored
        form must be found from each equivalent incoming form, and no other."""
        pairs = [
            ("https://A.example.com:443/x/", "https://a.example.com/x"),
            ("http://a.example.com:80", "HTTP://A.EXAMPLE.COM/"),
            ("https://a.example.com/p/?q=Z", "https://a.example.com/p?q=Z"),
            ("https://ü.example/ä/", "https://Ü.example/ä"),
            ("http://a.example.com:8080/", "http://a.example.com:8080"),
            ("https://[2001:db8::1]:8443/x/", "HTTPS://[2001:DB8::1]:8443/x"),
            ("https://u:pw@a.example.com/p%20q", "https://u:pw@a.example.com/p%20q"),
            # letters the database's collation does not equate (U+023A, U+2C65)
            ("https://\u023a.example/x", "https://\u2c65.example/x/"),
            ("Mail.Example.COM. ", "mail.example.com"),
        ]
        for i, (stored, incoming) in enumerate(pairs):
            with self.subTest(stored=stored):
                user = self.user()
                self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, "
                               "updated_at) VALUES (%d, 'Mine', 'http', %s, 60, 0, UTC_TIMESTAMP(6), "
                               "UTC_TIMESTAMP(6))" % (user.id, q(stored)))
                rid, st = self.run_to_plan(user, "updown", [("monitor", "m%d" % i, monitor("X", incoming))])
                self.assertEqual(st, "paused_conflicts", incoming)
        different = [("https://a.example.com/x", "http://a.example.com/x"),
                     ("https://a.example.com/x", "https://a.example.com/X"),
                     ("https://a.example.com:8443/", "https://a.example.com/"),
                     ("https://ex%41mple.com/", "https://example.com/"),
                     ("https://a.example.com/p%20q", "https://a.example.com/p q"),
                     # not written plainly: only the same as itself (docs/resources.md)
                     ("https://u:pw@a.example.com/p", "https://a.example.com/p"),
                     ("https:/a.example.com/p", "https://a.example.com/p"),
                     (" a.example.com", "a.example.com")]
        for i, (stored, incoming) in enumerate(different):
            with self.subTest(stored=stored, incoming=incoming):
                user = self.user()
                self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, "
                               "updated_at) VALUES (%d, 'Mine', 'http', %s, 60, 0, UTC_TIMESTAMP(6), "
                               "UTC_TIMESTAMP(6))" % (user.id, q(stored)))
                rid, st = self.run_to_plan(user, "updown", [("monitor", "d%d" % i, monitor("X", incoming))])
                self.assertEqual(st, "completed", incoming)
