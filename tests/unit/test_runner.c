/* Unit tests of the runner's pure logic: planning decisions, job verdicts
 * and the run state machine, backoff, progress and stats, import order, and
 * the importers' value checks. No database. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "db/stmts.h"
#include "importers/importer.h"
#include "queue/queue.h"
#include "runner/rules.h"

static struct plan_decision
decide(bool supported, bool valid, const char *resolution, bool linked, bool natural)
{
	struct plan_facts f = { supported, valid, resolution, linked, natural };
	struct plan_decision d;

	plan_decide(&f, &d);
	return d;
}

static void
test_plan_create_update_conflict_skip(void **state)
{
	struct plan_decision d;

	(void)state;
	d = decide(true, true, NULL, false, false);
	assert_string_equal(d.action, "create");
	assert_string_equal(d.status, "pending");
	assert_false(d.keep);

	/* imported before by this user: update, even when an unlinked object has the same key */
	d = decide(true, true, NULL, true, false);
	assert_string_equal(d.action, "update");
	assert_string_equal(d.status, "pending");
	d = decide(true, true, NULL, true, true);
	assert_string_equal(d.action, "update");

	d = decide(true, true, NULL, false, true);
	assert_string_equal(d.action, "conflict");
	assert_string_equal(d.status, "conflict");

	d = decide(false, false, NULL, false, false);
	assert_string_equal(d.action, "skip");
	assert_string_equal(d.status, "skipped");
	d = decide(true, false, NULL, true, true);
	assert_string_equal(d.action, "skip");
	assert_string_equal(d.status, "skipped");
}

static void
test_plan_resolution_is_kept_never_a_conflict_again(void **state)
{
	static const struct {
		const char *resolution, *action, *status;
	} cases[] = {
		{ "skip", "skip", "skipped" },
		{ "overwrite", "update", "pending" },
		{ "duplicate", "create", "pending" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* whatever else is true: the natural key still matches, for instance */
		for (int m = 0; m < 8; m++) {
			struct plan_decision d = decide(m & 1, m & 2, cases[i].resolution, m & 4, true);
			assert_true(d.keep);
			assert_string_equal(d.action, cases[i].action);
			assert_string_equal(d.status, cases[i].status);
			assert_string_not_equal(d.action, "conflict");
		}
	}
}

static void
test_job_verdicts(void **state)
{
	static const char *const all[] = { "pending", "discovering", "awaiting_review", "executing",
		"paused_conflicts", "completed", "completed_with_errors", "failed", "cancelled", "reverting",
		"reverted", NULL };

	(void)state;
	for (size_t i = 0; all[i]; i++) {
		bool disc = strcmp(all[i], "pending") == 0 || strcmp(all[i], "discovering") == 0;
		bool exec = strcmp(all[i], "executing") == 0;
		assert_int_equal(job_verdict("discovery", all[i]), disc ? JOB_ACT : JOB_DROP);
		assert_int_equal(job_verdict("planning", all[i]), exec ? JOB_ACT : JOB_DROP);
		assert_int_equal(job_verdict("resources", all[i]), exec ? JOB_ACT : JOB_DROP);
		assert_int_equal(job_verdict("revert", all[i]),
		    strcmp(all[i], "reverting") == 0 ? JOB_ACT : JOB_DROP);
		/* the plan for the review: only while the run is still discovering */
		assert_int_equal(review_plan_verdict(all[i]),
		    strcmp(all[i], "discovering") == 0 ? JOB_ACT : JOB_DROP);
		/* retry-failed sets failed resources pending in any state that imports them later */
		assert_int_equal(retry_verdict(all[i]),
		    exec || disc || strcmp(all[i], "awaiting_review") == 0 ||
		            strcmp(all[i], "paused_conflicts") == 0 ?
		        JOB_ACT :
		        JOB_DROP);
	}
	assert_int_equal(retry_verdict(NULL), JOB_DROP);
	assert_int_equal(review_plan_verdict(NULL), JOB_DROP);
	assert_int_equal(job_verdict("other", "executing"), JOB_DROP);
	assert_int_equal(job_verdict("resources", NULL), JOB_DROP);
}

static void
test_state_machine(void **state)
{
	(void)state;
	/* the design §4 paths */
	assert_true(run_transition_ok("pending", "discovering"));
	assert_true(run_transition_ok("discovering", "awaiting_review"));
	assert_true(run_transition_ok("discovering", "failed"));
	assert_true(run_transition_ok("awaiting_review", "executing"));
	assert_true(run_transition_ok("executing", "completed"));
	assert_true(run_transition_ok("executing", "completed_with_errors"));
	assert_true(run_transition_ok("executing", "paused_conflicts"));
	assert_true(run_transition_ok("paused_conflicts", "awaiting_review"));
	assert_true(run_transition_ok("completed_with_errors", "executing"));
	assert_true(run_transition_ok("failed", "executing"));
	const char *cancellable[] = { "pending", "discovering", "awaiting_review", "executing",
		"paused_conflicts" };
	for (size_t i = 0; i < 5; i++)
		assert_true(run_transition_ok(cancellable[i], "cancelled"));
	/* and nothing else */
	assert_false(run_transition_ok("cancelled", "executing"));
	assert_false(run_transition_ok("completed", "executing"));
	assert_false(run_transition_ok("completed", "cancelled"));
	assert_false(run_transition_ok("failed", "cancelled"));
	assert_false(run_transition_ok("pending", "awaiting_review"));
	assert_false(run_transition_ok("awaiting_review", "completed"));
	assert_false(run_transition_ok("paused_conflicts", "executing"));
	assert_false(run_transition_ok("discovering", "executing"));
	/* revert: from a finished run only, once */
	const char *revertible[] = { "completed", "completed_with_errors", "failed", "cancelled" };
	for (size_t i = 0; i < 4; i++)
		assert_true(run_transition_ok(revertible[i], "reverting"));
	assert_true(run_transition_ok("reverting", "reverted"));
	assert_false(run_transition_ok("reverted", "reverting"));
	assert_false(run_transition_ok("executing", "reverting"));
	assert_false(run_transition_ok("awaiting_review", "reverting"));
	assert_false(run_transition_ok("reverting", "cancelled"));
	assert_true(run_status_final("reverted"));
	assert_false(run_status_final("reverting"));
	assert_true(run_status_final("cancelled"));
	assert_true(run_status_final("completed"));
	assert_false(run_status_final("paused_conflicts"));
	assert_string_equal(run_final_status(0), "completed");
	assert_string_equal(run_final_status(1), "completed_with_errors");
}

/* Quoted state names of a status guard: "status = 'a'" or "status IN ('a', 'b')"
 * starting at p; returns how many were stored in out. */
static size_t
guard_states(const char *p, char out[][32], size_t max)
{
	bool list = strncmp(p, "status IN (", 11) == 0;
	const char *end = list ? strchr(p, ')') : NULL;
	size_t n = 0;

	for (const char *q = strchr(p, '\''); q != NULL && (end == NULL || q < end) && n < max;
	     q = strchr(q + 1, '\'')) {
		const char *e = strchr(q + 1, '\'');
		assert_true(e != NULL && (size_t)(e - q - 1) < sizeof out[0]);
		memcpy(out[n], q + 1, (size_t)(e - q - 1));
		out[n++][e - q - 1] = '\0';
		if (!list)
			break;
		q = e;
	}
	return n;
}

/* A run keeps its totals in awaiting_review and the terminal states (sql/009):
 * statement i, which moves a run to the nto states to, counts them when it
 * moves it there, and clears them otherwise. */
static void
check_totals(int i, char to[][32], size_t nto)
{
	bool keep = true;

	for (size_t b = 0; b < nto; b++)
		keep = keep && (strcmp(to[b], "awaiting_review") == 0 || run_status_final(to[b]));
	if (strstr(db_sql[i],
	        keep ? " total_resources = (SELECT COUNT(*) FROM migration_run_resources" :
	               " total_resources = NULL, failed_resources = NULL") == NULL)
		fail_msg("%s moves a run to %s without %s its totals", db_stmt_names[i], to[0],
		    keep ? "counting" : "clearing");
}

/* The SQL guards against the transition table: every statement that sets a
 * run's status names the states it leaves in its WHERE, and each pair it can
 * make must be a row of the table; every row must be made by some statement.
 * Each such statement also counts or clears the run's kept totals.
 * So a guard changed in the .def files without the table (or the reverse)
 * fails here. */
static void
test_sql_guards_follow_the_state_table(void **state)
{
	static const char *const all[] = { "pending", "discovering", "awaiting_review", "executing",
		"paused_conflicts", "completed", "completed_with_errors", "failed", "cancelled", "reverting",
		"reverted" };
	enum { NSTATES = sizeof all / sizeof all[0] };
	bool made[NSTATES][NSTATES] = { { false } };
	int checked = 0;

	(void)state;
	for (int i = 0; i < ST__COUNT; i++) {
		const char *sql = db_sql[i], *set, *where;
		char to[2][32], from[NSTATES][32];
		size_t nto = 0, nfrom;

		if (strncmp(sql, "UPDATE migration_runs SET", 25) != 0 ||
		    (set = strstr(sql, " status = ")) == NULL || (where = strstr(sql, " WHERE ")) == NULL ||
		    set > where)
			continue;
		if (i == ST_RUN_MARK_DELETED)
			continue;     /* DELETE of a run in any state: it leaves the API with the run */
		if (set[10] == '?') { /* the end of an execution: run_final_status() */
			strcpy(to[nto++], run_final_status(0));
			strcpy(to[nto++], run_final_status(1));
		} else {
			nto = guard_states(set + 1, to, 1);
		}
		check_totals(i, to, nto);
		const char *g = strstr(where, " status = ");
		const char *gin = strstr(where, " status IN (");
		if (g == NULL || (gin != NULL && gin < g))
			g = gin;
		if (g == NULL)
			fail_msg("%s sets a run status without a guard on the state it leaves",
			    db_stmt_names[i]);
		nfrom = guard_states(g + 1, from, NSTATES);
		assert_true(nto > 0 && nfrom > 0);
		for (size_t a = 0; a < nfrom; a++)
			for (size_t b = 0; b < nto; b++) {
				if (!run_transition_ok(from[a], to[b]))
					fail_msg("%s makes %s -> %s, which the state table does not allow",
					    db_stmt_names[i], from[a], to[b]);
				for (size_t x = 0; x < NSTATES; x++)
					for (size_t y = 0; y < NSTATES; y++)
						if (strcmp(all[x], from[a]) == 0 &&
						    strcmp(all[y], to[b]) == 0)
							made[x][y] = true;
			}
		checked++;
	}
	assert_true(checked >= 8);
	for (size_t x = 0; x < NSTATES; x++)
		for (size_t y = 0; y < NSTATES; y++)
			if (run_transition_ok(all[x], all[y]) && !made[x][y])
				fail_msg("the state table allows %s -> %s but no statement makes it", all[x],
				    all[y]);
}

static void
test_backoff(void **state)
{
	(void)state;
	/* exponential with jitter in [d/2, d] */
	for (int attempt = 1; attempt <= 12; attempt++) {
		int64_t d = QUEUE_BACKOFF_BASE_MS;
		for (int i = 1; i < attempt; i++)
			d = d * 2 > QUEUE_BACKOFF_MAX_MS ? QUEUE_BACKOFF_MAX_MS : d * 2;
		uint32_t rnds[] = { 0, 1, 12345, 0x7fffffff, 0xffffffff };
		for (size_t k = 0; k < 5; k++) {
			int64_t v = queue_backoff_ms(attempt, 0, rnds[k]);
			assert_true(v >= d / 2);
			assert_true(v <= d);
		}
	}
	assert_int_equal(queue_backoff_ms(1, 0, 0), QUEUE_BACKOFF_BASE_MS / 2);
	assert_int_equal(queue_backoff_ms(0, 0, 0), QUEUE_BACKOFF_BASE_MS / 2);
	assert_true(queue_backoff_ms(40, 0, 0xffffffff) <= QUEUE_BACKOFF_MAX_MS);
	/* Retry-After is honoured: never earlier, a little jitter later */
	for (uint32_t r = 0; r < 5000; r += 97) {
		int64_t v = queue_backoff_ms(1, 30, r);
		assert_true(v >= 30000);
		assert_true(v <= 32000);
		v = queue_backoff_ms(3, 1, r);
		assert_true(v >= 1000);
		assert_true(v <= 1100);
	}
	assert_true(queue_backoff_ms(1, 3600, 0xffffffff) <= 3600 * 1000 + 2000);
}

static void
test_progress_and_stats(void **state)
{
	json_object *o, *v;
	int ok;

	(void)state;
	assert_true(run_progress(0, 0, 0, 10) == 0.0);
	assert_true(run_progress(5, 0, 0, 10) == 0.5);
	assert_true(run_progress(5, 3, 2, 10) == 1.0);
	assert_true(run_progress(0, 0, 0, 0) == 1.0);
	assert_true(run_progress(20, 0, 0, 10) == 1.0);

	json_object *disc = json_object_new_object();
	jx_add_int(disc, "monitor", 3);
	o = stats_compose("{\"planned\":{\"create\":2},\"imported\":9}", disc, NULL, 1, 2, 3, 0.33333);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "discovered", &v));
	assert_true(json_object_object_get_ex(v, "monitor", &v));
	assert_int_equal(json_object_get_int64(v), 3);
	assert_true(json_object_object_get_ex(o, "planned", &v));
	assert_true(json_object_object_get_ex(v, "create", &v));
	assert_int_equal(json_object_get_int64(v), 2);
	assert_true(json_object_object_get_ex(o, "imported", &v));
	assert_int_equal(json_object_get_int64(v), 1);
	assert_true(json_object_object_get_ex(o, "failed", &v));
	assert_int_equal(json_object_get_int64(v), 3);
	assert_true(json_object_object_get_ex(o, "progress", &v));
	assert_true(json_object_get_double(v) > 0.3332 && json_object_get_double(v) < 0.3334);
	assert_non_null(strstr(jx_text(o), "\"progress\":0.3333}"));
	/* the text round-trips as the spec's shape */
	json_object *back = jx_parse(jx_text(o), strlen(jx_text(o)), &ok);
	assert_non_null(back);
	json_object_put(back);
	json_object_put(o);

	/* invalid or missing old stats: empty objects */
	o = stats_compose("not json", NULL, NULL, 0, 0, 0, 0);
	assert_true(json_object_object_get_ex(o, "discovered", &v));
	assert_true(json_object_is_type(v, json_type_object));
	assert_int_equal(json_object_object_length(v), 0);
	json_object_put(o);
	o = stats_compose(NULL, NULL, NULL, 0, 0, 0, 1);
	assert_true(json_object_object_get_ex(o, "planned", &v));
	assert_true(json_object_is_type(v, json_type_object));
	json_object_put(o);
}

/* The run's "waiting" member: set beside the counts, replaced, taken out;
 * nothing to write when there is none to take out. */
static void
test_stats_waiting(void **state)
{
	json_object *w = json_object_new_object();
	char *t, *u;

	(void)state;
	jx_add_str(w, "reason", "rate_limit");
	jx_add_str(w, "provider", "statuspage");
	jx_add_str(w, "until", "2030-01-02T03:04:05Z");
	t = stats_waiting("{\"discovered\":{\"monitor\":3},\"imported\":0}", w);
	assert_string_equal(t,
	    "{\"discovered\":{\"monitor\":3},\"imported\":0,\"waiting\":{\"reason\":"
	    "\"rate_limit\",\"provider\":\"statuspage\",\"until\":\"2030-01-02T03:04:05Z\"}}");
	u = stats_waiting(t, NULL);
	assert_string_equal(u, "{\"discovered\":{\"monitor\":3},\"imported\":0}");
	assert_null(stats_waiting(u, NULL));
	assert_null(stats_waiting(NULL, NULL));
	free(t);
	free(u);
	w = json_object_new_object();
	jx_add_str(w, "reason", "rate_limit");
	t = stats_waiting("not json", w);
	assert_string_equal(t, "{\"waiting\":{\"reason\":\"rate_limit\"}}");
	free(t);
}

static void
test_stats_activity(void **state)
{
	/* 2030-01-02T03:04:05Z */
	const int64_t t0 = 1893553445;
	char *a, *b, *c, *d;

	(void)state;
	/* the first word: no rate yet, no estimate */
	a = stats_activity("{\"discovered\":{\"monitor\":3}}", NULL, "discovering", "monitor", 3, false, -1,
	    t0);
	assert_string_equal(a,
	    "{\"discovered\":{\"monitor\":3},\"activity\":{\"doing\":\"discovering\",\"kind\":\"monitor\","
	    "\"done\":3,\"since\":\"2030-01-02T03:04:05Z\",\"per_minute\":null,\"eta_s\":null}}");
	/* 60 s later, 903 found: the rate since the start; no total, so no estimate */
	b = stats_activity(a, a, "discovering", "contact", 903, false, -1, t0 + 60);
	assert_non_null(strstr(b,
	    "\"kind\":\"contact\",\"done\":903,\"since\":\"2030-01-02T03:04:05Z\","
	    "\"per_minute\":903.0,\"eta_s\":null"));
	/* another doing starts its own clock; planning adds what each batch did */
	c = stats_activity(b, b, "planning", NULL, 500, true, 2000, t0 + 70);
	assert_non_null(strstr(c,
	    "{\"doing\":\"planning\",\"done\":500,\"total\":2000,"
	    "\"since\":\"2030-01-02T03:05:15Z\",\"per_minute\":null,\"eta_s\":null}"));
	/* stats recomputed without it: the previous activity comes from the old text */
	d = stats_activity("{\"imported\":0}", c, "planning", NULL, 500, true, 2000, t0 + 80);
	assert_non_null(strstr(d,
	    "{\"imported\":0,\"activity\":{\"doing\":\"planning\",\"done\":1000,\"total\":2000,\"since\":\"2030-01-02T03:05:15Z\","
	    "\"per_minute\":6000.0,\"eta_s\":10}"));
	free(a);
	free(b);
	free(c);
	free(d);
	/* not JSON, or a clock that went back: a fresh activity, never a negative time */
	a = stats_activity("oops", NULL, "importing", NULL, 0, false, 10, t0);
	b = stats_activity(a, a, "importing", NULL, 5, false, 10, t0 - 100);
	assert_non_null(strstr(b, "\"since\":\"2030-01-02T03:02:25Z\",\"per_minute\":null"));
	free(a);
	free(b);
}

static void
test_stats_add(void **state)
{
	const char *importing = "{\"discovered\":{\"monitor\":10},\"planned\":{\"create\":8,\"skip\":2},"
	                        "\"imported\":3,\"skipped\":2,\"failed\":1,\"progress\":0.5,"
	                        "\"activity\":{\"doing\":\"importing\",\"done\":6,\"total\":12}}";
	int64_t failed = -1, finished = -1, total = -1;
	char *t;

	(void)state;
	/* a job's counts added: the progress follows, the activity goes (stats_activity adds it) */
	t = stats_add(importing, "importing", 2, 1, &failed, &finished, &total);
	assert_string_equal(t,
	    "{\"discovered\":{\"monitor\":10},\"planned\":{\"create\":8,\"skip\":2},"
	    "\"imported\":5,\"skipped\":2,\"failed\":2,\"progress\":0.75}");
	assert_int_equal(failed, 2);
	assert_int_equal(finished, 9);
	assert_int_equal(total, 12);
	free(t);
	/* no count to add to: another activity, none, no total, a count that is not one, not JSON */
	assert_null(stats_add(importing, "planning", 1, 0, &failed, &finished, &total));
	assert_null(stats_add("{\"imported\":3,\"skipped\":0,\"failed\":0}", "importing", 1, 0, &failed,
	    &finished, &total));
	assert_null(
	    stats_add("{\"imported\":3,\"skipped\":0,\"failed\":0,\"activity\":{\"doing\":\"importing\"}}",
	        "importing", 1, 0, &failed, &finished, &total));
	assert_null(stats_add("{\"imported\":\"3\",\"skipped\":0,\"failed\":0,"
	                      "\"activity\":{\"doing\":\"importing\",\"total\":10}}",
	    "importing", 1, 0, &failed, &finished, &total));
	assert_null(stats_add("oops", "importing", 1, 0, &failed, &finished, &total));
	/* after a retry-failed: the activity goes, so that the next report counts */
	t = stats_uncounted(importing);
	assert_null(strstr(t, "activity"));
	assert_null(stats_add(t, "importing", 1, 0, &failed, &finished, &total));
	free(t);
	assert_null(stats_uncounted("{\"imported\":3}"));
}

static void
test_import_order(void **state)
{
	(void)state;
	/* what is referred to comes first */
	assert_true(importer_rank("contact") < importer_rank("monitor"));
	assert_true(importer_rank("contact") < importer_rank("heartbeat"));
	assert_true(importer_rank("monitor") < importer_rank("status_page"));
	assert_true(importer_rank("heartbeat") < importer_rank("status_page"));
	assert_true(importer_rank("hosting_client") < importer_rank("hosting_service"));
	assert_true(importer_rank("hosting_client") < importer_rank("hosting_domain"));
	assert_true(importer_rank("hosting_client") < importer_rank("invoice"));
	assert_int_equal(importer_rank("widget"), -1);
	assert_int_equal(importer_rank(NULL), -1);
	assert_true(importer_rank("monitor") < importer_rank("maintenance_window"));
	assert_true(importer_rank("heartbeat") < importer_rank("maintenance_window"));
	assert_true(importer_rank("status_page") < importer_rank("status_page_subscriber"));
	assert_true(importer_rank("hosting_client") < importer_rank("hosting_contact"));
	assert_true(importer_rank("hosting_service") < importer_rank("hosting_addon"));
	assert_true(importer_rank("invoice") < importer_rank("payment"));
	/* every type of the order has a rank equal to its position and a table */
	size_t n = 0;
	for (; importer_type_at(n); n++) {
		assert_int_equal(importer_rank(importer_type_at(n)), (int)n);
		assert_non_null(importer_model(importer_type_at(n)));
	}
	assert_int_equal(n, 13);
	assert_string_equal(importer_model("status_page"), "status_pages");
	assert_string_equal(importer_model("hosting_client"), "hosting_clients");
	assert_null(importer_model("widget"));
}

static void
test_value_checks(void **state)
{
	char d[11], dec[24];

	(void)state;
	assert_int_equal(imp_date("2024-02-29", d), 0);
	assert_string_equal(d, "2024-02-29");
	assert_int_equal(imp_date("2024-03-01T10:00:00Z", d), 0);
	assert_string_equal(d, "2024-03-01");
	assert_int_equal(imp_date("2023-02-29", d), -1);
	assert_int_equal(imp_date("2023-13-01", d), -1);
	assert_int_equal(imp_date("2023-00-10", d), -1);
	assert_int_equal(imp_date("0000-00-00", d), -1);
	assert_int_equal(imp_date("2023-1-1", d), -1);
	assert_int_equal(imp_date("2023-01-01x", d), -1);
	assert_int_equal(imp_date("2024-03-01T10:00:00Zx", d), -1); /* the whole text is read */
	assert_int_equal(imp_date("2024-03-01T25:00:00Z", d), -1);
	assert_int_equal(imp_date("0999-12-31", d), -1);
	assert_int_equal(imp_date("1000-01-01", d), 0);
	assert_int_equal(imp_date("2024-03-01T01:00:00+02:00", d), 0);
	assert_string_equal(d, "2024-02-29"); /* the UTC date */
	assert_int_equal(imp_date("", d), -1);
	assert_int_equal(imp_date(NULL, d), -1);

	assert_int_equal(imp_decimal("12", dec), 0);
	assert_string_equal(dec, "12");
	assert_int_equal(imp_decimal("-3.5", dec), 0);
	assert_string_equal(dec, "-3.5");
	assert_int_equal(imp_decimal("1234.567", dec), 0);
	assert_string_equal(dec, "1234.56");
	assert_int_equal(imp_decimal("999999999999.99", dec), 0);
	const char *bad[] = { "", "-", ".5", "1.", "1e3", "12,50", " 1", "1 ", "abc", "1234567890123", "0x10",
		NULL };
	for (int i = 0; bad[i]; i++)
		assert_int_equal(imp_decimal(bad[i], dec), -1);
	assert_int_equal(imp_decimal(NULL, dec), -1);

	assert_int_equal(utf8_cut("hello", 5, 3, SIZE_MAX), 3);
	assert_int_equal(utf8_cut("hello", 5, 10, SIZE_MAX), 5);
	assert_int_equal(utf8_cut("h\xc3\xa9llo", 6, 2, SIZE_MAX), 3);             /* "hé" */
	assert_int_equal(utf8_cut("\xe2\x82\xac\xe2\x82\xac", 6, 1, SIZE_MAX), 3); /* one euro sign */
	assert_int_equal(utf8_cut("", 0, 4, SIZE_MAX), 0);
}

static json_object *
norm(const char *text)
{
	int ok;
	json_object *o = jx_parse(text, strlen(text), &ok);

	assert_non_null(o);
	return o;
}

static void
test_validate(void **state)
{
	static const struct {
		const char *type, *json;
		int ok;
	} cases[] = {
		{ "monitor", "{\"name\":\"A\",\"url\":\"https://a.example/\",\"type\":\"http\"}", 0 },
		{ "monitor", "{\"name\":\"\",\"url\":\"https://a.example/\"}", 0 },
		{ "monitor", "{\"name\":\"A\",\"url\":null}", 0 },
		{ "monitor", "{\"name\":\"  \",\"url\":\"\"}", -1 },
		{ "heartbeat", "{\"name\":\"cron\"}", 0 },
		{ "heartbeat", "{\"name\":null}", -1 },
		{ "contact", "{\"name\":null,\"type\":\"email\",\"value\":\"a@b.c\"}", 0 },
		{ "contact", "{\"name\":null,\"type\":\"email\",\"value\":null}", -1 },
		{ "status_page", "{\"name\":\"S\",\"items\":[]}", 0 },
		{ "status_page", "{\"url\":\"https://s/\"}", -1 },
		{ "hosting_client", "{\"email\":\"c@example.com\"}", 0 },
		{ "hosting_client", "{\"email\":\"\"}", -1 },
		{ "hosting_service", "{\"product\":\"VPS\"}", 0 },
		{ "hosting_service", "{\"product\":null,\"domain\":null}", -1 },
		{ "hosting_domain", "{\"domain\":\"example.com\"}", 0 },
		{ "hosting_domain", "{}", -1 },
		{ "invoice", "{\"number\":\"INV-1\"}", 0 },
		{ "invoice",
		    "{\"number\":\"12345678901234567890123456789012345678901234567890123456789012345\"}",
		    -1 },
		{ "maintenance_window", "{\"name\":\"Nightly\",\"start\":\"03:30\"}", 0 },
		{ "maintenance_window", "{\"name\":null}", -1 },
		{ "status_page_subscriber", "{\"status_page_id\":\"p1\",\"kind\":\"email\"}", 0 },
		{ "status_page_subscriber", "{\"kind\":\"email\",\"address\":\"a@b.c\"}", -1 },
		{ "hosting_contact", "{\"email\":\"c@example.com\"}", 0 },
		{ "hosting_contact", "{\"phone\":\"123\"}", -1 },
		{ "hosting_addon", "{\"name\":\"Backups\"}", 0 },
		{ "hosting_addon", "{\"name\":\"\"}", -1 },
		{ "payment", "{\"transaction_id\":\"TX-1\"}", 0 },
		{ "payment", "{\"gateway\":\"paypal\"}", -1 },
		{ "widget", "{\"name\":\"x\"}", -1 },
	};
	char why[200];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_object *o = norm(cases[i].json);
		why[0] = '\0';
		int rc = importer_validate(cases[i].type, o, why, sizeof why);
		if (rc != cases[i].ok)
			fail_msg("%s %s: got %d (%s)", cases[i].type, cases[i].json, rc, why);
		if (rc != 0)
			assert_true(strlen(why) > 0);
		json_object_put(o);
	}
}

/* What the run log says of a resource that cannot be stored, and the edges:
 * no object, not an object, a URL over 2048 characters. */
static void
test_validate_says_why(void **state)
{
	char why[200];

	(void)state;
	static const struct {
		const char *type, *json, *why;
	} says[] = {
		{ "heartbeat", "{\"name\":\"  \"}", "The heartbeat has no name." },
		{ "monitor", "{}", "The monitor has neither a name nor a URL." },
		{ "hosting_client", "{}", "The client has no email address." },
		{ "maintenance_window", "{\"name\":\"N\",\"start\":\"123456789012345678901234567890123\"}",
		    "The maintenance window's start is not a date-time or a time of day." },
		{ "invoice", "{}", "The invoice has no number." },
	};
	for (size_t i = 0; i < sizeof says / sizeof says[0]; i++) {
		json_object *o = norm(says[i].json);
		assert_int_equal(importer_validate(says[i].type, o, why, sizeof why), -1);
		assert_string_equal(why, says[i].why);
		json_object_put(o);
	}
	assert_int_equal(importer_validate("monitor", NULL, why, sizeof why), -1);
	json_object *arr = json_object_new_array();
	assert_int_equal(importer_validate("monitor", arr, why, sizeof why), -1);
	json_object_put(arr);
	/* a URL over 2048 characters */
	char *big = malloc(2200 + 64);
	strcpy(big, "{\"name\":\"x\",\"url\":\"https://");
	memset(big + strlen(big), 'a', 2100);
	strcpy(big + strlen("{\"name\":\"x\",\"url\":\"https://") + 2100, "\"}");
	json_object *o = norm(big);
	assert_int_equal(importer_validate("monitor", o, why, sizeof why), -1);
	json_object_put(o);
	free(big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_create_update_conflict_skip),
		cmocka_unit_test(test_plan_resolution_is_kept_never_a_conflict_again),
		cmocka_unit_test(test_job_verdicts),
		cmocka_unit_test(test_state_machine),
		cmocka_unit_test(test_sql_guards_follow_the_state_table),
		cmocka_unit_test(test_backoff),
		cmocka_unit_test(test_progress_and_stats),
		cmocka_unit_test(test_stats_waiting),
		cmocka_unit_test(test_stats_activity),
		cmocka_unit_test(test_stats_add),
		cmocka_unit_test(test_import_order),
		cmocka_unit_test(test_value_checks),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_validate_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
