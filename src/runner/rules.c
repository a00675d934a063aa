#include <string.h>

#include "core/datetime.h"
#include "core/jsonx.h"
#include "core/xalloc.h"
#include "runner/rules.h"

void
plan_decide(const struct plan_facts *f, struct plan_decision *d)
{
	d->keep = false;
	if (f->resolution != NULL) {
		d->keep = true;
		if (strcmp(f->resolution, "skip") == 0) {
			d->action = "skip";
			d->status = "skipped";
		} else if (strcmp(f->resolution, "overwrite") == 0) {
			d->action = "update";
			d->status = "pending";
		} else {
			d->action = "create";
			d->status = "pending";
		}
		return;
	}
	if (!f->supported || !f->valid) {
		d->action = "skip";
		d->status = "skipped";
	} else if (f->linked) {
		d->action = "update";
		d->status = "pending";
	} else if (f->natural_match) {
		d->action = "conflict";
		d->status = "conflict";
	} else {
		d->action = "create";
		d->status = "pending";
	}
}

static bool
is(const char *s, const char *t)
{
	return s != NULL && strcmp(s, t) == 0;
}

enum job_verdict
job_verdict(const char *queue, const char *status)
{
	if (is(queue, "discovery"))
		return is(status, "pending") || is(status, "discovering") ? JOB_ACT : JOB_DROP;
	if (is(queue, "planning") || is(queue, "resources"))
		return is(status, "executing") ? JOB_ACT : JOB_DROP;
	if (is(queue, "revert"))
		return is(status, "reverting") ? JOB_ACT : JOB_DROP;
	return JOB_DROP;
}

enum job_verdict
review_plan_verdict(const char *status)
{
	return is(status, "discovering") ? JOB_ACT : JOB_DROP;
}

enum job_verdict
retry_verdict(const char *status)
{
	return is(status, "executing") || is(status, "pending") || is(status, "discovering") ||
	        is(status, "awaiting_review") || is(status, "paused_conflicts") ?
	    JOB_ACT :
	    JOB_DROP;
}

/* design §4, one row per allowed transition. The guarded UPDATEs of the
 * statement table (WHERE status ...) make exactly these: test_runner.c
 * test_sql_guards_follow_the_state_table fails when the two differ. */
static const struct {
	const char *from, *to;
	/* clang-format off */
} transitions[] = {
	{ "pending", "discovering" },
	{ "discovering", "awaiting_review" },
	{ "pending", "failed" },          /* unusable before the first page (no adapter, bad key) */
	{ "discovering", "failed" },
	{ "awaiting_review", "executing" },
	{ "executing", "completed" },
	{ "executing", "completed_with_errors" },
	{ "executing", "paused_conflicts" },
	{ "paused_conflicts", "awaiting_review" },
	{ "executing", "executing" },     /* retry-failed while executing */
	{ "completed_with_errors", "executing" },
	{ "failed", "executing" },
	{ "pending", "cancelled" },
	{ "discovering", "cancelled" },
	{ "awaiting_review", "cancelled" },
	{ "executing", "cancelled" },
	{ "paused_conflicts", "cancelled" },
	{ "completed", "reverting" },
	{ "completed_with_errors", "reverting" },
	{ "failed", "reverting" },        /* with imports (ST_RUN_REVERT) */
	{ "cancelled", "reverting" },
	{ "reverting", "reverted" },
};
/* clang-format on */

bool
run_transition_ok(const char *from, const char *to)
{
	for (size_t i = 0; i < sizeof transitions / sizeof transitions[0]; i++)
		if (is(from, transitions[i].from) && is(to, transitions[i].to))
			return true;
	return false;
}

bool
run_status_final(const char *status)
{
	return is(status, "completed") || is(status, "completed_with_errors") || is(status, "failed") ||
	    is(status, "cancelled") || is(status, "reverted");
}

const char *
run_final_status(int64_t failed)
{
	return failed > 0 ? "completed_with_errors" : "completed";
}

double
run_progress(int64_t imported, int64_t skipped, int64_t failed, int64_t total)
{
	double p;

	if (total <= 0)
		return 1.0;
	p = (double)(imported + skipped + failed) / (double)total;
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

/* A copy of old's member key when it is an object, else a new empty object. */
static json_object *
old_object(json_object *old, const char *key)
{
	json_object *v, *copy = NULL;

	if (old != NULL && json_object_object_get_ex(old, key, &v) &&
	    json_object_is_type(v, json_type_object) && json_object_deep_copy(v, &copy, NULL) == 0)
		return copy;
	return json_object_new_object();
}

json_object *
stats_compose(const char *old_text, json_object *discovered, json_object *planned, int64_t imported,
    int64_t skipped, int64_t failed, double progress)
{
	json_object *old = NULL, *o = json_object_new_object();
	int ok;

	if (old_text != NULL)
		old = jx_parse(old_text, strlen(old_text), &ok);
	json_object_object_add(o, "discovered", discovered ? discovered : old_object(old, "discovered"));
	json_object_object_add(o, "planned", planned ? planned : old_object(old, "planned"));
	jx_add_int(o, "imported", imported);
	jx_add_int(o, "skipped", skipped);
	jx_add_int(o, "failed", failed);
	/* Rounded to 4 places so that the JSON stays short and stable. */
	json_object_object_add(o, "progress", jx_new_rounded(progress, 4));
	json_object_put(old);
	return o;
}

/* The stats text old as an object ({} when it is not one). */
static json_object *
stats_object(const char *old)
{
	int ok;
	json_object *o = old != NULL ? jx_parse(old, strlen(old), &ok) : NULL;

	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = json_object_new_object();
	}
	return o;
}

/* Member key of o as a non-negative integer into *out; false when it is not one. */
static bool
count_member(json_object *o, const char *key, int64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int) ||
	    (*out = json_object_get_int64(v)) < 0)
		return false;
	return true;
}

char *
stats_uncounted(const char *old_text)
{
	json_object *o = stats_object(old_text);
	char *text = NULL;

	if (json_object_object_get_ex(o, "activity", NULL)) {
		json_object_object_del(o, "activity");
		text = xstrdup(jx_text(o));
	}
	json_object_put(o);
	return text;
}

char *
stats_add(const char *old_text, const char *doing, int64_t imported, int64_t failed, int64_t *failed_all,
    int64_t *finished, int64_t *total)
{
	json_object *old = stats_object(old_text), *a, *v, *o;
	int64_t imp, skip, fail;
	char *text = NULL;

	if (json_object_object_get_ex(old, "activity", &a) && json_object_is_type(a, json_type_object) &&
	    json_object_object_get_ex(a, "doing", &v) && is(json_object_get_string(v), doing) &&
	    count_member(a, "total", total) && count_member(old, "imported", &imp) &&
	    count_member(old, "skipped", &skip) && count_member(old, "failed", &fail)) {
		imp += imported;
		fail += failed;
		*failed_all = fail;
		*finished = imp + skip + fail;
		o = stats_compose(old_text, NULL, NULL, imp, skip, fail,
		    run_progress(imp, skip, fail, *total));
		text = xstrdup(jx_text(o));
		json_object_put(o);
	}
	json_object_put(old);
	return text;
}

char *
stats_waiting(const char *old_text, json_object *waiting)
{
	json_object *o = stats_object(old_text);
	char *text = NULL;

	if (waiting != NULL || json_object_object_get_ex(o, "waiting", NULL)) {
		if (waiting != NULL)
			json_object_object_add(o, "waiting", waiting);
		else
			json_object_object_del(o, "waiting");
		text = xstrdup(jx_text(o));
	}
	json_object_put(o);
	return text;
}

char *
stats_activity(const char *stats, const char *prev, const char *doing, const char *kind, int64_t done,
    bool add, int64_t total, int64_t now)
{
	json_object *o = stats_object(stats), *p = stats_object(prev), *was, *v,
	            *a = json_object_new_object();
	int64_t since = now, took;
	char iso[21];
	char *text;

	if (json_object_object_get_ex(p, "activity", &was) && json_object_is_type(was, json_type_object) &&
	    json_object_object_get_ex(was, "doing", &v) && is(json_object_get_string(v), doing)) {
		if (json_object_object_get_ex(was, "since", &v))
			time_parse(json_object_get_string(v), TIME_ISO, NULL, &since);
		if (add && json_object_object_get_ex(was, "done", &v))
			done += json_object_get_int64(v);
	}
	json_object_put(p);
	if (since > now)
		since = now;
	took = now - since;
	time_format_iso(since, true, iso);
	jx_add_str(a, "doing", doing);
	if (kind != NULL)
		jx_add_str(a, "kind", kind);
	jx_add_int(a, "done", done);
	if (total >= 0)
		jx_add_int(a, "total", total);
	jx_add_str(a, "since", iso);
	json_object_object_add(a, "per_minute",
	    took > 0 ? jx_new_rounded(done * 60.0 / (double)took, 1) : NULL);
	json_object_object_add(a, "eta_s",
	    took > 0 && done > 0 && total >= done ? json_object_new_int64((total - done) * took / done) :
	                                            NULL);
	json_object_object_add(o, "activity", a);
	text = xstrdup(jx_text(o));
	json_object_put(o);
	return text;
}
