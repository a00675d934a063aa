/* The provider adapters: their ops (wired into registry.c) and their pure
 * parse functions, which turn one recorded answer into a page so that the
 * unit tests need no HTTP. A parse function reads the cursor the page was
 * requested with and the response (status, kept headers, body), and returns
 * PROV_OK with items and next_cursor in page, or an error status with err
 * filled. It never sees credentials; the fetch step scrubs messages anyway. */
#ifndef MIGRATOR_PROV_ADAPTERS_H
#define MIGRATOR_PROV_ADAPTERS_H

#include "providers/fields.h"
#include "providers/httpc.h"
#include "providers/provider.h"

extern const struct provider_ops uptimerobot_ops;
extern const struct prov_fields uptimerobot_fields[];
extern const struct provider_ops pingdom_ops;
extern const struct prov_fields pingdom_fields[];
extern const struct provider_ops statuscake_ops;
extern const struct prov_fields statuscake_fields[];
extern const struct provider_ops better_stack_ops;
extern const struct prov_fields better_stack_fields[];
extern const struct provider_ops updown_ops;
extern const struct prov_fields updown_fields[];
extern const struct provider_ops healthchecks_ops;
extern const struct prov_fields healthchecks_fields[];
extern const struct provider_ops cronitor_ops;
extern const struct prov_fields cronitor_fields[];
extern const struct provider_ops statuspage_ops;
extern const struct prov_fields statuspage_fields[];
extern const struct provider_ops whmcs_ops;
extern const struct prov_fields whmcs_fields[];

enum prov_status uptimerobot_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);
enum prov_status pingdom_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);
enum prov_status statuscake_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);
enum prov_status better_stack_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);
enum prov_status updown_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);
enum prov_status healthchecks_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);
enum prov_status cronitor_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);
enum prov_status statuspage_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);
enum prov_status whmcs_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err);

#endif
