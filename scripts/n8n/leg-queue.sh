# The queue-mode leg of scripts/test-n8n.sh (sourced after the install and pack steps): Redis, one
# n8n main and two `n8n worker` processes sharing one SQLite database, each process loading the
# packed package from its own user folder (a copy of the one step 2 installed), as an install on
# every machine would. Workflows start at production webhooks or at our polling trigger, so main
# enqueues them and the workers run them. Then the shared-budget benchmark
# (scripts/n8n/queue-bench.ts) runs on the same processes.
QUEUE_SPEED="${CONTENTGEN_N8N_QUEUE_SPEED:-10}" # sandbox speed: an article takes 6-12 s
Q="$WORK/queue"
mkdir -p "$Q/redis"

# ---------------------------------------------------------------------------------------------
step "7. queue mode: Redis, n8n main and two workers"
command -v redis-server >/dev/null || die "redis-server is not installed (Debian: apt-get install redis-server)"
start_sandbox QS --speed "$QUEUE_SPEED" || die "queue sandbox did not start"
CONTROL_URL=$QS_CONTROL_URL
pass "sandbox at $QS_URL (speed $QUEUE_SPEED)"

REDIS_PORT="$(free_port)"
setsid redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$Q/redis" \
	>"$Q/redis.log" 2>&1 &
PIDS+=($!)
wait_for 30 redis-cli -p "$REDIS_PORT" ping || { tail -n 20 "$Q/redis.log"; die "redis-server did not start"; }
pass "Redis $(redis-server --version | grep -o 'v=[0-9.]*' | cut -c3-) on 127.0.0.1:$REDIS_PORT (no persistence)"

n8n_environment
export EXECUTIONS_MODE=queue QUEUE_BULL_REDIS_HOST=127.0.0.1 QUEUE_BULL_REDIS_PORT="$REDIS_PORT"
export QUEUE_HEALTH_CHECK_ACTIVE=true
# n8n fails a job whose worker stopped renewing its lock (a crash) after lock duration + stalled
# interval, then rechecks for 30 s; defaults 60 s + 30 s, shortened here to keep the test quick.
export QUEUE_WORKER_LOCK_DURATION=10000 QUEUE_WORKER_LOCK_RENEW_TIME=2000 QUEUE_WORKER_STALLED_INTERVAL=5000
export DB_SQLITE_DATABASE="$Q/main/.n8n/database.sqlite"
JAR="$Q/cookie"
for folder in main worker-1 worker-2; do
	mkdir -p "$Q/$folder/.n8n"
	if [[ "$folder" == worker-2 && -n "${CONTENTGEN_N8N_QUEUE_BARE_WORKER:-}" ]]; then
		echo "(CONTENTGEN_N8N_QUEUE_BARE_WORKER: worker-2 runs without the package; this leg must fail)"
		continue
	fi
	cp -R "$N8N_USER_FOLDER/.n8n/nodes" "$Q/$folder/.n8n/nodes"
done

# Credentials: the functional checks and the trigger share the default sandbox user's key (one rate
# budget); the benchmark's key belongs to the second user and is replaced by a fresh one per case.
node -e '
	const [url, key, benchKey] = process.argv.slice(1);
	const ours = (id, name, apiKey) => ({ id, name, type: "contentGenApi", data: { apiKey, baseUrl: url } });
	console.log(JSON.stringify([
		ours("contentgen-sandbox", "ContentGen account", key),
		ours("contentgen-trigger", "ContentGen trigger account", key),
		ours("contentgen-bench", "ContentGen benchmark key", benchKey),
		{ id: "contentgen-bench-bearer", name: "ContentGen benchmark key (Bearer)", type: "httpBearerAuth", data: { token: benchKey } },
	]));
' "$QS_URL" "$QS_API_KEY" "$QS_TRIGGER_API_KEY" >"$Q/credentials.json"
N8N_USER_FOLDER="$Q/main" "$N8N" import:credentials --input="$Q/credentials.json" >"$Q/import.log" 2>&1 ||
	{ tail -n 20 "$Q/import.log"; die "import credentials (queue)"; }
rm -f "$Q/credentials.json"
tsx "$REPO/scripts/n8n/queue-workflows.ts" --out "$Q/workflows" --sandbox-url "$QS_URL" >"$Q/workflows.tsv" ||
	die "writing the queue workflows"
cp "$REPO/test/n8n/fixtures/trigger-article-completed.json" "$Q/workflows/"
N8N_USER_FOLDER="$Q/main" "$N8N" import:workflow --separate --input="$Q/workflows" >>"$Q/import.log" 2>&1 ||
	{ tail -n 20 "$Q/import.log"; die "import workflows (queue)"; }
pass "imported 4 credentials and $(($(wc -l <"$Q/workflows.tsv") + 1)) workflows into the shared database"

declare -A WORKER_PID WORKER_HEALTH
start_worker() { # start_worker <n>: worker-<n>, its own user folder, logging to worker-<n>.log
	WORKER_HEALTH[$1]="$(free_port)"
	N8N_USER_FOLDER="$Q/worker-$1" N8N_RUNNERS_BROKER_PORT="$(free_port)" QUEUE_HEALTH_CHECK_PORT="${WORKER_HEALTH[$1]}" \
		setsid "$N8N" worker --concurrency=5 >>"$Q/worker-$1.log" 2>&1 &
	WORKER_PID[$1]=$!
	PIDS+=("${WORKER_PID[$1]}")
	disown "${WORKER_PID[$1]}" # killing it on purpose is no news for the shell
}
worker_ready() { curl -fsS "http://127.0.0.1:${WORKER_HEALTH[$1]}/healthz/readiness"; }
t0=$(date +%s)
N8N_USER_FOLDER="$Q/main" N8N_RUNNERS_BROKER_PORT="$(free_port)" setsid "$N8N" start >>"$Q/main.log" 2>&1 &
PIDS+=($!)
start_worker 1
start_worker 2
wait_for 180 curl -fsS "$N8N_URL/healthz/readiness" || { tail -n 30 "$Q/main.log"; die "n8n main did not become ready"; }
for n in 1 2; do
	wait_for 180 worker_ready "$n" || { tail -n 30 "$Q/worker-$n.log"; die "worker $n did not become ready"; }
done
pass "n8n main and 2 workers (concurrency 5) ready in $(($(date +%s) - t0)) s"

export CONTENTGEN_N8N_OWNER_PASSWORD="Cg-$(node -p 'require("crypto").randomBytes(9).toString("hex")')-A1"
rest setup >/dev/null || die "owner setup (queue)"
TRIGGER_WF=cgTriggerArticle01
for id in $(cut -f1 "$Q/workflows.tsv") "$TRIGGER_WF"; do
	rest activate --id "$id" >/dev/null || die "activate $id"
done
wait_for 60 activated "$TRIGGER_WF" || fail "the trigger stored no starting point within 60 s"
pass "activated $(wc -l <"$Q/workflows.tsv") webhook workflows and the trigger (4 polls a minute, on main)"

# which_worker <execution id>: the worker whose log says it ran the execution ("" when none did)
which_worker() {
	local n
	for n in 1 2; do
		grep -q "Worker started execution $1 (job" "$Q/worker-$n.log" && echo "$n"
	done
	true
}
webhook() { curl -sS -X POST "$N8N_URL/webhook/$1" -H 'Content-Type: application/json' -d "$2"; }
GENERATED=() # every article id the functional checks generate: the trigger must emit each once

# ---------------------------------------------------------------------------------------------
step "7a. webhook executions run on the workers"
calls=()
for i in $(seq 1 10); do
	webhook q-generate-wait "{\"topic\":\"Queue mode, article $i of a burst\",\"projectId\":\"$QS_PROJECT_ID\"}" \
		>"$Q/burst-$i.json" 2>&1 &
	calls+=($!)
done
wait "${calls[@]}" || true
ok=0
for i in $(seq 1 10); do
	if status="$(json .status <"$Q/burst-$i.json" 2>/dev/null)" && [[ "$status" =~ ^(cms|needs_editing)$ ]]; then
		ok=$((ok + 1))
		GENERATED+=("$(json .id <"$Q/burst-$i.json")")
	else
		echo "    burst $i answered: $(head -c 300 "$Q/burst-$i.json")"
	fi
done
if ((ok == 10)); then pass "10 concurrent webhook calls each got their finished article"; else fail "$ok of 10 webhook calls got a finished article"; fi
rest executions --id cgqGenerateWait --n8n-dir "$CACHE" >"$Q/burst-executions.json" || fail "reading executions"
ran_on() { # ran_on <executions file>: "<id>:<status>:<worker>" per execution
	for row in $(node -e 'for (const e of require(process.argv[1])) console.log(`${e.id}:${e.status}`)' "$1"); do
		echo "$row:$(which_worker "${row%%:*}" | tr '\n' '+')"
	done
}
placement="$(ran_on "$Q/burst-executions.json" | tr '\n' ' ')"
matches() { grep -oE "$1" <<<"$placement" || true; }
on_one=$(matches ':(1|2)\+( |$)' | wc -l)
used=$(matches ':(1|2)\+' | sort -u | wc -l)
succeeded=$(matches ':success:' | wc -l)
enqueued=0
for id in $(node -e 'for (const e of require(process.argv[1])) console.log(e.id)' "$Q/burst-executions.json"); do
	grep -q "Enqueued execution $id (job" "$Q/main.log" && enqueued=$((enqueued + 1))
done
if ((on_one == 10 && used == 2 && succeeded == 10 && enqueued == 10)); then
	pass "main enqueued the 10 executions, each ran on exactly one worker, both workers used, all succeeded (id:status:worker): $placement"
else
	fail "webhook executions (id:status:worker): $placement"
fi

# ---------------------------------------------------------------------------------------------
step "7b. a worker killed during Wait for Completion"
charged_article() { # charged_article <since>: the one article charged to the default user since then
	curl -fsS "$CONTROL_URL/ledger?userId=$QS_USER" | node -e '
		const [since] = process.argv.slice(1);
		const rows = JSON.parse(require("fs").readFileSync(0, "utf8")).filter((e) => e.at >= since && e.kind === "article");
		if (rows.length !== 1) process.exit(1);
		console.log(rows[0].recordId);' "$1"
}
waiting() { [[ "$(count_requests GET "/api/v1/articles/$KILLED_ARTICLE/status")" -ge 1 ]]; }
failed_cleanly() {
	rest execution --id "$KILLED_EXECUTION" --n8n-dir "$CACHE" >"$Q/killed.json" && [[ "$(json .status <"$Q/killed.json")" == error ]]
}
crash_mid_wait() {
	local topic since victim killed_at generates charges
	topic="Recovered after a worker crash $(date +%s)"
	since="$(date -u +%FT%T.%3NZ)"
	webhook q-generate-then-wait "{\"topic\":\"$topic\",\"projectId\":\"$QS_PROJECT_ID\"}" >/dev/null
	wait_for 30 charged_article "$since" || { fail "the generate of \"$topic\" was not charged"; return; }
	KILLED_ARTICLE="$(charged_article "$since")"
	GENERATED+=("$KILLED_ARTICLE")
	wait_for 30 waiting || { fail "Wait for Completion never polled article $KILLED_ARTICLE"; return; }
	KILLED_EXECUTION="$(rest executions --id cgqGenerateThenWait --n8n-dir "$CACHE" | json '[0].id')"
	victim="$(which_worker "$KILLED_EXECUTION" | head -n1)"
	[[ -n "$victim" ]] || { fail "no worker log shows execution $KILLED_EXECUTION"; return; }
	kill -KILL -- "-${WORKER_PID[$victim]}"
	killed_at=$(date +%s)
	pass "killed worker $victim (SIGKILL) while execution $KILLED_EXECUTION waited for article $KILLED_ARTICLE"
	start_worker "$victim" # a crashed worker comes back, as under a process supervisor
	wait_for 180 worker_ready "$victim" || fail "worker $victim did not come back"

	if wait_for 150 failed_cleanly; then
		pass "execution $KILLED_EXECUTION is failed $(($(date +%s) - killed_at)) s after the kill: $(json .error <"$Q/killed.json")"
	else
		fail "execution $KILLED_EXECUTION after the kill: $(head -c 400 "$Q/killed.json")"
	fi
	generates=$(curl -fsS "$CONTROL_URL/requests?method=POST&path=%2Fapi%2Fv1%2Farticles%2Fgenerate&withBody=1" |
		node -e 'const t=process.argv[1];console.log(JSON.parse(require("fs").readFileSync(0,"utf8")).filter((r)=>r.body?.topic===t).length)' "$topic")
	charges=$(curl -fsS "$CONTROL_URL/ledger?userId=$QS_USER" |
		node -e 'const id=process.argv[1];console.log(JSON.parse(require("fs").readFileSync(0,"utf8")).filter((e)=>e.recordId===id).length)' "$KILLED_ARTICLE")
	if [[ "$generates" == 1 && "$charges" == 1 ]]; then
		pass "the crashed execution was not run again: 1 generate sent, 1 charge for $KILLED_ARTICLE"
	else
		fail "after the crash: $generates generates of \"$topic\", $charges charges for $KILLED_ARTICLE"
	fi
	# The recovery the README describes: find the generation by its topic, then Wait for Completion by ID.
	webhook q-recover "{\"topic\":\"$topic\"}" >"$Q/recovered.json" || true
	if [[ "$(json .id <"$Q/recovered.json" 2>/dev/null)" == "$KILLED_ARTICLE" &&
		"$(json .status <"$Q/recovered.json")" =~ ^(cms|needs_editing)$ ]]; then
		pass "recovered: Get Many by topic, then Wait for Completion by ID returned $KILLED_ARTICLE ($(json .status <"$Q/recovered.json"))"
	else
		fail "recovery of $KILLED_ARTICLE: $(head -c 300 "$Q/recovered.json")"
	fi
}
crash_mid_wait

# After the restart: two more generations, run by whichever worker takes them.
for i in 1 2; do
	webhook q-generate-wait "{\"topic\":\"Queue mode, after the restart $i\",\"projectId\":\"$QS_PROJECT_ID\"}" >"$Q/after-$i.json"
	GENERATED+=("$(json .id <"$Q/after-$i.json" 2>/dev/null || echo missing)")
done

# ---------------------------------------------------------------------------------------------
step "7c. trigger executions: on the workers, each completion exactly once"
emitted_all() { result="$(emissions "$TRIGGER_WF" "${GENERATED[@]}")" && (($(json .hits <<<"$result") >= ${#GENERATED[@]})); }
wait_for 90 emitted_all || true
# exactly_once <label>: every generated article emitted once, by trigger executions that ran on a worker
exactly_once() {
	local result placement id
	result="$(emissions "$TRIGGER_WF" "${GENERATED[@]}")" || { fail "reading trigger executions: $result"; return; }
	placement=""
	for id in $(json '.emittedBy.join(" ")' <<<"$result"); do placement+="$id:$(which_worker "$id" | tr '\n' '+') "; done
	if [[ "$(json .hits <<<"$result")" == "${#GENERATED[@]}" && "$(json .duplicates <<<"$result")" == 0 ]] &&
		! grep -qE ':( |$)|\+[12]\+' <<<"$placement"; then
		pass "${#GENERATED[@]} completions emitted once each $1; trigger executions (id:worker) $placement"
	else
		fail "trigger emissions, ${#GENERATED[@]} expected $1: $result; executions (id:worker) $placement"
	fi
}
exactly_once "across the worker restart"

# ---------------------------------------------------------------------------------------------
step "7d. the trigger under a 429 longer than its poll interval"
# Polls are due every 15 s (at :00, :15, :30, :45). The poll that meets Retry-After 18 s cannot wait
# it out before the next one: it must end quietly, store nothing, and leave the window to the next.
now_s=$((10#$(date +%S)))
sleep $(((15 - now_s % 15 + 15 - 3) % 15 + 1))
before="$(emissions "$TRIGGER_WF" none | json .executionIds)"
since="$(date -u +%FT%T.%3NZ)"
curl -fsS -X POST "$CONTROL_URL/faults" -H 'Content-Type: application/json' \
	-d '{"rateLimitStorm":{"requests":1,"retryAfter":18},"match":{"method":"GET","pathPrefix":"/api/v1/articles"}}' >/dev/null
polls_since() {
	curl -fsS "$CONTROL_URL/requests?method=GET&path=%2Fapi%2Fv1%2Farticles&since=$since" |
		node -e 'const r=JSON.parse(require("fs").readFileSync(0,"utf8"));console.log(`${r.filter((e)=>e.status===429).length} 429, ${r.filter((e)=>e.status===200).length} ok`)'
}
two_more_polls() { [[ "$(polls_since)" =~ ([0-9]+)\ ok$ ]] && ((BASH_REMATCH[1] >= 2)); }
wait_for 60 two_more_polls || true # the 429'd poll, its Retry-After, and two more polls
sleep 3                              # an error execution of the 429'd poll would be saved by now
curl -fsS -X DELETE "$CONTROL_URL/faults" >/dev/null
limited="$(polls_since)"
rest executions --id "$TRIGGER_WF" --n8n-dir "$CACHE" >"$Q/trigger-429.json"
errors="$(node -e '
	const [file, before] = process.argv.slice(1);
	const seen = new Set(JSON.parse(before));
	for (const e of JSON.parse(require("fs").readFileSync(file, "utf8")))
		if (!seen.has(e.id) && e.status !== "success") console.log(e.id);' "$Q/trigger-429.json" "$before")"
if [[ "$limited" != 1\ 429* ]]; then
	fail "the rate-limit fault did not reach a poll ($limited)"
elif [[ -z "$errors" ]]; then
	pass "a poll answered 429 with Retry-After 18 s (next poll due in 15 s) made no error execution (polls: $limited)"
else
	for id in $errors; do
		fail "a 429 with Retry-After 18 s during a poll (next poll due in 15 s) made error execution $id: $(rest execution --id "$id" --n8n-dir "$CACHE" | json .error)"
	done
fi
exactly_once "after two more polls"
rest deactivate --id "$TRIGGER_WF" >/dev/null || fail "deactivate the trigger"

# ---------------------------------------------------------------------------------------------
if [[ -n "${CONTENTGEN_N8N_SKIP_BENCH:-}" ]]; then
	skip "queue-mode benchmark (CONTENTGEN_N8N_SKIP_BENCH)"
else
	step "7e. benchmark: many executions on one rate budget, and what users would build instead"
	bench_args=(--url "$N8N_URL" --jar "$JAR" --n8n-dir "$CACHE" --control-url "$CONTROL_URL"
		--user "$QS_TRIGGER_USER" --project "$QS_TRIGGER_PROJECT_ID"
		--workers "1:${WORKER_PID[1]}:$Q/worker-1.log,2:${WORKER_PID[2]}:$Q/worker-2.log")
	[[ -z "${CONTENTGEN_BENCH_WRITE:-}" ]] || bench_args+=(--write "$REPO/BENCHMARKS.md")
	while IFS= read -r line; do
		case "$line" in
		PASS\ *) pass "${line#PASS }" ;;
		FAIL\ *) fail "${line#FAIL }" ;;
		*) echo "$line" ;;
		esac
	done < <(tsx "$REPO/scripts/n8n/queue-bench.ts" "${bench_args[@]}" 2>&1 || echo "FAIL queue-bench.ts exited with $?")
fi

leaks="$(grep -l -e "$QS_API_KEY" -e "$QS_TRIGGER_API_KEY" "$Q"/main.log "$Q"/worker-*.log || true)"
if [[ -z "$leaks" ]]; then pass "no API key in the logs of main and the workers"; else fail "an API key appears in $leaks"; fi
