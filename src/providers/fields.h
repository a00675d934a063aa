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
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

/* How a field that lands is read into the adapter's normalized struct
 * (prov_map): the table maps it, or the adapter's code does, by a rule the
 * entry's note states (a fallback, a unit, a lookup, a list of objects). */
enum prov_conv {
	PF_CODE = 0, /* by the adapter's code */
	PF_TEXT,     /* const char *: a string of at most max bytes, not blank (prov_get_text) */
	PF_INT,      /* int64_t: an integer (prov_get_int) */
	PF_NONNEG,   /* int64_t: an integer >= 0 */
	PF_BOOL,     /* bool: prov_get_bool's forms */
	PF_WORDS,    /* json_object *: a text split at spaces, or a list (prov_str_list) */
	PF_CSV,      /* json_object *: a text split at commas, or a list */
};

/* One field of a provider's object. path: member names joined by '.', and
 * "[]" after the name of a list of objects ("alert_contacts[].threshold").
 * A field that lands carries its whole value, members and items included. */
struct prov_field {
	const char *path;
	const char *lands;   /* the account column(s) it lands in ("heartbeats.name"); NULL: it does not;
	                    * prov_enter_again: it does not, and the user enters it again */
	const char *note;    /* lands: how, when that needs saying (may be NULL); else why not, a sentence */
	enum prov_conv conv; /* PF_CODE: mapped by the adapter's code (and always for a path with "[]") */
	size_t at;           /* the member it is read into: its offset in the normalized struct */
	size_t max;          /* PF_TEXT: bytes at most */
};

/* A table's entries name the members past note only for a field the table
 * maps; the others leave them zero (PF_CODE) on purpose. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* The conv, at and max of an entry the table maps into member of struct
 * prov_<kind> (common.h): PROV_TEXT(heartbeat, ping_url, 2048). A member
 * of another type than the conversion writes does not compile. */
#define PROV_AT(kind, member, ctype) \
	offsetof(struct prov_##kind, member) + 0 * sizeof(&((struct prov_##kind *)0)->member == (ctype *)0)
#define PROV_TEXT(kind, member, max) PF_TEXT, PROV_AT(kind, member, const char *), max
#define PROV_INT(kind, member)       PF_INT, PROV_AT(kind, member, int64_t), 0
#define PROV_NONNEG(kind, member)    PF_NONNEG, PROV_AT(kind, member, int64_t), 0
#define PROV_BOOL(kind, member)      PF_BOOL, PROV_AT(kind, member, bool), 0
#define PROV_WORDS(kind, member)     PF_WORDS, PROV_AT(kind, member, json_object *), 0
#define PROV_CSV(kind, member)       PF_CSV, PROV_AT(kind, member, json_object *), 0

/* Read each field of raw that fields maps (conv not PF_CODE) into out, the
 * normalized struct of the table's kind: a field absent, null or not of its
 * conversion's form leaves its member as it was (the adapter's default).
 * The adapter then maps the PF_CODE fields itself. */
void prov_map(const struct prov_field *fields, json_object *raw, void *out);

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
