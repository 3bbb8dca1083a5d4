# Shared by scripts/test-n8n.sh and its legs (sourced, never run): PASS/FAIL bookkeeping, Node 24,
# the work folder and background processes, and small waiting and JSON helpers.
# Expects REPO and N8N_VERSION to be set by the caller.

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
# stop_group <pid>: each background service runs in its own process group (setsid): stop the whole
# group, politely first.
stop_group() {
	kill -TERM -- "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null || true
	for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
	kill -KILL -- "-$1" 2>/dev/null || true
}
cleanup() {
	local code=$?
	for pid in "${PIDS[@]}"; do
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
trap 'echo "FAIL unexpected error at line $LINENO of ${BASH_SOURCE[0]##*/}: $BASH_COMMAND"' ERR

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

# start_sandbox <prefix> [sandbox-host options]: starts scripts/n8n/sandbox-host.ts in the background
# and sets <prefix>_URL, _API_KEY, _CONTROL_URL, _PROJECT_ID, _USER, _TRIGGER_API_KEY, _TRIGGER_USER,
# _TRIGGER_PROJECT_ID from the line it prints.
start_sandbox() {
	local prefix=$1 out="$WORK/$1-sandbox.json"
	shift
	setsid "$REPO/node_modules/.bin/tsx" "$REPO/scripts/n8n/sandbox-host.ts" --port 0 "$@" \
		>"$out" 2>"$WORK/$prefix-sandbox.err" &
	PIDS+=($!)
	wait_for 60 grep -q '"apiKey"' "$out" || { cat "$WORK/$prefix-sandbox.err"; return 1; }
	local field name
	for field in url:URL apiKey:API_KEY controlUrl:CONTROL_URL projectId:PROJECT_ID userId:USER \
		triggerApiKey:TRIGGER_API_KEY triggerUserId:TRIGGER_USER triggerProjectId:TRIGGER_PROJECT_ID; do
		name="${prefix}_${field#*:}"
		printf -v "$name" '%s' "$(json ".${field%%:*}" <"$out")"
	done
}

# ---------------------------------------------------------------------------------------------
# n8n: the environment every n8n process of the test shares (ports and folders are set per process).
export_n8n_env() {
	export N8N_ENCRYPTION_KEY="${N8N_ENCRYPTION_KEY:-contentgen-n8n-test-$(date +%s)}"
	export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false
	export N8N_PERSONALIZATION_ENABLED=false N8N_HIRING_BANNER_ENABLED=false N8N_SECURE_COOKIE=false
	export N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 N8N_PORT="$(free_port)"
	export N8N_RUNNERS_BROKER_PORT="$(free_port)" QUEUE_HEALTH_CHECK_PORT="$(free_port)"
	export N8N_REINSTALL_MISSING_PACKAGES=false N8N_COMMUNITY_PACKAGES_ENABLED=true
	export N8N_LOG_LEVEL="${N8N_LOG_LEVEL:-info}" N8N_LOG_OUTPUT=console N8N_LOG_FORMAT=text
	export GENERIC_TIMEZONE=UTC TZ=UTC
}

# The running n8n's REST API (scripts/n8n/n8n-rest.ts) at $N8N_URL with the session in $JAR.
rest() { tsx "$REPO/scripts/n8n/n8n-rest.ts" "$@" --url "$N8N_URL" --jar "$JAR"; }

# Requests the sandbox at $CONTROL_URL received. count_requests <method> <exact path> [extra query]
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
