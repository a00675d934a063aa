#include <string.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "providers/common.h"
#include "providers/fields.h"

#define DROPPED_MAX  64 /* fields listed for one resource; past it one entry says how many more */
#define PATH_MAX_LEN 256

const char prov_enter_again[] = "— (enter it again in your account)";

static const char unknown_reason[] =
    "Not known to this importer (the provider may have added it since); it is not imported.";

struct walk {
	const struct prov_field *fields;
	json_object *out;
	size_t more; /* fields past DROPPED_MAX */
};

/* A text of zeros, as some providers write "none" ("0", "0.00",
 * "0000-00-00 00:00:00"), or of blanks. */
static bool
zero_text(const char *s)
{
	return strspn(s, "0.-: ") == strlen(s);
}

/* Nothing to lose: null, false (a switch left off), 0, "", a text of zeros
 * or blanks, [] or {}. */
static bool
empty(json_object *v)
{
	return v == NULL || (json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v)) ||
	    (json_object_is_type(v, json_type_int) && json_object_get_int64(v) == 0) ||
	    (json_object_is_type(v, json_type_double) && json_object_get_double(v) == 0.0) ||
	    (json_object_is_type(v, json_type_string) && zero_text(json_object_get_string(v))) ||
	    (json_object_is_type(v, json_type_array) && json_object_array_length(v) == 0) ||
	    (json_object_is_type(v, json_type_object) && json_object_object_length(v) == 0);
}

static const struct prov_field *
field_of(const struct prov_field *fields, const char *path)
{
	for (const struct prov_field *f = fields; f->path != NULL; f++)
		if (strcmp(f->path, path) == 0)
			return f;
	return NULL;
}

/* List path once with reason (and enter_again). */
static void
drop(struct walk *w, const char *path, const char *reason, bool enter_again)
{
	size_t n = json_object_array_length(w->out);
	json_object *e;

	for (size_t i = 0; i < n; i++)
		if (strcmp(json_object_get_string(
		               json_object_object_get(json_object_array_get_idx(w->out, i), "field")),
		        path) == 0)
			return;
	if (n >= DROPPED_MAX) {
		w->more++;
		return;
	}
	e = json_object_new_object();
	jx_add_str(e, "field", path);
	jx_add_str(e, "reason", reason);
	if (enter_again)
		json_object_object_add(e, "enter_again", json_object_new_boolean(true));
	json_object_array_add(w->out, e);
}

static bool
holds_objects(json_object *arr)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++)
		if (json_object_is_type(json_object_array_get_idx(arr, i), json_type_object))
			return true;
	return false;
}

static void walk_object(struct walk *w, json_object *o, const char *prefix);

/* The fate of member value v at path: it lands, it is dropped (with the
 * table's reason, or as unknown), or (an object, a list of objects, that
 * the table does not name) its own members decide. */
static void
walk_value(struct walk *w, json_object *v, const char *path)
{
	const struct prov_field *f;
	char inner[PATH_MAX_LEN];

	if (empty(v))
		return;
	if ((f = field_of(w->fields, path)) != NULL) {
		if (f->lands == NULL || f->lands == prov_enter_again)
			drop(w, path, f->note, f->lands == prov_enter_again);
		return;
	}
	if (json_object_is_type(v, json_type_object))
		walk_object(w, v, path);
	else if (json_object_is_type(v, json_type_array) && holds_objects(v)) {
		utf8_format(inner, sizeof inner, "%s[]", path);
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *e = json_object_array_get_idx(v, i);
			if (json_object_is_type(e, json_type_object))
				walk_object(w, e, inner);
			else
				walk_value(w, e, inner);
		}
	} else
		drop(w, path, unknown_reason, false);
}

static void
walk_object(struct walk *w, json_object *o, const char *prefix)
{
	char path[PATH_MAX_LEN];

	json_object_object_foreach (o, k, v) {
		if (prefix[0] != '\0')
			utf8_format(path, sizeof path, "%s.%s", prefix, k);
		else
			utf8_copy(path, sizeof path, k);
		walk_value(w, v, path);
	}
}

json_object *
prov_dropped(const struct prov_fields *table, json_object *raw)
{
	struct walk w = { table->fields, json_object_new_array(), 0 };

	if (json_object_is_type(raw, json_type_object))
		walk_object(&w, raw, "");
	if (w.more > 0) {
		char n[64];
		json_object *e = json_object_new_object();
		snprintf(n, sizeof n, "%zu more fields", w.more);
		jx_add_str(e, "field", n);
		jx_add_str(e, "reason", "Not listed one by one; they are not imported.");
		json_object_array_add(w.out, e);
	}
	return w.out;
}

const struct prov_fields *
prov_fields_of(const struct prov_fields *tables, const char *resource_type)
{
	for (const struct prov_fields *t = tables; t != NULL && t->resource_type != NULL; t++)
		if (strcmp(t->resource_type, resource_type) == 0)
			return t;
	return NULL;
}

void
prov_fields_markdown(const struct prov_fields *tables, FILE *out)
{
	for (const struct prov_fields *t = tables; t != NULL && t->resource_type != NULL; t++) {
		fprintf(out, "%s#### `%s`: %s\n\n| field | lands in | notes |\n|---|---|---|\n",
		    t == tables ? "" : "\n", t->resource_type, t->source);
		for (const struct prov_field *f = t->fields; f->path != NULL; f++)
			fprintf(out, "| `%s` | %s | %s |\n", f->path, f->lands ? f->lands : "—",
			    f->note ? f->note : "");
	}
}

/* The object that holds the last member of path ("a.b.c": raw's a.b) into
 * *holder, and that member's name into key; false when a member on the way
 * is not an object. */
static bool
holder_of(json_object *raw, const char *path, json_object **holder, char key[PATH_MAX_LEN])
{
	const char *dot;

	*holder = raw;
	while ((dot = strchr(path, '.')) != NULL) {
		size_t n = (size_t)(dot - path);
		char part[PATH_MAX_LEN];

		if (n >= sizeof part)
			return false;
		memcpy(part, path, n);
		part[n] = '\0';
		*holder = prov_get(*holder, part);
		if (!json_object_is_type(*holder, json_type_object))
			return false;
		path = dot + 1;
	}
	return snprintf(key, PATH_MAX_LEN, "%s", path) < PATH_MAX_LEN;
}

void
prov_map(const struct prov_field *fields, json_object *raw, void *out)
{
	for (const struct prov_field *f = fields; f->path != NULL; f++) {
		char *at = (char *)out + f->at, key[PATH_MAX_LEN];
		json_object *o, *v;
		const char *text;
		int64_t n;

		if (f->conv == PF_CODE || !holder_of(raw, f->path, &o, key) || (v = prov_get(o, key)) == NULL)
			continue;
		switch (f->conv) {
		case PF_CODE:
			break;
		case PF_TEXT:
			if ((text = prov_get_text(o, key, f->max)) != NULL)
				*(const char **)(void *)at = text;
			break;
		case PF_INT:
		case PF_NONNEG:
			if (prov_get_int(o, key, &n) && (f->conv == PF_INT || n >= 0))
				*(int64_t *)(void *)at = n;
			break;
		case PF_BOOL:
			*(bool *)(void *)at = prov_get_bool(o, key, *(bool *)(void *)at);
			break;
		case PF_WORDS:
		case PF_CSV:
			if (json_object_is_type(v, json_type_string) ||
			    json_object_is_type(v, json_type_array)) {
				json_object_put(*(json_object **)(void *)at);
				*(json_object **)(void *)at =
				    prov_str_list(v, f->conv == PF_WORDS ? ' ' : ',');
			}
			break;
		}
	}
}
