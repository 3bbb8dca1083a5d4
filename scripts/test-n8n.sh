#!/usr/bin/env bash
# Proves the packed package inside a real n8n: installs n8n once into a cache folder, loads our
# tarball as a community package, points a credential at the local sandbox, runs the smoke and
# example workflows with `n8n execute`, tests the credential and a polling trigger in `n8n start`.
#
#   npm run test:n8n                 (or: bash scripts/test-n8n.sh)
#
# Environment:
#   CONTENTGEN_N8N_CACHE   n8n install folder (default ~/.cache/n8n-nodes-contentgen/n8n-2.41.1)
#   CONTENTGEN_N8N_KEEP=1  keep the temporary folder (logs, n8n user folder) for debugging
#   CONTENTGEN_N8N_SKIP_BUILD=1      use the existing dist/ instead of `npm run build`
#   CONTENTGEN_N8N_SKIP_TRIGGER=1    skip the polling-trigger part (needs about a minute)
#   CONTENTGEN_N8N_SKIP_RESTART=1    skip the restart check of the trigger (about 30 s)
# Nothing here is interactive (CI=true or not); every failure prints a FAIL line, the exit code is
# non-zero, and background processes are stopped on exit. On failure the work folder is kept.
set -Eeuo pipefail

N8N_VERSION=2.41.1
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${CONTENTGEN_N8N_CACHE:-$HOME/.cache/n8n-nodes-contentgen/n8n-$N8N_VERSION}"
CRED_ID=contentgen-sandbox
CRED_NAME='ContentGen account'
BAD_CRED_ID=contentgen-wrong-key
TRIGGER_CRED_ID=contentgen-trigger
SPEED="${CONTENTGEN_N8N_SANDBOX_SPEED:-1000}"

passes=0
failures=0
skips=0
pass() { passes=$((passes + 1)); echo "PASS $*"; }
fail() { failures=$((failures + 1)); echo "FAIL $*"; }
skip() { skips=$((skips + 1)); echo "SKIP $*"; }
step() { echo; echo "== $* ($(elapsed))"; }
started_at=$(date +%s)
elapsed() { echo "$(($(date +%s) - started_at)) s"; }
die() { fail "$*"; summary; exit 1; }
summary() {
	echo
	echo "== n8n $N8N_VERSION end-to-end: $passes passed, $failures failed, $skips skipped in $(elapsed)"
}

# ---------------------------------------------------------------------------------------------
# Node 24 (n8n 2.x refuses older Node); never rely on the caller's shell setup.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if ((node_major < 24)); then
	N24="$(npx -y -p node@24 -- node -p 'require("path").dirname(process.execPath)' 2>/dev/null | tail -n1)"
	[[ -x "$N24/node" ]] || { echo "FAIL could not obtain Node 24 through npx"; exit 1; }
	export PATH="$N24:$PATH"
fi
export npm_config_yes=true npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

WORK="$(mktemp -d "${TMPDIR:-/tmp}/contentgen-n8n.XXXXXX")"
PIDS=()
cleanup() {
	local code=$?
	for pid in "${PIDS[@]}"; do
		# Each background service runs in its own process group (setsid): stop the whole group.
		kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL -- "-$pid" 2>/dev/null || true
	done
	if [[ -n "${CONTENTGEN_N8N_KEEP:-}" || $code -ne 0 ]]; then
		echo "(kept $WORK for inspection)"
	else
		rm -rf "$WORK"
	fi
	exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'echo "FAIL unexpected error at line $LINENO: $BASH_COMMAND"' ERR

free_port() {
	node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
# wait_for <seconds> <command...>: retry the command every half second until it succeeds
wait_for() {
	local deadline=$(($(date +%s) + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		(($(date +%s) < deadline)) || return 1
		sleep 0.5
	done
}
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);const r=eval("v"+process.argv[1]);console.log(typeof r==="object"?JSON.stringify(r):r)})' "$1"; }
tsx() { "$REPO/node_modules/.bin/tsx" "$@"; }

echo "n8n-nodes-contentgen in n8n $N8N_VERSION on Node $(node --version); work folder $WORK"

# ---------------------------------------------------------------------------------------------
step "1. n8n $N8N_VERSION in $CACHE"
install_started=$(date +%s)
bash "$REPO/scripts/n8n/install.sh" "$CACHE" || die "n8n install into $CACHE"
N8N="$CACHE/node_modules/.bin/n8n"
[[ "$("$N8N" --version 2>/dev/null | tail -n1)" == "$N8N_VERSION" ]] || die "n8n --version is not $N8N_VERSION"
pass "n8n $N8N_VERSION installed ($(($(date +%s) - install_started)) s)"

# ---------------------------------------------------------------------------------------------
step "2. build, pack and install the package as a community package, as the README says"
export N8N_USER_FOLDER="$WORK/home"
bash "$REPO/scripts/n8n/install-package.sh" "$WORK/package" "$N8N_USER_FOLDER" >"$WORK/install-package.log" 2>&1 ||
	{ tail -n 30 "$WORK/install-package.log"; die "build, pack and install with the README's commands"; }
pass "$(tail -n1 "$WORK/install-package.log")"
cd "$REPO"
HAS_TRIGGER=$(node -p 'JSON.stringify(require("./package.json").n8n.nodes).includes("ContentGenTrigger")')

# ---------------------------------------------------------------------------------------------
step "3. sandbox"
SANDBOX_OUT="$WORK/sandbox.json"
setsid "$REPO/node_modules/.bin/tsx" "$REPO/scripts/n8n/sandbox-host.ts" --port 0 --speed "$SPEED" \
	>"$SANDBOX_OUT" 2>"$WORK/sandbox.err" &
PIDS+=($!)
wait_for 60 grep -q '"apiKey"' "$SANDBOX_OUT" || { cat "$WORK/sandbox.err"; die "sandbox did not start"; }
SANDBOX_URL="$(json .url <"$SANDBOX_OUT")"
API_KEY="$(json .apiKey <"$SANDBOX_OUT")"
CONTROL_URL="$(json .controlUrl <"$SANDBOX_OUT")"
PROJECT_ID="$(json .projectId <"$SANDBOX_OUT")"
# The trigger test runs as the sandbox's second user: its requests and records are its own.
TRIGGER_API_KEY="$(json .triggerApiKey <"$SANDBOX_OUT")"
TRIGGER_USER="$(json .triggerUserId <"$SANDBOX_OUT")"
TRIGGER_PROJECT_ID="$(json .triggerProjectId <"$SANDBOX_OUT")"
pass "sandbox at $SANDBOX_URL (speed $SPEED)"
count_requests() { # count_requests <method> <exact path> [extra query]
	curl -fsS "$CONTROL_URL/requests?method=$1&path=$(node -p 'encodeURIComponent(process.argv[1])' "$2")&${3:-}" | json .length
}

# ---------------------------------------------------------------------------------------------
step "4. n8n user folder, credentials, workflows"
export N8N_ENCRYPTION_KEY="contentgen-n8n-test-$(date +%s)"
export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false
export N8N_PERSONALIZATION_ENABLED=false N8N_HIRING_BANNER_ENABLED=false N8N_SECURE_COOKIE=false
export N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 N8N_PORT="$(free_port)"
export N8N_RUNNERS_BROKER_PORT="$(free_port)" QUEUE_HEALTH_CHECK_PORT="$(free_port)"
export N8N_REINSTALL_MISSING_PACKAGES=false N8N_COMMUNITY_PACKAGES_ENABLED=true
export N8N_LOG_LEVEL="${N8N_LOG_LEVEL:-info}" N8N_LOG_OUTPUT=console N8N_LOG_FORMAT=text
export GENERIC_TIMEZONE=UTC TZ=UTC

WRONG_KEY="svc_$(printf '0%.0s' $(seq 1 64))"
node -e '
	const [url, key, wrong, triggerKey, id, name, badId, triggerId] = process.argv.slice(1);
	const credential = (id, name, apiKey) => ({ id, name, type: "contentGenApi", data: { apiKey, baseUrl: url } });
	console.log(JSON.stringify([
		credential(id, name, key),
		credential(badId, "ContentGen wrong key", wrong),
		credential(triggerId, "ContentGen trigger account", triggerKey),
	]));
' "$SANDBOX_URL" "$API_KEY" "$WRONG_KEY" "$TRIGGER_API_KEY" "$CRED_ID" "$CRED_NAME" "$BAD_CRED_ID" "$TRIGGER_CRED_ID" \
	>"$WORK/credentials.json"
"$N8N" import:credentials --input="$WORK/credentials.json" >"$WORK/import-credentials.log" 2>&1 ||
	{ tail -n 20 "$WORK/import-credentials.log"; die "n8n import:credentials"; }
rm -f "$WORK/credentials.json"
pass "imported credentials $CRED_ID, $BAD_CRED_ID and $TRIGGER_CRED_ID"

# Every workflow to run: the permanent smoke check, then each example, then a broken copy of the smoke
# check that uses the wrong key (the assertions below must catch it).
mkdir -p "$WORK/workflows"
tsx "$REPO/scripts/n8n/prepare-workflows.ts" --out "$WORK/workflows" --bad-credential "$BAD_CRED_ID" \
	"$REPO"/scripts/n8n/fixtures/*.json $(ls "$REPO"/examples/*.json 2>/dev/null) >"$WORK/index.tsv" ||
	die "preparing workflows"
"$N8N" import:workflow --separate --input="$WORK/workflows" >"$WORK/import-workflows.log" 2>&1 ||
	{ tail -n 20 "$WORK/import-workflows.log"; die "n8n import:workflow"; }
"$N8N" list:workflow >"$WORK/list-workflows.log" 2>&1 || { tail -n 20 "$WORK/list-workflows.log"; die "n8n list:workflow"; }
while IFS=$'\t' read -r id kind name file note; do
	if grep -Fqx "$id|$name" "$WORK/list-workflows.log"; then
		pass "imported $kind workflow \"$name\" ($id)${note:+: $note}"
	else
		fail "workflow \"$name\" ($id) is not in n8n after import: $(grep -i "skipped\|$id" "$WORK/import-workflows.log" | head -n 3)"
	fi
done <"$WORK/index.tsv"

# ---------------------------------------------------------------------------------------------
step "5. execute workflows with n8n execute"
run_workflow() { # run_workflow <id> -> $WORK/run-<id>.{out,err}, exit code in $run_exit
	run_exit=0
	"$N8N" execute --id="$1" --rawOutput >"$WORK/run-$1.out" 2>"$WORK/run-$1.err" || run_exit=$?
}
while IFS=$'\t' read -r id kind name file note; do
	expectations=()
	while IFS= read -r line; do [[ -n "$line" ]] && expectations+=("$line"); done \
		< <(node -e 'for (const e of require(process.argv[1]).meta?.contentgenTest?.expect ?? []) console.log(e)' "$file")
	case "$kind" in
	trigger)
		continue # activated in n8n start below
		;;
	external)
		skip "\"$name\": not executed, it $note (imported; its ContentGen types are checked below)"
		;;
	broken)
		run_workflow "$id"
		# The same judgement as for a good run must reject it ...
		if tsx "$REPO/scripts/n8n/check-execution.ts" --stdout "$WORK/run-$id.out" --stderr "$WORK/run-$id.err" \
			--exit "$run_exit" --secret "$WRONG_KEY" "${expectations[@]}" >"$WORK/check-$id.log" 2>&1; then
			fail "\"$name\" with a wrong API key was judged a success"
		else
			pass "\"$name\" with a wrong API key is detected as failed: $(grep -m1 FAIL "$WORK/check-$id.log" | sed 's/^ *FAIL: //')"
		fi
		# ... and the failure must explain itself without leaking the key.
		if tsx "$REPO/scripts/n8n/check-execution.ts" --stdout "$WORK/run-$id.out" --stderr "$WORK/run-$id.err" \
			--exit "$run_exit" --secret "$WRONG_KEY" --expect-error 'api key|401|unauthori[sz]ed|not accepted' \
			>"$WORK/check-$id-error.log" 2>&1; then
			pass "\"$name\" fails with an actionable auth message, key not printed"
		else
			cat "$WORK/check-$id-error.log"
			fail "\"$name\": failure message"
		fi
		;;
	*)
		t0=$(date +%s)
		run_workflow "$id"
		if tsx "$REPO/scripts/n8n/check-execution.ts" --stdout "$WORK/run-$id.out" --stderr "$WORK/run-$id.err" \
			--exit "$run_exit" --secret "$API_KEY" "${expectations[@]}" >"$WORK/check-$id.log" 2>&1; then
			pass "executed \"$name\" ($(($(date +%s) - t0)) s)${note:+; $note}"
			sed 's/^/    /' "$WORK/check-$id.log"
		else
			cat "$WORK/check-$id.log"
			grep -iE 'error|problem' "$WORK/run-$id.out" "$WORK/run-$id.err" | head -n 10 || true
			fail "executed \"$name\" ($id): see $WORK/run-$id.out"
		fi
		;;
	esac
done <"$WORK/index.tsv"

# ---------------------------------------------------------------------------------------------
step "6. n8n start: credential test and polling trigger"
N8N_URL="http://127.0.0.1:$N8N_PORT"
JAR="$WORK/cookie"
start_n8n() {
	setsid "$N8N" start >>"$WORK/n8n-start.log" 2>&1 &
	N8N_PID=$!
	PIDS+=("$N8N_PID")
	wait_for 180 curl -fsS "$N8N_URL/healthz/readiness" || { tail -n 40 "$WORK/n8n-start.log"; die "n8n start did not become ready"; }
}
stop_n8n() {
	kill -TERM -- "-$N8N_PID" 2>/dev/null || true
	for _ in $(seq 1 100); do kill -0 "$N8N_PID" 2>/dev/null || break; sleep 0.2; done
	kill -KILL -- "-$N8N_PID" 2>/dev/null || true
}
rest() { tsx "$REPO/scripts/n8n/n8n-rest.ts" "$@" --url "$N8N_URL" --jar "$JAR"; }

t0=$(date +%s)
start_n8n
pass "n8n start ready at $N8N_URL ($(($(date +%s) - t0)) s)"
export CONTENTGEN_N8N_OWNER_PASSWORD="Cg-$(node -p 'require("crypto").randomBytes(9).toString("hex")')-A1"
rest setup >/dev/null || die "owner setup"
expected_types='n8n-nodes-contentgen.contentGen n8n-nodes-contentgen.contentGenTool'
[[ "$HAS_TRIGGER" == true ]] && expected_types+=' n8n-nodes-contentgen.contentGenTrigger'
types="$(rest node-types 2>&1)" || die "reading node types: $types"
missing=""
for t in $expected_types contentGenApi; do [[ "$types" == *"\"$t\""* ]] || missing+=" $t"; done
if [[ -z "$missing" ]]; then pass "n8n serves our types to its editor: $types"; else fail "types missing in n8n:$missing ($types)"; fi

if verdict="$(rest test-credential --id "$CRED_ID" 2>&1)"; then
	pass "credential test of \"$CRED_NAME\" (as the editor runs it): $verdict"
else
	fail "credential test of \"$CRED_NAME\": $verdict"
fi
if verdict="$(rest test-credential --id "$BAD_CRED_ID" 2>&1)"; then
	fail "credential test accepted a wrong key: $verdict"
elif [[ "$verdict" == *'"status":"Error"'* && "$verdict" != *"$WRONG_KEY"* ]]; then
	pass "credential test rejects a wrong key: $verdict"
else
	fail "credential test of the wrong key: $verdict"
fi

# Trigger emissions of a workflow = the items of its trigger node in its saved executions.
# emissions <workflow id> <record id>... -> {"executions","failed","hits","duplicates","events"}
emissions() {
	local wf=$1
	shift
	rest executions --id "$wf" --n8n-dir "$CACHE" >"$WORK/executions-$wf.json" || return 1
	node -e '
		const [file, ...ids] = process.argv.slice(1);
		const executions = JSON.parse(require("fs").readFileSync(file, "utf8"));
		const hits = executions.flatMap((e) => e.items).filter((i) => ids.includes(i.id ?? i.article_id));
		const transitions = hits.map((h) => [h.id, h.event, h.previousStatus, h.status].join(" "));
		console.log(JSON.stringify({
			executions: executions.length,
			failed: executions.filter((e) => e.status !== "success").length,
			hits: hits.length,
			duplicates: transitions.length - new Set(transitions).size,
			events: hits.map((h) => `${h.event}:${h.previousStatus}->${h.status}`),
		}));
	' "$WORK/executions-$wf.json" "$@"
}

# n8n 2.41 activates in the background: the first poll, which stores the trigger's starting point,
# lands shortly after `activate` answers. Records made before it would count as old.
activated() { rest static-data --id "$1"; }

# Example workflows that start with our trigger cannot run under `n8n execute`: activate them, wait
# for their first poll, then give them fresh records to react to.
EXAMPLE_TRIGGERS=()
while IFS=$'\t' read -r id kind name file note; do
	[[ "$kind" == trigger && "$id" != cgTriggerArticle01 ]] || continue
	if out="$(rest activate --id "$id" 2>&1)" && wait_for 60 activated "$id"; then
		pass "activated example \"$name\" and saw its first poll: $out"
		EXAMPLE_TRIGGERS+=("$id")
	else
		fail "activate example \"$name\" (or its first poll within 60 s): $out $(tail -n 5 "$WORK/n8n-start.log")"
	fi
done <"$WORK/index.tsv"
if ((${#EXAMPLE_TRIGGERS[@]} > 0)); then
	curl -fsS -X POST "$SANDBOX_URL/api/v1/social/generate" -H "Authorization: Bearer $API_KEY" \
		-H 'Content-Type: application/json' \
		-d '{"source_url":"https://blog.example.com/exactly-once","platforms":["linkedin","twitter"]}' \
		>"$WORK/example-social.json" || die "generate social content for the example triggers"
	curl -fsS -X POST "$SANDBOX_URL/api/v1/articles/generate" -H "Authorization: Bearer $API_KEY" \
		-H 'Content-Type: application/json' \
		-d "{\"topic\":\"Polling triggers that never repeat themselves\",\"project_id\":\"$PROJECT_ID\"}" \
		>"$WORK/example-article.json" || die "generate an article for the example triggers"
	EXAMPLE_RECORDS=("$(json .data.content_id <"$WORK/example-social.json")" "$(json .data.article_id <"$WORK/example-article.json")")
	pass "generated social content ${EXAMPLE_RECORDS[0]} and article ${EXAMPLE_RECORDS[1]} for the example triggers"
fi

if [[ -n "${CONTENTGEN_N8N_SKIP_TRIGGER:-}" ]]; then
	skip "polling trigger (CONTENTGEN_N8N_SKIP_TRIGGER)"
elif [[ "$HAS_TRIGGER" != true ]]; then
	fail "package.json does not register the ContentGen Trigger node: trigger not tested"
else
	TRIGGER_WF=cgTriggerArticle01
	# Polls seen by the sandbox: bursts of the trigger user's article-list requests at least 5 s apart
	# (polls are 15 s apart; one poll may read several pages or lists within milliseconds).
	polls() {
		curl -fsS "$CONTROL_URL/requests?method=GET&path=%2Fapi%2Fv1%2Farticles&userId=$TRIGGER_USER" | node -e '
			let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
				const times = JSON.parse(s).map((r) => Date.parse(r.at)).sort((a, b) => a - b);
				console.log(times.filter((t, i) => i === 0 || t - times[i - 1] > 5000).length);
			});'
	}
	polls_at_least() { (($(polls) >= $1)); }

	before=$(polls)
	if out="$(rest activate --id "$TRIGGER_WF" 2>&1)"; then
		pass "activated the trigger workflow in the running n8n (4 polls a minute): $out"
	else
		fail "activate trigger workflow: $out"
	fi
	wait_for 60 activated "$TRIGGER_WF" || fail "the trigger stored no starting point within 60 s"
	wait_for 30 polls_at_least $((before + 1)) || fail "no activation poll reached the sandbox"
	baseline=$(polls)
	sleep 2 # an execution started by the activation poll would be saved by now
	result="$(emissions "$TRIGGER_WF" none)" || fail "reading executions: $result"
	if [[ "$(json .executions <<<"$result")" == 0 ]]; then
		pass "activation poll seen by the sandbox ($((baseline - before)) poll) and no backlog emitted"
	else
		fail "the first activation emitted a backlog: $result"
	fi

	# An article generated now completes long before the next poll.
	curl -fsS -X POST "$SANDBOX_URL/api/v1/articles/generate" -H "Authorization: Bearer $TRIGGER_API_KEY" \
		-H 'Content-Type: application/json' \
		-d "{\"topic\":\"Exactly-once polling in n8n\",\"project_id\":\"$TRIGGER_PROJECT_ID\",\"word_count\":300}" \
		>"$WORK/generate.json" || die "generate an article in the sandbox"
	ARTICLE_ID="$(json .data.article_id <"$WORK/generate.json")"
	article_done() {
		curl -fsS "$SANDBOX_URL/api/v1/articles/$ARTICLE_ID/status" -H "Authorization: Bearer $TRIGGER_API_KEY" |
			json .data.is_complete | grep -qx true
	}
	wait_for 30 article_done || fail "sandbox article $ARTICLE_ID did not complete"
	pass "article $ARTICLE_ID generated and completed in the sandbox"

	# Two polls after the completion: the first must emit it, the second must not emit it again.
	t0=$(date +%s)
	if wait_for 100 polls_at_least $((baseline + 2)); then
		pass "$(($(polls) - baseline)) polls after the completion ($(($(date +%s) - t0)) s)"
	else
		fail "fewer than 2 polls in 100 s after the completion"
	fi
	sleep 2 # let the execution of the emitting poll be saved
	result="$(emissions "$TRIGGER_WF" "$ARTICLE_ID")" || fail "reading executions: $result"
	if [[ "$(json .hits <<<"$result")" == 1 && "$(json .failed <<<"$result")" == 0 ]]; then
		pass "completion emitted exactly once: $result"
	else
		fail "completion not emitted exactly once: $result"
	fi
	# Second witness: the triggered workflow fetches the article once per emission.
	fetched=$(count_requests GET "/api/v1/articles/$ARTICLE_ID")
	if [[ "$fetched" == 1 ]]; then
		pass "the triggered workflow fetched the article exactly once from the sandbox"
	else
		fail "the triggered workflow fetched the article $fetched times"
	fi

	if [[ -z "${CONTENTGEN_N8N_SKIP_RESTART:-}" ]]; then
		stop_n8n
		before_restart=$(polls)
		start_n8n
		rest setup >/dev/null || die "sign in after restart"
		wait_for 100 polls_at_least $((before_restart + 2)) || fail "fewer than 2 polls after the restart"
		sleep 2
		result="$(emissions "$TRIGGER_WF" "$ARTICLE_ID")" || fail "reading executions after restart: $result"
		if [[ "$(json .hits <<<"$result")" == 1 && "$(count_requests GET "/api/v1/articles/$ARTICLE_ID")" == 1 ]]; then
			pass "after an n8n restart and $(($(polls) - before_restart)) more polls, still exactly once: $result"
		else
			fail "duplicate or lost emission after restart: $result"
		fi
	fi
fi

# The example triggers poll on their own schedule (at most a minute apart): each must have reacted to
# the records generated for it, every transition once, with no failed execution.
for id in "${EXAMPLE_TRIGGERS[@]}"; do
	name="$(awk -F'\t' -v id="$id" '$1 == id { print $3 }' "$WORK/index.tsv")"
	reacted() { result="$(emissions "$id" "${EXAMPLE_RECORDS[@]}")" && (($(json .hits <<<"$result") > 0)); }
	if wait_for 90 reacted; then
		sleep 2
		result="$(emissions "$id" "${EXAMPLE_RECORDS[@]}")"
		if [[ "$(json .failed <<<"$result")" == 0 && "$(json .duplicates <<<"$result")" == 0 ]]; then
			pass "example \"$name\" ran on its trigger, each transition once: $result"
		else
			fail "example \"$name\": $result"
		fi
	else
		fail "example \"$name\" did not react within 90 s: ${result:-no executions}"
	fi
done
if grep -q "$API_KEY" "$WORK/n8n-start.log"; then fail "the API key appears in n8n's log"; else pass "the API key never appears in n8n's log"; fi

summary
exit $((failures == 0 ? 0 : 1))
