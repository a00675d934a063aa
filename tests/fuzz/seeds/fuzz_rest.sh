#!/bin/sh
# Seeds of fuzz_rest: requests the integration suite sends
# (tests/integration/test_rest.py), in the request text of
# tests/fuzz/fakeapi.h. Each is written twice: alone (the fake database finds
# nothing), and with a tail that gives every query rows of the shapes the
# database holds (runs, resources, log entries; see fake_cell).
# Usage: fuzz_rest.sh TOP CORPUS
set -eu
corpus=$2
R=0192b8e4-5c1a-7c3e-9f00-aabbccddeeff
i=0
# One seed: the request's first line, then its body (may be empty), then
# extra header lines.
seed() {
	i=$((i + 1))
	{
		printf '%s\n' "$1"
		[ -n "${3:-}" ] && printf '%s\n' "$3"
		printf '\n%s' "$2"
	} >"$corpus/rest$i"
	# the tail: the token, then for each query 3 rows whose cells cycle
	# through the shapes (word, datetime, integer, bound id, JSON, text)
	{
		cat "$corpus/rest$i"
		printf '\000\000\000\000\000\000' # the NUL, then 5 bytes: every scope, known token, flag on, first request, body kept
		for _ in 1 2 3 4 5 6 7 8; do
			printf '\003\004\007\003\002\030\001\001\003\005\006\001\007\011name \303\251\001\045'
		done
	} >"$corpus/rest$i-rows"
}
seed "GET /api/v1/migrations" ""
seed "GET /api/v1/migrations?status=awaiting_review" ""
seed "GET /api/v1/migrations?provider=pingdom&per_page=100&page=2" ""
seed "GET /api/v1/migrations?page=5&per_page=2" ""
seed "GET /api/v1/migrations?per_page=0" ""
seed "GET /api/v1/migrations?status=%ff&page=-1&per_page=1e3&x" ""
seed "GET /api/v1/migrations/$R" ""
seed "GET /api/v1/migrations/not-a-uuid" ""
seed "GET /api/v1/migrations/$R/logs?errors_only=true&per_page=2&page=3" ""
seed "GET /api/v1/migrations/$R/resources?status=failed&resource_type=monitor&action=create&q=%25a_b%5C&per_page=100" ""
seed "POST /api/v1/migrations" '{"provider":"uptimerobot","credentials":{"api_key":"k-123"},"options":{"import_paused":true}}'
seed "POST /api/v1/migrations" '{"provider":"whmcs","credentials":{"url":"https://billing.example.com","api_identifier":"i","api_secret":"s","access_key":"a"}}'
seed "POST /api/v1/migrations" '{"provider":"healthchecks","credentials":{"api_key":"k","base_url":"https://hc.example.com"}}'
seed "POST /api/v1/migrations" '{"provider":"statuspage","credentials":{"api_key":"k","page_id":5}}'
seed "POST /api/v1/migrations" '{"provider":"uptimerobot","credentials":{"😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀":"x"}}'
seed "POST /api/v1/migrations" '{"provider":"uptimerobot","credentials":{"api_key":"a\u0000b"}}'
seed "POST /api/v1/migrations" '{"provider":'
seed "POST /api/v1/migrations" '[1,2]'
seed "POST /api/v1/migrations" '{"provider":"uptimerobot"}' "Content-Type: text/plain"
seed "POST /api/v1/migrations/$R/execute" ""
seed "POST /api/v1/migrations/$R/retry-failed" ""
seed "POST /api/v1/migrations/$R/cancel" ""
seed "POST /api/v1/migrations/$R/resolve-conflicts" '{"strategy":"duplicate","resource_ids":[1,2,3]}'
seed "POST /api/v1/migrations/$R/resolve-conflicts" '{"strategy":"skip","resource_ids":[0,-1,"x"]}'
seed "POST /api/v1/migrations/$R/resources/exclude" '{"ids":[1,2]}'
seed "POST /api/v1/migrations/$R/resources/include" '{"ids":[99999999999999999999]}'
seed "DELETE /api/v1/migrations/$R" ""
seed "PUT /api/v1/migrations/$R" ""
seed "GET /api/v1/me" ""
seed "GET /api/v1/nope" ""
seed "GET /api/v1/me" "" "Authorization: Bearer 1|nope"
# Requests with a tail that answers each statement as a run in the right
# state would (the bytes in the order fakeapi.h reads them: after the NUL,
# five of the request's environment, the token owner's name and email and
# the token's use; then each statement's, e.g. \001\004\004: one row whose
# status is the word paused_conflicts).
T='\000\000\000\000\000\000\000\000\000'
RUN='\001\005\004\031\004\010\006\001\000\003\000\010\003\004\005\006\007\003\000\010\003\004\005\006\007\000\000\001\000\001\000\006\010'
exact() { # name, request text, tail
	printf '%b' "$2" >"$corpus/rest-$1"
	printf '%b' "$T$3" >>"$corpus/rest-$1"
}
exact resolve "POST /api/v1/migrations/$R/resolve-conflicts\n\n{\"strategy\":\"overwrite\",\"resource_ids\":[1,2]}" \
	'\000\001\004\004\001\001\001\001\001\001\004\002\001\000'
exact exclude "POST /api/v1/migrations/$R/resources/exclude\n\n{\"ids\":[1,2]}" '\000\001\004\002\001\001\001\001\001\000'
exact execute "POST /api/v1/migrations/$R/execute\n\n" '\000\001\001\001\000'
exact retry "POST /api/v1/migrations/$R/retry-failed\n\n" '\000\001\004\003\001\001\001\001\001\001\004\003\000'
exact cancel "POST /api/v1/migrations/$R/cancel\n\n" "\\000\\001\\001\\001$RUN\\000"
exact delete "DELETE /api/v1/migrations/$R\n\n" '\000\001\004\007\003\001\000'
exact create "POST /api/v1/migrations\n\n{\"provider\":\"cronitor\",\"credentials\":{\"api_key\":\"k\"}}" \
	"\\000\\000\\001\\001\\001$RUN\\000"
