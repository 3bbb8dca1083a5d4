# shellcheck shell=bash
# Helpers for the scripts that test the packed package inside a real n8n (scripts/test-n8n.sh and
# its legs, scripts/n8n/leg-1x.sh); source it, do not run it.
# The caller sets REPO (repository root) and WORK (its temporary folder), then calls `lib_init`.

passes=0
failures=0
skips=0
started_at=$(date +%s)
PIDS=()
pass() { passes=$((passes + 1)); echo "PASS $*"; }
fail() { failures=$((failures + 1)); echo "FAIL $*"; }
skip() { skips=$((skips + 1)); echo "SKIP $*"; }
elapsed() { echo "$(($(date +%s) - started_at)) s"; }
step() { echo; echo "== $* ($(elapsed))"; }
# summary [title]: the final count line
summary() {
	echo
	echo "== ${1:-n8n ${N8N_VERSION:-} end-to-end}: $passes passed, $failures failed, $skips skipped in $(elapsed)"
}
die() { fail "$*"; summary "${SUMMARY_TITLE:-}"; exit 1; }

# use_node <major>: put that Node major first on PATH (from the npm registry when the machine's
# Node is another one), never relying on the caller's shell setup.
use_node() {
	local major
	major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	if [[ "$major" != "$1" ]]; then
		local dir
		dir="$(npx -y -p "node@$1" -- node -p 'require("path").dirname(process.execPath)' 2>/dev/null | tail -n1)"
		[[ -x "$dir/node" ]] || { echo "FAIL could not obtain Node $1 through npx"; exit 1; }
		export PATH="$dir:$PATH"
	fi
	export npm_config_yes=true npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
}

# stop_group <pid>: a background service runs in its own process group (setsid): stop the whole
# group, politely first.
stop_group() {
	kill -TERM -- "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null || true
	for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
	kill -KILL -- "-$1" 2>/dev/null || true
}
# Every group in PIDS is stopped on exit, and WORK removed unless the run failed or
# CONTENTGEN_N8N_KEEP is set.
lib_cleanup() {
	local code=$? pid
	for pid in "${PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do stop_group "$pid"; done
	if [[ -n "${CONTENTGEN_N8N_KEEP:-}" || $code -ne 0 ]]; then
		echo "(kept $WORK for inspection)"
	else
		rm -rf "$WORK"
	fi
	exit "$code"
}
lib_init() {
	trap lib_cleanup EXIT
	trap 'exit 130' INT TERM
	trap 'echo "FAIL unexpected error at line $LINENO of ${BASH_SOURCE[0]##*/}: $BASH_COMMAND"' ERR
}

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
# json <path>: a value of the JSON on stdin, e.g. json .data.id
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);const r=eval("v"+process.argv[1]);console.log(typeof r==="object"?JSON.stringify(r):r)})' "$1"; }
tsx() { "$REPO/node_modules/.bin/tsx" "$@"; }

# start_sandbox <prefix> [sandbox-host options]: scripts/n8n/sandbox-host.ts in the background;
# sets <prefix>_URL, _API_KEY, _CONTROL_URL, _PROJECT_ID, _USER, _TRIGGER_API_KEY, _TRIGGER_USER,
# _TRIGGER_PROJECT_ID from the JSON it prints, and <prefix>_OUT to that file.
start_sandbox() {
	local prefix=$1 out="$WORK/$1-sandbox.json"
	shift
	setsid "$REPO/node_modules/.bin/tsx" "$REPO/scripts/n8n/sandbox-host.ts" --port 0 "$@" \
		>"$out" 2>"$WORK/$prefix-sandbox.err" &
	PIDS+=($!)
	wait_for 60 grep -q '"apiKey"' "$out" || { cat "$WORK/$prefix-sandbox.err"; return 1; }
	local field name
	printf -v "${prefix}_OUT" '%s' "$out"
	for field in url:URL apiKey:API_KEY controlUrl:CONTROL_URL projectId:PROJECT_ID userId:USER \
		triggerApiKey:TRIGGER_API_KEY triggerUserId:TRIGGER_USER triggerProjectId:TRIGGER_PROJECT_ID; do
		name="${prefix}_${field#*:}"
		printf -v "$name" '%s' "$(json ".${field%%:*}" <"$out")"
	done
}

# n8n_environment [user folder]: a throwaway n8n on free loopback ports, quiet and local; sets
# N8N_URL. Every n8n process of a run shares it (queue mode sets its folders per process).
n8n_environment() {
	[[ -z "${1:-}" ]] || export N8N_USER_FOLDER="$1"
	export N8N_ENCRYPTION_KEY="${N8N_ENCRYPTION_KEY:-contentgen-n8n-test-$(date +%s)}"
	export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false
	export N8N_PERSONALIZATION_ENABLED=false N8N_HIRING_BANNER_ENABLED=false N8N_SECURE_COOKIE=false
	export N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 N8N_PORT="$(free_port)"
	export N8N_RUNNERS_BROKER_PORT="$(free_port)" QUEUE_HEALTH_CHECK_PORT="$(free_port)"
	export N8N_REINSTALL_MISSING_PACKAGES=false N8N_COMMUNITY_PACKAGES_ENABLED=true
	export N8N_LOG_LEVEL="${N8N_LOG_LEVEL:-info}" N8N_LOG_OUTPUT=console N8N_LOG_FORMAT=text
	export GENERIC_TIMEZONE=UTC TZ=UTC
	N8N_URL="http://127.0.0.1:$N8N_PORT"
}

# import_credentials <base url> <id> <name> <api key> [<id> <name> <api key>...]: ContentGen
# credentials pointing at the sandbox, imported with n8n's CLI ($N8N).
import_credentials() {
	local url=$1
	shift
	node -e '
		const [url, ...rest] = process.argv.slice(1);
		const out = [];
		for (let i = 0; i < rest.length; i += 3) {
			out.push({ id: rest[i], name: rest[i + 1], type: "contentGenApi", data: { apiKey: rest[i + 2], baseUrl: url } });
		}
		console.log(JSON.stringify(out));
	' "$url" "$@" >"$WORK/credentials.json"
	"$N8N" import:credentials --input="$WORK/credentials.json" >"$WORK/import-credentials.log" 2>&1 ||
		{ tail -n 20 "$WORK/import-credentials.log"; rm -f "$WORK/credentials.json"; return 1; }
	rm -f "$WORK/credentials.json"
}

# expectations <prepared workflow file>: the check-execution.ts arguments stored in it, one a line
expectations() {
	node -e 'for (const e of require(process.argv[1]).meta?.contentgenTest?.expect ?? []) console.log(e)' "$1"
}

# execute_and_check <id> <name> <prepared file> <note> <secret>: `n8n execute`, then its output
# judged by check-execution.ts against the workflow's expectations; one PASS or FAIL line.
execute_and_check() {
	local id=$1 name=$2 file=$3 note=$4 secret=$5 t0 code=0 wanted=()
	while IFS= read -r line; do [[ -n "$line" ]] && wanted+=("$line"); done < <(expectations "$file")
	t0=$(date +%s)
	"$N8N" execute --id="$id" --rawOutput >"$WORK/run-$id.out" 2>"$WORK/run-$id.err" || code=$?
	if tsx "$REPO/scripts/n8n/check-execution.ts" --stdout "$WORK/run-$id.out" --stderr "$WORK/run-$id.err" \
		--exit "$code" --secret "$secret" "${wanted[@]}" >"$WORK/check-$id.log" 2>&1; then
		pass "executed \"$name\" ($(($(date +%s) - t0)) s)${note:+; $note}"
		sed 's/^/    /' "$WORK/check-$id.log"
	else
		cat "$WORK/check-$id.log"
		grep -iE 'error|problem' "$WORK/run-$id.out" "$WORK/run-$id.err" | head -n 10 || true
		fail "executed \"$name\" ($id): see $WORK/run-$id.out"
	fi
}

# execute_broken_and_check <id> <name> <prepared file> <wrong key>: a workflow using a wrong API key
# must be judged failed by the same checks as a good run, and fail with an actionable auth
# message that does not print the key.
execute_broken_and_check() {
	local id=$1 name=$2 file=$3 secret=$4 code=0 wanted=()
	while IFS= read -r line; do [[ -n "$line" ]] && wanted+=("$line"); done < <(expectations "$file")
	"$N8N" execute --id="$id" --rawOutput >"$WORK/run-$id.out" 2>"$WORK/run-$id.err" || code=$?
	local check=(tsx "$REPO/scripts/n8n/check-execution.ts" --stdout "$WORK/run-$id.out"
		--stderr "$WORK/run-$id.err" --exit "$code" --secret "$secret")
	if "${check[@]}" "${wanted[@]}" >"$WORK/check-$id.log" 2>&1; then
		fail "\"$name\" with a wrong API key was judged a success"
	else
		pass "\"$name\" with a wrong API key is detected as failed: $(grep -m1 FAIL "$WORK/check-$id.log" | sed 's/^ *FAIL: //')"
	fi
	if "${check[@]}" --expect-error 'api key|401|unauthori[sz]ed|not accepted' >"$WORK/check-$id-error.log" 2>&1; then
		pass "\"$name\" fails with an actionable auth message, key not printed"
	else
		cat "$WORK/check-$id-error.log"
		fail "\"$name\": failure message"
	fi
}

# start_n8n: `n8n start` in the background until its REST API answers; sets N8N_PID.
# n8n 1.x answers its readiness check seconds before it mounts the REST routes.
start_n8n() {
	setsid "$N8N" start >>"$WORK/n8n-start.log" 2>&1 &
	N8N_PID=$!
	PIDS+=("$N8N_PID")
	wait_for 180 curl -fsS "$N8N_URL/healthz/readiness" && wait_for 60 curl -fsS "$N8N_URL/rest/settings" ||
		{ tail -n 40 "$WORK/n8n-start.log"; return 1; }
}
stop_n8n() { stop_group "$N8N_PID"; }
# rest <command> [args]: scripts/n8n/n8n-rest.ts against the running n8n, with its session cookie
rest() { tsx "$REPO/scripts/n8n/n8n-rest.ts" "$@" --url "$N8N_URL" --jar "${JAR:-$WORK/cookie}"; }

# check_served_types <type...>: n8n serves these node and credential types to its editor
check_served_types() {
	local types missing="" t
	types="$(rest node-types 2>&1)" || die "reading node types: $types"
	for t in "$@"; do [[ "$types" == *"\"$t\""* ]] || missing+=" $t"; done
	if [[ -z "$missing" ]]; then pass "n8n serves our types to its editor: $types"; else fail "types missing in n8n:$missing ($types)"; fi
}

# check_credential_tests <id> <name> <wrong-key id> <wrong key>: the credential test, run as the
# editor runs it, passes the credential and rejects the wrong key without showing it
check_credential_tests() {
	local verdict
	if verdict="$(rest test-credential --id "$1" 2>&1)"; then
		pass "credential test of \"$2\" (as the editor runs it): $verdict"
	else
		fail "credential test of \"$2\": $verdict"
	fi
	if verdict="$(rest test-credential --id "$3" 2>&1)"; then
		fail "credential test accepted a wrong key: $verdict"
	elif [[ "$verdict" == *'"status":"Error"'* && "$verdict" != *"$4"* ]]; then
		pass "credential test rejects a wrong key: $verdict"
	else
		fail "credential test of the wrong key: $verdict"
	fi
}

# count_requests <method> <exact path> [extra query]: requests the sandbox at $CONTROL_URL received
count_requests() {
	curl -fsS "$CONTROL_URL/requests?method=$1&path=$(node -p 'encodeURIComponent(process.argv[1])' "$2")&${3:-}" | json .length
}

# n8n 2.41 activates in the background: the first poll, which stores the trigger's starting point,
# lands shortly after `activate` answers. Records made before it would count as old.
activated() { rest static-data --id "$1"; }

# Trigger emissions of a workflow = the items of its trigger node in its saved executions.
# emissions <workflow id> <record id>...
#   -> {"executions","failed","hits","duplicates","events","executionIds","emittedBy"}
#   (emittedBy: the executions that carried any of the records)
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
			executionIds: executions.map((e) => e.id),
			emittedBy: executions.filter((e) => e.items.some((i) => ids.includes(i.id ?? i.article_id))).map((e) => e.id),
		}));
	' "$WORK/executions-$wf.json" "$@"
}
