/* The ledger of what does not carry over (docs/review.md, "What does not
 * carry over"): each provider states once, in one table per kind of object
 * it answers with, the fate of each of its fields: where it lands in the
 * account, or why it does not. A resource's "dropped" list is computed from
 * that table and the object as the provider sent it; a field the table does
 * not know (providers add fields over time) is listed as unknown. The docs'
 * field tables (docs/providers/<id>.md) are printed from the same tables
 * (migratorctl provider fields), and a test fails when the two differ. */
#ifndef MIGRATOR_PROVIDERS_FIELDS_H
#define MIGRATOR_PROVIDERS_FIELDS_H
#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

/* One field of a provider's object. path: member names joined by '.', and
 * "[]" after the name of a list of objects ("alert_contacts[].threshold").
 * A field that lands carries its whole value, members and items included. */
struct prov_field {
	const char *path;
	const char *lands; /* the account column(s) it lands in ("heartbeats.name"); NULL: it does not;
	                    * prov_enter_again: it does not, and the user enters it again */
	const char *note;  /* lands: how, when that needs saying (may be NULL); else why not, a sentence */
};

/* lands of a field that does not land and that the user must enter again
 * in the account (a monitor's password): the resource's dropped entry says
 * "enter_again", and the run's report lists it to do. */
extern const char prov_enter_again[];

/* A provider's fields of the objects that become one resource type. */
struct prov_fields {
	const char *resource_type;
	const char *source; /* the provider's object and call, for the docs: "check (GET /api/v3/checks/)" */
	const struct prov_field *fields; /* ends with a NULL path */
};

/* What does not carry over of raw, the object as the provider sent it, by
 * the table: a new array of {"field": path, "reason": sentence}, one per
 * field that has a value (not null, false, 0, "", a text of zeros or blanks
 * such as "0.00" or "0000-00-00", [] or {}) and does not land,
 * in the object's order; [] when everything carries; a field to enter again
 * adds "enter_again": true. Values are never copied, so no secret can show.
 * At most 64 fields are listed one by one. */
json_object *prov_dropped(const struct prov_fields *table, json_object *raw);

/* The table of resource_type in tables (ending with a NULL resource_type;
 * tables may be NULL), or NULL. */
const struct prov_fields *prov_fields_of(const struct prov_fields *tables, const char *resource_type);

/* The tables as the Markdown the docs hold between their markers. */
void prov_fields_markdown(const struct prov_fields *tables, FILE *out);

#endif
