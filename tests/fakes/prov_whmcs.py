"""Fake WHMCS External API for fakeprov.py: its real wire format (providers.md; sources cited per shape)."""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)


class Whmcs(Provider):
    id = "whmcs"
    kinds = {"clients": 3, "services": 4, "domains": 2, "invoices": 5}
    aliases = {"products": "services"}
    required = ("api_identifier", "api_secret")
    optional = ("url", "access_key")
    rl_default = 100000
    SVC_STATUS = ("Active", "Active", "Suspended", "Pending", "Terminated", "Cancelled")
    DOM_STATUS = ("Active", "Active", "Pending", "Expired", "Cancelled", "Grace")
    INV_STATUS = ("Paid", "Unpaid", "Paid", "Cancelled", "Refunded", "Collections")
    CYCLES = ("Monthly", "Annually", "Quarterly", "Free Account", "Semi-Annually")

    def demo_credentials(self):
        return dict(DEMO_WHMCS)

    def match_action(self, req):
        return req.p("action") or ""

    def kb(self, a, kind):
        return self.base(a, kind, 1, 100, 100_000)

    def ext_id(self, a, kind, i):
        v = self.kb(a, kind) + i
        return v if kind == "clients" else str(v)

    def err(self, status, msg):
        return jreply(status, {"result": "error", "message": msg})

    def bad_key(self, req):
        return self.err(403, "Authentication Failed")

    def rate_limited(self, req, status, retry_hdr):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return Reply(status, body=b"<html><body><h1>429 Too Many Requests</h1></body></html>\n",
                     headers=headers, ctype="text/html; charset=utf-8")

    def server_error(self, req, status):
        return Reply(status, body=b"<html><body><h1>Oops! Something went wrong.</h1></body></html>\n",
                     ctype="text/html; charset=utf-8")

    def handle(self, req, a):
        if req.rel != "/includes/api.php":
            return Reply(404, body=b"<html><body><h1>404 Not Found</h1></body></html>\n",
                         ctype="text/html; charset=utf-8")
        if req.method != "POST":
            return self.err(405, "Method Not Allowed")
        ident = req.f("identifier") or req.f("username")
        secret = req.f("secret") or req.f("password")
        if a is None or not ident or ident != a.credentials["api_identifier"]:
            return self.err(403, "Invalid or missing credentials")
        if secret != a.credentials["api_secret"]:
            return self.bad_key(req)
        ak = a.credentials.get("access_key")
        if ak:
            sent = req.f("accesskey")
            if sent is None:
                return self.err(403, "Invalid IP %s" % "127.0.0.1")
            if sent != ak:
                return self.err(403, "Invalid Access Key")
        action = (req.f("action") or "").lower()
        routes = {"getclients": self.get_clients, "getclientsproducts": self.get_products,
                  "getclientsdomains": self.get_domains, "getinvoices": self.get_invoices}
        if action not in routes:
            return self.err(200, "Command Not Found")
        return routes[action](req, a)

    def window(self, req, a, total, default, unlimited_default=False):
        ls = to_int(req.f("limitstart"), 0)
        ln = to_int(req.f("limitnum"), None)
        if ls is None or ls < 0:
            ls = 0
        if ln is None or ln <= 0:
            ln = total if unlimited_default else default
        cap = a.options.get("limitnum_cap")
        if cap:
            ln = min(ln, cap)
        return ls, ln

    def listing(self, plural, singular, items, total, ls, empty, as_str):
        resp = {"result": "success"}
        for k, v in (("totalresults", total), ("startnumber", ls), ("numreturned", len(items))):
            resp[k] = str(v) if k in as_str else v
        if items:
            resp[plural] = {singular: items}
        elif empty is not None:
            resp[plural] = empty
        return jreply(200, resp)

    def client_of(self, a, k):
        nc = a.n("clients")
        return k % nc if nc else None

    def filtered(self, a, req, kind, n, client_param):
        """Indexes of kind matching the request's client and id filters (lazy ranges when possible)."""
        nc = a.n("clients")
        idx = range(n)
        cid = to_int(req.f(client_param))
        if req.f(client_param) not in (None, ""):
            c = (cid or 0) - self.kb(a, "clients")
            idx = range(c, n, nc) if nc and 0 <= c < nc else range(0)
        id_param = {"services": "serviceid", "domains": "domainid", "invoices": None}[kind]
        if id_param and req.f(id_param) not in (None, ""):
            k = (to_int(req.f(id_param)) or 0) - self.kb(a, kind)
            idx = [k] if k in idx else []
        return idx

    def get_clients(self, req, a):
        n = a.n("clients")
        ls, ln = self.window(req, a, n, 25)
        status = req.f("status")
        search = (req.f("search") or "").lower()
        idx = range(n)
        if status or search:
            idx = [i for i in idx if (not status or self.client(a, i)["status"] == status)
                   and (not search or search in self.client(a, i)["email"]
                        or search in self.client(a, i)["firstname"].lower())]
        items = [self.client(a, i) for i in idx[ls:ls + ln]]
        return self.listing("clients", "client", items, len(idx), ls, None, ())

    def client(self, a, i):
        status = "Inactive" if a.paused(i) else ("Closed" if i % 11 == 10 else "Active")
        return {"id": self.kb(a, "clients") + i, "firstname": a.prefix(i), "lastname": "Client %d" % (i + 1),
                "companyname": "%s Hosting Co %d" % (a.prefix(i), i + 1) if i % 2 == 0 else "",
                "email": "client%d@example.com" % (i + 1), "datecreated": day(BASE_TS - 400 * 86400 + i * 86400),
                "groupid": 0, "status": status}

    def get_products(self, req, a):
        idx = self.filtered(a, req, "services", a.n("services"), "clientid")
        pid = req.f("pid")
        if pid not in (None, ""):
            idx = [k for k in idx if str(1 + k % 3) == pid]
        ls, ln = self.window(req, a, len(idx), 25, unlimited_default=True)
        items = [self.service(a, k) for k in idx[ls:ls + ln]]
        return self.listing("products", "product", items, len(idx), ls, "", ("totalresults",))

    def service(self, a, k):
        c = self.client_of(a, k)
        cid = str(self.kb(a, "clients") + c) if c is not None else "0"
        amount = ("12.95", "129.50", "35.85", "0.00", "64.75")[k % 5]
        reg = a.created(k) - 300 * 86400
        return {"id": str(self.kb(a, "services") + k), "clientid": cid, "orderid": str(1000 + k),
                "ordernumber": str(4_000_000_000 + k), "pid": str(1 + k % 3), "regdate": day(reg),
                "name": "%s Hosting Plan %d" % (a.prefix(k), 1 + k % 3),
                "translated_name": "%s Hosting Plan %d" % (a.prefix(k), 1 + k % 3),
                "groupname": "Shared Hosting", "translated_groupname": "Shared Hosting",
                "domain": "svc%d.client%s.example.com" % (k + 1, (c or 0) + 1), "dedicatedip": "",
                "serverid": "1", "servername": "server1", "serverip": "192.0.2.10",
                "serverhostname": "server1.example.com", "suspensionreason": "",
                "firstpaymentamount": amount, "recurringamount": amount, "paymentmethod": "paypal",
                "paymentmethodname": "PayPal", "billingcycle": self.CYCLES[k % len(self.CYCLES)],
                "nextduedate": day(reg + 400 * 86400), "status": self.SVC_STATUS[k % len(self.SVC_STATUS)],
                "username": "user%d" % (k + 1), "subscriptionid": "", "promoid": "0",
                "overideautosuspend": "0", "overidesuspenduntil": "0000-00-00", "ns1": "", "ns2": "",
                "assignedips": "", "notes": "", "diskusage": "0", "disklimit": "0", "bwusage": "0",
                "bwlimit": "0", "lastupdate": "0000-00-00 00:00:00",
                "customfields": {"customfield": []}, "configoptions": {"configoption": []}}

    def get_domains(self, req, a):
        idx = self.filtered(a, req, "domains", a.n("domains"), "clientid")
        dom = req.f("domain")
        if dom:
            idx = [d for d in idx if self.domain_name(a, d) == dom]
        ls, ln = self.window(req, a, len(idx), 25)
        items = [self.domain(a, d) for d in idx[ls:ls + ln]]
        return self.listing("domains", "domain", items, len(idx), ls, "",
                            ("totalresults", "startnumber", "numreturned"))

    def domain_name(self, a, d):
        return "client%d-site%d.example.com" % ((self.client_of(a, d) or 0) + 1, d + 1)

    def domain(self, a, d):
        c = self.client_of(a, d)
        reg = a.created(d) - 200 * 86400
        return {"id": str(self.kb(a, "domains") + d),
                "userid": str(self.kb(a, "clients") + c) if c is not None else "0",
                "orderid": str(2000 + d), "regtype": "Register", "domainname": self.domain_name(a, d),
                "registrar": ("enom", "resellerclub")[d % 2], "regperiod": "1",
                "firstpaymentamount": "10.95", "recurringamount": "12.95", "paymentmethod": "paypal",
                "paymentmethodname": "PayPal", "regdate": day(reg), "expirydate": day(reg + 365 * 86400),
                "nextduedate": day(reg + 351 * 86400), "status": self.DOM_STATUS[d % len(self.DOM_STATUS)],
                "subscriptionid": "", "promoid": "0", "dnsmanagement": "0", "emailforwarding": "0",
                "idprotection": "1" if d % 3 == 0 else "0", "donotrenew": "0", "notes": ""}

    def get_invoices(self, req, a):
        idx = self.filtered(a, req, "invoices", a.n("invoices"), "userid")
        status = req.f("status")
        if status:
            idx = [v for v in idx if self.inv_status(v) == status]
        ls, ln = self.window(req, a, len(idx), 25)
        items = [self.invoice(a, v) for v in idx[ls:ls + ln]]
        return self.listing("invoices", "invoice", items, len(idx), ls, [], ())

    def inv_status(self, v):
        return self.INV_STATUS[v % len(self.INV_STATUS)]

    def invoice(self, a, v):
        c = self.client_of(a, v)
        cl = self.client(a, c) if c is not None else {"firstname": "", "lastname": "", "companyname": ""}
        status = self.inv_status(v)
        date = a.created(v) - 60 * 86400
        sub = ("12.95", "129.50", "35.85", "24.95", "10.95")[v % 5]
        return {"id": str(self.kb(a, "invoices") + v),
                "userid": str(self.kb(a, "clients") + c) if c is not None else "0",
                "firstname": cl["firstname"], "lastname": cl["lastname"], "companyname": cl["companyname"],
                "invoicenum": "INV-%d" % (self.kb(a, "invoices") + v) if v % 2 == 0 else "",
                "date": day(date), "duedate": day(date + 14 * 86400),
                "datepaid": tsfmt(date + 86400, "%Y-%m-%d %H:%M:%S") if status == "Paid" else "0000-00-00 00:00:00",
                "last_capture_attempt": "0000-00-00 00:00:00", "subtotal": sub, "credit": "0.00",
                "tax": "0.00", "tax2": "0.00", "total": sub, "taxrate": "0.00", "taxrate2": "0.00",
                "status": status, "paymentmethod": "paypal", "notes": "", "currencycode": "USD",
                "currencyprefix": "$", "currencysuffix": " USD",
                "created_at": tsfmt(date, "%Y-%m-%d %H:%M:%S"), "updated_at": tsfmt(a.updated(v), "%Y-%m-%d %H:%M:%S")}
