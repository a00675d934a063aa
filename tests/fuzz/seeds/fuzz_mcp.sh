#!/bin/sh
# Seeds of fuzz_mcp: messages the integration suite sends to POST /mcp
# (tests/integration/test_mcp.py), in the request text of
# tests/fuzz/fakeapi.h, each written twice: alone (the fake database finds
# nothing), and with a tail that gives every query rows (as fuzz_rest.sh).
# Usage: fuzz_mcp.sh TOP CORPUS
set -eu
corpus=$2
R=0192b8e4-5c1a-7c3e-9f00-aabbccddeeff
i=0
# One seed: the body, then extra header lines (may be empty), then the
# method when it is not POST.
seed() {
	i=$((i + 1))
	{
		printf '%s /mcp\n' "${3:-POST}"
		[ -n "${2:-}" ] && printf '%s\n' "$2"
		printf '\n%s' "$1"
	} >"$corpus/mcp$i"
	{
		cat "$corpus/mcp$i"
		printf '\000\000\000\000\000\000' # the NUL, then 5 bytes: every scope, known token, flag on, first request, body kept
		for _ in 1 2 3 4 5 6 7 8; do
			printf '\003\004\007\003\002\030\001\001\003\005\006\001\007\011name \303\251\001\045'
		done
	} >"$corpus/mcp$i-rows"
}
call() { # tool, arguments
	seed '{"jsonrpc":"2.0","id":'$i',"method":"tools/call","params":{"name":"'"$1"'","arguments":'"$2"'}}'
}
seed '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
seed '{"method":"initialize","params":{"protocolVersion":"1999-01-01"},"jsonrpc":"2.0","id":"init"}'
seed '{"jsonrpc":"2.0","method":"notifications/initialized"}'
seed '{"jsonrpc":"2.0","id":5,"result":{}}'
seed '{"jsonrpc":"2.0","id":1,"method":"ping"}' "MCP-Protocol-Version: 2025-06-18"
seed '{"jsonrpc":"2.0","id":1,"method":"ping"}' "MCP-Protocol-Version: 1.0"
seed '{"jsonrpc":"2.0","id":1.5,"method":"ping"}' "Origin: http://evil.example.com"
seed '{"jsonrpc":"2.0","id":1,"method":"ping"}' "Origin: https://app.example.test"
seed '{"jsonrpc":"2.0","id":1,"method":"ping"}' "Content-Type: text/plain"
seed '{"jsonrpc":"2.0","id":1,"method":"ping"}' "" GET
seed '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]'
seed '{"jsonrpc":"2.0","id":null,"method":"ping"}'
seed '{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}'
seed '{"jsonrpc":"2.0","id":"x","method":"resources/list"}'
seed '{"jsonrpc":"2.0","id":3,"method":"tools/list"}'
seed '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"c"}}'
call migrations-list '{"status":"failed","provider":"pingdom","per_page":50,"page":2}'
call migrations-list '{"per_page":51,"bogus":true}'
call migration-get '{"id":"'$R'"}'
call migration-get '{"id":12345}'
call migration-get '{}'
call migration-logs '{"id":"'$R'","errors_only":true,"per_page":5}'
call migration-resources '{"id":"'$R'","status":"conflict","resource_type":"monitor","q":"web","per_page":50}'
call migration-create '{"provider":"uptimerobot","credentials":{"api_key":"sekrit-key-123"},"options":{"import_paused":true}}'
call migration-create '{"provider":"whmcs","credentials":{"url":"https://billing.example.com","api_identifier":"i","api_secret":"s"}}'
call migration-create '{"provider":"healthchecks","credentials":{"api_key":"k","base_url":"https://hc.example.com"}}'
call migration-create '{"provider":"nope","credentials":{"x":1},"options":{"y":2}}'
call migration-execute '{"id":"'$R'"}'
call migration-retry-failed '{"id":"'$R'"}'
call migration-resolve-conflicts '{"id":"'$R'","strategy":"skip","resource_ids":[1,2]}'
call migration-resources-exclude '{"id":"'$R'","ids":[7]}'
call migration-resources-include '{"id":"'$R'","ids":[7,8]}'
call migration-cancel '{"id":"'$R'"}'
call migration-delete '{"id":"'$R'","confirm":true}'
call migration-delete '{"id":"'$R'"}'
call no-such-tool '{}'
# Tool calls with a tail that answers each statement as a run in the right
# state would (as in fuzz_rest.sh).
T='\000\000\000\000\000\000\000\000\000'
RUN='\001\005\004\031\004\010\006\001\000\003\000\010\003\004\005\006\007\003\000\010\003\004\005\006\007\000\000\001\000\001\000\006\010'
exact() { # name, tool, arguments, tail
	printf '%s' "POST /mcp

{\"jsonrpc\":\"2.0\",\"id\":\"$1\",\"method\":\"tools/call\",\"params\":{\"name\":\"$2\",\"arguments\":$3}}" \
		>"$corpus/mcp-$1"
	printf '%b' "$T$4" >>"$corpus/mcp-$1"
}
exact resolve migration-resolve-conflicts '{"id":"'$R'","strategy":"skip","resource_ids":[1,2]}' \
	'\000\001\004\004\001\001\001\001\001\001\004\002\001\000'
exact exclude migration-resources-exclude '{"id":"'$R'","ids":[1,2]}' '\000\001\004\002\001\001\001\001\001\000'
exact execute migration-execute '{"id":"'$R'"}' '\000\001\001\001\000'
exact retry migration-retry-failed '{"id":"'$R'"}' '\000\001\004\003\001\001\001\001\001\001\004\003\000'
exact cancel migration-cancel '{"id":"'$R'"}' "\\000\\001\\001\\001$RUN\\000"
exact delete migration-delete '{"id":"'$R'","confirm":true}' '\000\001\004\007\003\001\000'
exact create migration-create '{"provider":"cronitor","credentials":{"api_key":"k"}}' "\\000\\000\\001\\001\\001$RUN\\000"
exact get migration-get '{"id":"'$R'"}' "$RUN\\003\\001\\004\\004\\001\\004\\011\\004\\010\\006\\001"
