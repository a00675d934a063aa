"""The shape every provider's fidelity test shares (test_fidelity_<id>.py): load a rich account into
the provider's fake, import it through the real runner, and read the account tables back."""

import json

import harness
from harness import q
from test_runner import RunnerTestCase


def contact_order(t):
    """Sort key of a tuple of contact fields: their natural order, with NULL first."""
    return tuple("" if x is None else str(x) for x in t)


class FidelityTestCase(RunnerTestCase):
    P = None  # the provider id; each test class sets it

    def load_account(self, credentials, counts, options=None, **extra):
        """Define the fake account of P (its credentials, counts and options, plus extra top-level
        fields), clear its faults and the request log, and drop jobs queued by other tests. Returns
        the fake's summary of the account."""
        self.stack.sql("DELETE FROM jobs")
        body = {"credentials": credentials, "name_prefix": "Fid", "counts": counts, "options": options or {}}
        body.update(extra)
        harness.fake_call(self.stack, "POST", "/_control/%s/account" % self.P, body)
        harness.fake_call(self.stack, "DELETE", "/_control/%s/faults" % self.P)
        harness.fake_call(self.stack, "DELETE", "/_control/requests")
        return harness.fake_call(self.stack, "GET", "/_control/%s/account" % self.P)

    def start_run(self, user, credentials):
        r = user.request("POST", "/api/v1/migrations", body={"provider": self.P, "credentials": credentials})
        self.assertStatus(r, 201)
        return r.json["data"]["id"]

    def run_import(self, user, credentials, timeout=90):
        """Start, discover, execute and import a run; it must end completed. Returns its id."""
        rid = self.start_run(user, credentials)
        st = self.drive(rid, ("awaiting_review", "failed"), timeout=timeout)
        self.assertEqual(st, "awaiting_review", self.get(user, rid)["data"]["error_message"])
        self.execute(user, rid)
        st = self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts"), timeout=timeout)
        self.assertEqual(st, "completed", [x for x in self.get(user, rid)["data"]["resources"]
                                           if x["status"] != "imported"])
        return rid

    def assert_refused_key_fails(self, user, credentials, bad, *said):
        """A run with credentials (bad: the wrong secret among them) fails on the first call with a
        message that says each of said and shows nothing of bad, neither there nor in the run log."""
        rid = self.start_run(user, credentials)
        self.assertEqual(self.drive(rid, ("failed", "awaiting_review")), "failed")
        msg = self.get(user, rid)["data"]["error_message"]
        for words in said:
            self.assertIn(words, msg)
        self.assertNotIn(bad, msg)
        self.assertNotIn(bad, json.dumps(self.logs(user, rid)))

    def rows(self, sql):
        """The rows of a query, with whole-number text as int (the client returns text)."""
        return [{k: int(v) if isinstance(v, str) and v.isdigit() else v for k, v in r.items()}
                for r in self.stack.sql_dicts(sql)]

    def one(self, table, user, name):
        """The one row of table in user's account with this name."""
        rows = self.rows("SELECT * FROM %s WHERE user_id=%d AND name=%s" % (table, user.id, q(name)))
        self.assertEqual(len(rows), 1, name)
        return rows[0]

    def linked(self, link_table, col, oid, fields=("type", "value")):
        """The contacts linked to object oid through link_table (its column col), as sorted tuples of
        fields (or sorted values when one field is asked)."""
        rows = self.rows("SELECT %s FROM %s l JOIN contacts c ON c.id = l.contact_id WHERE l.%s = %d"
                         % (", ".join("c." + f for f in fields), link_table, col, int(oid)))
        if len(fields) == 1:
            return sorted(r[fields[0]] for r in rows)
        return sorted((tuple(r[f] for f in fields) for r in rows), key=contact_order)

    def warnings(self, user, rid):
        return [entry["message"] for entry in self.logs(user, rid) if entry["level"] == "warning"]

    # The account tables an import writes, and the tables of their lists (joined to their owner).
    ACCOUNT_TABLES = ("contacts", "monitors", "heartbeats", "status_pages", "maintenance_windows",
                      "status_page_subscribers", "hosting_clients", "hosting_contacts", "hosting_services",
                      "hosting_addons", "hosting_domains", "invoices", "payments")
    LIST_TABLES = (("monitor_contacts", "monitor_id", "monitors"),
                   ("heartbeat_contacts", "heartbeat_id", "heartbeats"),
                   ("status_page_monitors", "status_page_id", "status_pages"),
                   ("status_page_incidents", "status_page_id", "status_pages"),
                   ("maintenance_window_monitors", "window_id", "maintenance_windows"),
                   ("invoice_items", "invoice_id", "invoices"))

    def account_state(self, user):
        """Everything imports wrote into user's account: every row of each account table and of
        their lists, in a stable order, without the times of the writes (and the row ids of lists,
        which a rewrite of the same list renews)."""
        out = {}
        for table in self.ACCOUNT_TABLES:
            out[table] = [{k: v for k, v in r.items() if k not in ("created_at", "updated_at")}
                          for r in self.stack.sql_dicts("SELECT * FROM %s WHERE user_id=%d ORDER BY id"
                                                        % (table, user.id))]
        for table, col, owner in self.LIST_TABLES:
            rows = self.stack.sql_dicts("SELECT l.* FROM %s l JOIN %s o ON o.id = l.%s WHERE o.user_id=%d"
                                        % (table, owner, col, user.id))
            out[table] = sorted((json.dumps({k: v for k, v in r.items() if k not in ("id", "created_at")},
                                            sort_keys=True) for r in rows))
        return out

    def assert_reimport_keeps(self, user, credentials, faults, kept):
        """Import the fake account (as it is now) twice; the second time the reads that faults name
        fail. The second run completes and leaves every account table and list as the first left it;
        for each (resource type, words) of kept, a resource of that type says in its reason that it
        keeps its own values of what the run could not read, with words (why, and which), and a
        run-log warning says the same of it. Returns the second run's id."""
        self.run_import(user, credentials)
        before = self.account_state(user)
        self.assertTrue(any(before[t] for t in self.ACCOUNT_TABLES), "the first import wrote nothing")
        harness.fake_call(self.stack, "POST", "/_control/%s/faults" % self.P, {"faults": faults})
        rid = self.start_run(user, credentials)
        self.drive(rid, ("awaiting_review",))
        self.execute(user, rid)
        st = self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts"))
        self.assertEqual(st, "completed", [e for e in self.logs(user, rid) if e["level"] == "error"][:3])
        after = self.account_state(user)
        for table in before:
            self.assertEqual(after[table], before[table], "%s changed by a re-import whose reads failed" % table)
        warnings = self.warnings(user, rid)
        said = "values of what this run could not read: "
        for rtype, words in kept:
            res = [r for r in self.resources(rid, "resource_type=%s" % q(rtype))
                   if "Keeps its own " + said in (r["reason"] or "") and words in r["reason"]]
            self.assertTrue(res, (rtype, words, [r["reason"] for r in self.resources(rid)]))
            self.assertEqual(res[0]["action"], "update")
            self.assertTrue(any("(external id %s) keeping its own %s" % (res[0]["external_id"], said) in w
                                and words in w for w in warnings), (rtype, words, warnings))
        return rid

    @staticmethod
    def js(v, empty=None):
        """A JSON column's value (empty for SQL NULL)."""
        return json.loads(v) if v is not None else empty
