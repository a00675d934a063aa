"""Fake WHMCS External API for fakeprov.py: its real wire format (providers.md §9; sources cited per shape).

Sources: the WHMCS API reference (developers.whmcs.com/api-reference/<action>/, kept in the
WHMCS/developer-docs repository as api-reference/<action>.md, cited below as "docs <action>"). The
docs print the example answers flattened ("clients[client][0][id]"); the JSON nesting
(clients.client[]) is what responsetype=json sends (providers.md §9, H for the lists, M for
GetCurrencies and GetClientsAddons).

Generated data (every value from the item's index, so tests can predict it; see README.md):
client i has currency 1 + i % len(currencies) (option "currencies", default ["USD"]); contact j,
service k, domain d, invoice v and transaction t belong to client (index % clients); addon m hangs
on service m % services (and so belongs to that service's client); transaction t pays invoice t when
t < invoices and t % 4 != 3 (else it is an unallocated "Add Funds" payment).
Account options: "currencies" (list of codes as the admin typed them), "old_whmcs" (GetClientsDetails
without currency_code and GetInvoices without currencycode, as before 7.x), "refuse" (kinds or
action names answered with 403 "Invalid Permissions: API action "x" is not allowed"), "redirect"
(POST /includes/api.php answers 301 to /billing/includes/api.php, which serves the API), "new_fields"
({name: value} added to every client, in GetClients and GetClientsDetails: fields a later version may add).
"""

from fakecore import *  # noqa: F401,F403  (helpers, Reply, Req, Provider, ...)

# refuse option: kind names and the action each stands for
REFUSE_KINDS = {"clients": "getclients", "details": "getclientsdetails", "currencies": "getcurrencies",
                "contacts": "getcontacts", "services": "getclientsproducts", "products": "getclientsproducts",
                "addons": "getclientsaddons", "domains": "getclientsdomains", "invoices": "getinvoices",
                "invoice": "getinvoice", "transactions": "gettransactions", "payments": "gettransactions"}
CITIES = (("Springfield", "Illinois", "62704", "US", 1), ("Berlin", "Berlin", "10115", "DE", 49),
          ("Manchester", "Greater Manchester", "M1 1AE", "GB", 44), ("Lyon", "Rhône", "69002", "FR", 33))
FIRST = ("Ada", "Linus", "Grace", "Ken", "Margaret")
GATEWAYS = ("paypal", "stripe", "banktransfer")
ADDONS = ("Daily Backups", "Dedicated IP", "SSL Certificate")


def money(cents):
    """A WHMCS amount string from integer cents (never through floating point)."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return "%s%d.%02d" % (sign, cents // 100, cents % 100)


class Whmcs(Provider):
    id = "whmcs"
    kinds = {"clients": 3, "contacts": 2, "services": 4, "addons": 3, "domains": 2, "invoices": 5,
             "transactions": 4}
    aliases = {"products": "services", "payments": "transactions"}
    required = ("api_identifier", "api_secret")
    optional = ("url", "access_key")
    rl_default = 100000
    SVC_STATUS = ("Active", "Active", "Suspended", "Pending", "Terminated", "Cancelled")
    ADDON_STATUS = ("Active", "Suspended", "Pending", "Cancelled")
    DOM_STATUS = ("Active", "Active", "Pending", "Expired", "Cancelled", "Grace")
    INV_STATUS = ("Paid", "Unpaid", "Paid", "Cancelled", "Refunded", "Collections")
    CYCLES = ("Monthly", "Annually", "Quarterly", "Free Account", "Semi-Annually")
    SVC_CENTS = (1295, 12950, 3585, 0, 6475)

    def demo_credentials(self):
        return dict(DEMO_WHMCS)

    def match_action(self, req):
        return req.p("action") or ""

    def routes(self):
        """The API actions this fake answers, by lower-case name (a fault whose
        match is one of them hits that action only, see fakeprov.take_fault)."""
        return {"getclients": self.get_clients, "getclientsdetails": self.get_client_details,
                "getcurrencies": self.get_currencies, "getcontacts": self.get_contacts,
                "getclientsproducts": self.get_products, "getclientsaddons": self.get_addons,
                "getclientsdomains": self.get_domains, "getinvoices": self.get_invoices,
                "getinvoice": self.get_invoice, "gettransactions": self.get_transactions}

    def kb(self, a, kind):
        return self.base(a, kind, 1, 100, 100_000)

    def ext_id(self, a, kind, i):
        v = self.kb(a, kind) + i
        return v if kind == "clients" else str(v)

    # shape: docs "Error Responses" / providers.md §9.3 {"result":"error","message":"…"}
    def err(self, status, msg):
        return jreply(status, {"result": "error", "message": msg})

    def bad_key(self, req):
        return self.err(403, "Authentication Failed")

    def rate_limited(self, req, status, retry_hdr, reset_in):
        headers = [("Retry-After", retry_hdr)] if retry_hdr is not None else []
        return Reply(status, body=b"<html><body><h1>429 Too Many Requests</h1></body></html>\n",
                     headers=headers, ctype="text/html; charset=utf-8")

    def server_error(self, req, status):
        return Reply(status, body=b"<html><body><h1>Oops! Something went wrong.</h1></body></html>\n",
                     ctype="text/html; charset=utf-8")

    def html(self, status, text, headers=None):
        return Reply(status, body=("<html><body><h1>%s</h1></body></html>\n" % text).encode(),
                     headers=headers or [], ctype="text/html; charset=utf-8")

    def refused(self, a, action):
        r = a.options.get("refuse") or []
        for k in (r if isinstance(r, list) else [r]):
            if REFUSE_KINDS.get(str(k).lower(), str(k).lower()) == action:
                return True
        return False

    def currencies(self, a):
        c = a.options.get("currencies") or ["USD"]
        return [str(x) for x in (c if isinstance(c, list) else [c])]

    def handle(self, req, a):
        # Redirects (providers.md §9.1 / §12): a web server in front moved the installation.
        redirect = a is not None and truthy(a.options.get("redirect"))
        if redirect and req.rel == "/includes/api.php":
            prefix = req.raw_path[:len(req.raw_path) - len(req.rel)]
            loc = "http://%s%s/billing/includes/api.php" % (req.host, prefix)
            return self.html(301, "301 Moved Permanently", [("Location", loc)])
        if req.rel != ("/billing/includes/api.php" if redirect else "/includes/api.php"):
            return self.html(404, "404 Not Found")
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
        routes = self.routes()
        if action not in routes:
            return self.err(200, "Command Not Found")
        if self.refused(a, action):
            # shape: providers.md §9.3, the API role lacks the action (HTTP 403)
            return self.err(403, 'Invalid Permissions: API action "%s" is not allowed' % action)
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

    def cid(self, a, c):
        return str(self.kb(a, "clients") + c) if c is not None else "0"

    def client_index(self, a, value):
        c = (to_int(value) or 0) - self.kb(a, "clients")
        return c if 0 <= c < a.n("clients") else None

    def filtered(self, a, req, kind, n, client_param):
        """Indexes of kind matching the request's client and id filters (lazy ranges when possible)."""
        nc = a.n("clients")
        idx = range(n)
        if req.f(client_param) not in (None, ""):
            c = self.client_index(a, req.f(client_param))
            idx = range(c, n, nc) if c is not None else range(0)
        id_param = {"services": "serviceid", "domains": "domainid", "invoices": None,
                    "contacts": None}[kind]
        if id_param and req.f(id_param) not in (None, ""):
            k = (to_int(req.f(id_param)) or 0) - self.kb(a, kind)
            idx = [k] if k in idx else []
        return idx

    # ---- clients

    def get_clients(self, req, a):
        # shape: docs GetClients + providers.md §9.2 {"clients":{"client":[…]}}; ints; key absent when empty
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
        d = {"id": self.kb(a, "clients") + i, "firstname": a.prefix(i), "lastname": "Client %d" % (i + 1),
             "companyname": "%s Hosting Co %d" % (a.prefix(i), i + 1) if i % 2 == 0 else "",
             "email": "client%d@example.com" % (i + 1), "datecreated": day(BASE_TS - 400 * 86400 + i * 86400),
             "groupid": 0, "status": status}
        if a.options.get("new_fields"):
            # fields a later WHMCS version may add, which no table of ours knows: providers add fields
            # over time (the importer must list them as not carried, not pass over them)
            d.update(a.options["new_fields"])
        return d

    def currency_of(self, a, i):
        cur = self.currencies(a)
        return 1 + i % len(cur), cur[i % len(cur)]

    def client_details(self, a, i):
        # shape: docs GetClientsDetails "client[…]" (address1/2, city, state, postcode, countrycode,
        # phonenumberformatted, currency, currency_code, credit, tax_id; password and card fields too)
        city, state, postcode, country, cc = CITIES[i % len(CITIES)]
        cur_id, code = self.currency_of(a, i)
        d = dict(self.client(a, i))
        phone = "555%07d" % (1000 + i)
        d.update({"userid": d["id"], "uuid": huuid("whmcs-client", i), "fullname": "%s %s" % (d["firstname"], d["lastname"]),
                  "address1": "%d Harbour Road" % (10 + i), "address2": "Unit %d" % (i + 1) if i % 2 == 0 else "",
                  "city": city, "fullstate": state, "state": state, "postcode": postcode, "countrycode": country,
                  "country": country, "phonenumber": phone, "phonecc": cc,
                  "phonenumberformatted": "+%d.%s" % (cc, phone), "tax_id": "VAT%06d" % i if i % 3 == 0 else "",
                  "password": "$2y$10$" + hid(53, "pw", i), "statecode": state, "billingcid": 0, "notes": "",
                  "currency": cur_id, "defaultgateway": "", "cctype": "", "cclastfour": "", "securityqid": 0,
                  "securityqans": "", "credit": money((i * 737) % 5000), "taxexempt": False, "language": "",
                  "lastlogin": "No Login Logged"})
        if not truthy(a.options.get("old_whmcs")):
            d["currency_code"] = code
        return d

    def get_client_details(self, req, a):
        i = self.client_index(a, req.f("clientid"))
        if i is None:
            return self.err(200, "Client Not Found")
        return jreply(200, {"result": "success", "client": self.client_details(a, i)})

    def get_currencies(self, req, a):
        # shape: docs GetCurrencies "currencies[currency][0][…]" (id, code, prefix, suffix, format, rate)
        out = [{"id": str(n + 1), "code": code, "prefix": ("$", "€", "£")[n % 3], "suffix": " " + code,
                "format": "1", "rate": "1.00000" if n == 0 else "0.9%d000" % n}
               for n, code in enumerate(self.currencies(a))]
        return jreply(200, {"result": "success", "totalresults": str(len(out)), "currencies": {"currency": out}})

    # ---- client contacts

    def contact(self, a, j):
        # shape: docs GetContacts "contacts[contact][0][…]": strings; password hash and e-mail flags
        c = self.client_of(a, j)
        city, state, postcode, country, cc = CITIES[(j + 1) % len(CITIES)]
        return {"id": str(self.kb(a, "contacts") + j), "userid": self.cid(a, c),
                "firstname": FIRST[j % len(FIRST)], "lastname": "Contact %d" % (j + 1),
                "companyname": "Ops Team %d" % (j + 1) if j % 2 == 0 else "",
                "email": "contact%d@client%d.example.com" % (j + 1, (c or 0) + 1),
                "address1": "%d Mill Lane" % (j + 2), "address2": "Floor %d" % (j % 5 + 1) if j % 3 == 0 else "",
                "city": city, "state": state, "postcode": postcode, "country": country,
                "phonenumber": "+%d %d" % (cc, 7000000 + j), "subaccount": "1" if j % 2 else "0",
                "password": "$2y$10$" + hid(53, "cpw", j), "permissions": "", "domainemails": "1",
                "generalemails": "1", "invoiceemails": "1" if j % 2 == 0 else "0", "productemails": "0",
                "supportemails": "1", "affiliateemails": "0", "pwresetkey": "", "created_at": "0000-00-00 00:00:00",
                "updated_at": "0000-00-00 00:00:00", "pwresetexpiry": "0000-00-00 00:00:00"}

    def get_contacts(self, req, a):
        # shape: docs GetContacts: totalresults/startnumber/numreturned strings, limitnum default 25
        idx = self.filtered(a, req, "contacts", a.n("contacts"), "userid")
        ls, ln = self.window(req, a, len(idx), 25)
        items = [self.contact(a, j) for j in idx[ls:ls + ln]]
        return self.listing("contacts", "contact", items, len(idx), ls, None,
                            ("totalresults", "startnumber", "numreturned"))

    # ---- services and addons

    def get_products(self, req, a):
        idx = self.filtered(a, req, "services", a.n("services"), "clientid")
        pid = req.f("pid")
        if pid not in (None, ""):
            idx = [k for k in idx if str(1 + k % 3) == pid]
        ls, ln = self.window(req, a, len(idx), 25, unlimited_default=True)
        items = [self.service(a, k) for k in idx[ls:ls + ln]]
        return self.listing("products", "product", items, len(idx), ls, "", ("totalresults",))

    def service(self, a, k):
        # shape: docs GetClientsProducts "products[product][0][…]" (providers.md §9.2)
        c = self.client_of(a, k)
        cents = self.SVC_CENTS[k % 5]
        reg = a.created(k) - 300 * 86400
        return {"id": str(self.kb(a, "services") + k), "clientid": self.cid(a, c), "orderid": str(1000 + k),
                "ordernumber": str(4_000_000_000 + k), "pid": str(1 + k % 3), "regdate": day(reg),
                "name": "%s Hosting Plan %d" % (a.prefix(k), 1 + k % 3),
                "translated_name": "%s Hosting Plan %d" % (a.prefix(k), 1 + k % 3),
                "groupname": "Shared Hosting", "translated_groupname": "Shared Hosting",
                "domain": "svc%d.client%s.example.com" % (k + 1, (c or 0) + 1), "dedicatedip": "",
                "serverid": "1", "servername": "server1", "serverip": "192.0.2.10",
                "serverhostname": "server1.example.com", "suspensionreason": "",
                # shape: qty and the service's own password (docs GetClientsProducts example: "password")
                "qty": "1", "password": "svc-pw-%d" % (k + 1),
                "firstpaymentamount": money(cents + (500 if k % 2 == 0 else 0)), "recurringamount": money(cents),
                "paymentmethod": "paypal", "paymentmethodname": "PayPal",
                "billingcycle": self.CYCLES[k % len(self.CYCLES)],
                "nextduedate": day(reg + 400 * 86400), "status": self.SVC_STATUS[k % len(self.SVC_STATUS)],
                "username": "user%d" % (k + 1), "subscriptionid": "", "promoid": "0",
                "overideautosuspend": "0", "overidesuspenduntil": "0000-00-00", "ns1": "", "ns2": "",
                "assignedips": "", "notes": "", "diskusage": "0", "disklimit": "0", "bwusage": "0",
                "bwlimit": "0", "lastupdate": "0000-00-00 00:00:00",
                # shape: configoptions.configoption[] {id, option, type, value} (docs GetClientsProducts)
                "customfields": {"customfield": []}, "configoptions": {"configoption": [
                    {"id": "1", "option": "Disk Space", "type": "dropdown", "value": "%d GB" % (10 * (k + 1))}]
                    if k % 2 == 1 else []}}

    def addon(self, a, m):
        # shape: docs GetClientsAddons "addons[addon][0][…]" (id, qty, userid, orderid, serviceid,
        # addonid, name, setupfee, recurring, billingcycle, tax, status, regdate, nextduedate, …)
        ns = a.n("services")
        k = m % ns
        reg = a.created(k) - 200 * 86400 + m * 86400
        return {"id": str(self.kb(a, "addons") + m), "qty": "1", "userid": self.cid(a, self.client_of(a, k)),
                "orderid": str(3000 + m), "serviceid": str(self.kb(a, "services") + k), "addonid": str(1 + m % 3),
                "name": "%s %d" % (ADDONS[m % 3], m + 1), "setupfee": ("0.00", "5.00", "10.00")[m % 3],
                "recurring": ("4.95", "2.00", "49.00")[m % 3], "billingcycle": self.CYCLES[(m + 1) % len(self.CYCLES)],
                "tax": "", "status": self.ADDON_STATUS[m % len(self.ADDON_STATUS)], "regdate": day(reg),
                "nextduedate": day(reg + 30 * 86400), "nextinvoicedate": day(reg + 23 * 86400),
                "paymentmethod": "paypal", "paymentmethodname": "PayPal", "notes": ""}

    def get_addons(self, req, a):
        # GetClientsAddons: serviceid (one id or a comma-separated list), clientid, addonid; no paging
        ns = a.n("services")
        idx = range(a.n("addons")) if ns else range(0)
        sids = req.f("serviceid")
        if sids not in (None, ""):
            want = {(to_int(s.strip()) or 0) - self.kb(a, "services") for s in sids.split(",")}
            idx = [m for m in idx if m % ns in want]
        if req.f("clientid") not in (None, ""):
            c = self.client_index(a, req.f("clientid"))
            idx = [m for m in idx if c is not None and self.client_of(a, m % ns) == c]
        if req.f("addonid") not in (None, ""):
            idx = [m for m in idx if str(1 + m % 3) == req.f("addonid")]
        items = [self.addon(a, m) for m in idx]
        resp = {"result": "success", "serviceid": sids or "", "clientid": req.f("clientid") or "",
                "totalresults": str(len(items))}
        if items:
            resp["addons"] = {"addon": items}
        return jreply(200, resp)

    # ---- domains

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
        # shape: docs GetClientsDomains "domains[domain][0][…]" (regperiod, regdate, donotrenew, …)
        c = self.client_of(a, d)
        reg = a.created(d) - 200 * 86400
        period = 1 + d % 3
        return {"id": str(self.kb(a, "domains") + d), "userid": self.cid(a, c),
                "orderid": str(2000 + d), "regtype": "Register", "domainname": self.domain_name(a, d),
                "registrar": ("enom", "resellerclub")[d % 2], "regperiod": str(period),
                "firstpaymentamount": money(1095 * period), "recurringamount": money(1295 * period),
                "paymentmethod": "paypal", "paymentmethodname": "PayPal", "regdate": day(reg),
                "expirydate": day(reg + period * 365 * 86400), "nextduedate": day(reg + (period * 365 - 14) * 86400),
                "status": self.DOM_STATUS[d % len(self.DOM_STATUS)],
                "subscriptionid": "", "promoid": "0", "dnsmanagement": "0", "emailforwarding": "0",
                "idprotection": "1" if d % 3 == 0 else "0", "donotrenew": "1" if d % 3 == 1 else "0", "notes": ""}

    # ---- invoices

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

    def inv_lines(self, a, v):
        """(type, relid, description, cents, taxed) of invoice v."""
        ns, nd = a.n("services"), a.n("domains")
        lines = []
        base = self.SVC_CENTS[v % 5] or 995
        if ns:
            s = v % ns
            lines.append(("Hosting", str(self.kb(a, "services") + s),
                          "%s Hosting Plan %d - svc%d (01/01/2024 - 31/01/2024)" % (a.prefix(s), 1 + s % 3, s + 1),
                          base, v % 2 == 0))
        else:
            lines.append(("Item", "0", "Consulting hour %d" % (v + 1), base, v % 2 == 0))
        if nd and v % 3 == 0:
            d = v % nd
            lines.append(("DomainRenew", str(self.kb(a, "domains") + d),
                          "Domain Renewal - %s - 1 Year/s" % self.domain_name(a, d), 1295, True))
        if v % 4 == 1:
            lines.append(("", "0", "Setup fee", 500, False))
        return lines

    def inv_money(self, a, v):
        """subtotal, tax, tax2, credit, total, balance (cents) of invoice v."""
        lines = self.inv_lines(a, v)
        sub = sum(x[3] for x in lines)
        tax = sum(x[3] for x in lines if x[4]) * 10 // 100
        credit = 250 if v % 5 == 2 else 0
        total = sub + tax
        balance = 0 if self.inv_status(v) in ("Paid", "Refunded", "Cancelled") else total - credit
        return sub, tax, 0, credit, total, balance

    def invoice(self, a, v):
        # shape: docs GetInvoices "invoices[invoice][0][…]" incl. currencycode/prefix/suffix (providers.md §9.2)
        c = self.client_of(a, v)
        cl = self.client(a, c) if c is not None else {"firstname": "", "lastname": "", "companyname": ""}
        status = self.inv_status(v)
        date = a.created(v) - 60 * 86400
        sub, tax, tax2, credit, total, _ = self.inv_money(a, v)
        d = {"id": str(self.kb(a, "invoices") + v), "userid": self.cid(a, c),
             "firstname": cl["firstname"], "lastname": cl["lastname"], "companyname": cl["companyname"],
             "invoicenum": "INV-%d" % (self.kb(a, "invoices") + v) if v % 2 == 0 else "",
             "date": day(date), "duedate": day(date + 14 * 86400),
             "datepaid": tsfmt(date + 86400, "%Y-%m-%d %H:%M:%S") if status == "Paid" else "0000-00-00 00:00:00",
             "last_capture_attempt": "0000-00-00 00:00:00", "subtotal": money(sub), "credit": money(credit),
             "tax": money(tax), "tax2": money(tax2), "total": money(total), "taxrate": "10.00", "taxrate2": "0.00",
             "status": status, "paymentmethod": GATEWAYS[v % 3], "notes": "",
             "created_at": tsfmt(date, "%Y-%m-%d %H:%M:%S"), "updated_at": tsfmt(a.updated(v), "%Y-%m-%d %H:%M:%S")}
        if not truthy(a.options.get("old_whmcs")):
            _, code = self.currency_of(a, c or 0)
            d.update({"currencycode": code, "currencyprefix": "$", "currencysuffix": " " + code})
        return d

    def get_invoice(self, req, a):
        # shape: docs GetInvoice (invoiceid, balance, items.item[] {id, type, relid, description,
        # amount, taxed}, "transactions": "" when none)
        v = (to_int(req.f("invoiceid")) or 0) - self.kb(a, "invoices")
        if not 0 <= v < a.n("invoices"):
            return self.err(200, "Invoice ID Not Found")
        inv = self.invoice(a, v)
        sub, tax, tax2, credit, total, balance = self.inv_money(a, v)
        d = {"result": "success", "invoiceid": inv["id"]}
        for k in ("invoicenum", "userid", "date", "duedate", "datepaid", "subtotal", "credit", "tax", "tax2",
                  "total", "taxrate", "taxrate2", "status", "paymentmethod", "notes"):
            d[k] = inv[k]
        d["balance"] = money(balance)
        d["ccgateway"] = False
        d["items"] = {"item": [{"id": str(50000 + 10 * v + n), "type": t, "relid": r, "description": desc,
                                "amount": money(cents), "taxed": 1 if taxed else 0}
                               for n, (t, r, desc, cents, taxed) in enumerate(self.inv_lines(a, v))]}
        tx = [self.transaction(a, t) for t in range(a.n("transactions")) if self.tx_invoice(a, t) == v]
        d["transactions"] = {"transaction": tx} if tx else ""
        return jreply(200, d)

    # ---- transactions

    def tx_invoice(self, a, t):
        return t if t < a.n("invoices") and t % 4 != 3 else None

    def transaction(self, a, t):
        # shape: docs GetTransactions "transactions.transaction[]" (currency "0" = the client's)
        c = self.client_of(a, t)
        v = self.tx_invoice(a, t)
        gw = GATEWAYS[t % 3]
        refund = t % 5 == 4
        amount = self.inv_money(a, v)[4] if v is not None else 2500
        return {"id": str(self.kb(a, "transactions") + t), "userid": self.cid(a, c), "currency": "0",
                "gateway": gw, "date": tsfmt(a.created(t) - 50 * 86400, "%Y-%m-%d %H:%M:%S"),
                "description": ("Refund" if refund else "Invoice Payment") if v is not None else "Add Funds",
                "amountin": money(0 if refund else amount), "fees": money(30 + amount * 29 // 1000),
                "amountout": money(amount if refund else 0), "rate": "1.00000",
                # transid is optional (https://developers.whmcs.com/api-reference/addtransaction/:
                # "transid ... Optional"): a payment entered by hand may have none
                "transid": "%s-TX-%06d" % (gw.upper(), t + 1) if t % 8 != 6 else "",
                "invoiceid": str(self.kb(a, "invoices") + v) if v is not None else "0", "refundid": "0"}

    def get_transactions(self, req, a):
        # GetTransactions: clientid, invoiceid, transid filters; no paging (every match at once)
        idx = range(a.n("transactions"))
        if req.f("clientid") not in (None, ""):
            c = self.client_index(a, req.f("clientid"))
            nc = a.n("clients")
            idx = range(c, a.n("transactions"), nc) if c is not None else range(0)
        if req.f("invoiceid") not in (None, ""):
            v = (to_int(req.f("invoiceid")) or 0) - self.kb(a, "invoices")
            idx = [t for t in idx if self.tx_invoice(a, t) == v]
        items = [self.transaction(a, t) for t in idx]
        if req.f("transid") not in (None, ""):
            items = [x for x in items if x["transid"] == req.f("transid")]
        resp = {"result": "success", "totalresults": len(items), "startnumber": 0, "numreturned": len(items)}
        if items:
            resp["transactions"] = {"transaction": items}
        return jreply(200, resp)
