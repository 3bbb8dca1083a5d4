# The single-process leg of scripts/test-n8n.sh (sourced after the install and pack steps): one n8n
# against the local sandbox. Runs the smoke and example workflows with `n8n execute` (the AI-agent
# example against scripts/n8n/openai-double.ts), tests the credential as the editor does and the
# polling trigger in `n8n start`, then stops that n8n.
CRED_ID=contentgen-sandbox
CRED_NAME='ContentGen account'
BAD_CRED_ID=contentgen-wrong-key
TRIGGER_CRED_ID=contentgen-trigger
OPENAI_CRED_ID=openai-double
SPEED="${CONTENTGEN_N8N_SANDBOX_SPEED:-1000}"

# ---------------------------------------------------------------------------------------------
step "3. sandbox and a scripted OpenAI-compatible model"
start_sandbox SB --speed "$SPEED" || die "sandbox did not start"
SANDBOX_URL=$SB_URL API_KEY=$SB_API_KEY CONTROL_URL=$SB_CONTROL_URL PROJECT_ID=$SB_PROJECT_ID
# The trigger test runs as the sandbox's second user: its requests and records are its own.
TRIGGER_API_KEY=$SB_TRIGGER_API_KEY TRIGGER_USER=$SB_TRIGGER_USER TRIGGER_PROJECT_ID=$SB_TRIGGER_PROJECT_ID
pass "sandbox at $SANDBOX_URL (speed $SPEED)"
setsid "$REPO/node_modules/.bin/tsx" "$REPO/test/n8n/harness/openai-double.ts" --port 0 \
	>"$WORK/openai-double.json" 2>"$WORK/openai-double.err" &
PIDS+=($!)
wait_for 60 grep -q '"url"' "$WORK/openai-double.json" || { cat "$WORK/openai-double.err"; die "OpenAI double did not start"; }
OPENAI_URL="$(json .url <"$WORK/openai-double.json")"
OPENAI_RECORD_URL="$(json .recordUrl <"$WORK/openai-double.json")"
pass "OpenAI-compatible double at $OPENAI_URL"

# ---------------------------------------------------------------------------------------------
step "4. n8n user folder, credentials, workflows"
n8n_environment

WRONG_KEY="svc_$(printf '0%.0s' $(seq 1 64))"
node -e '
	const [url, key, wrong, triggerKey, id, name, badId, triggerId, openAiId, openAiUrl] = process.argv.slice(1);
	const credential = (id, name, apiKey) => ({ id, name, type: "contentGenApi", data: { apiKey, baseUrl: url } });
	console.log(JSON.stringify([
		credential(id, name, key),
		credential(badId, "ContentGen wrong key", wrong),
		credential(triggerId, "ContentGen trigger account", triggerKey),
		// n8n'"'"'s OpenAI credential, its Base URL pointed at the scripted double
		{ id: openAiId, name: "OpenAI (local double)", type: "openAiApi", data: { apiKey: "sk-local-double", url: openAiUrl } },
	]));
' "$SANDBOX_URL" "$API_KEY" "$WRONG_KEY" "$TRIGGER_API_KEY" "$CRED_ID" "$CRED_NAME" "$BAD_CRED_ID" "$TRIGGER_CRED_ID" \
	"$OPENAI_CRED_ID" "$OPENAI_URL" >"$WORK/credentials.json"
"$N8N" import:credentials --input="$WORK/credentials.json" >"$WORK/import-credentials.log" 2>&1 ||
	{ tail -n 20 "$WORK/import-credentials.log"; die "n8n import:credentials"; }
rm -f "$WORK/credentials.json"
pass "imported credentials $CRED_ID, $BAD_CRED_ID, $TRIGGER_CRED_ID and $OPENAI_CRED_ID"
# The real key, aimed at plain http on a remote host: the credential test must refuse to send it.
PLAIN_HTTP_URL=http://api.contentgen.invalid
import_credentials "$PLAIN_HTTP_URL" contentgen-plain-http 'ContentGen over plain http' "$API_KEY" ||
	die "n8n import:credentials (plain http)"

# Every workflow to run: the permanent smoke check, then each example, then a broken copy of the smoke
# check that uses the wrong key (the assertions below must catch it).
mkdir -p "$WORK/workflows"
tsx "$REPO/scripts/n8n/prepare-workflows.ts" --out "$WORK/workflows" --bad-credential "$BAD_CRED_ID" \
	--openai-credential "$OPENAI_CRED_ID" \
	"$REPO"/test/n8n/fixtures/*.json $(ls "$REPO"/examples/*.json 2>/dev/null) >"$WORK/index.tsv" ||
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
while IFS=$'\t' read -r id kind name file note; do
	case "$kind" in
	trigger) ;; # activated in n8n start below
	external) skip "\"$name\": not executed, it $note (imported; its ContentGen types are checked below)" ;;
	broken) execute_broken_and_check "$id" "$name" "$file" "$WRONG_KEY" ;;
	*)
		run_since="$(date -u +%FT%T.%3NZ)"
		execute_and_check "$id" "$name" "$file" "$note" "$API_KEY"
		# An agent's run is judged by the model double and the sandbox too: the tools ran with the
		# model's arguments, the article was charged once, the final message came back.
		if [[ "$kind" == agent ]]; then
			if tsx "$REPO/scripts/n8n/check-agent.ts" --stdout "$WORK/run-$id.out" --record-url "$OPENAI_RECORD_URL" \
				--control-url "$CONTROL_URL" --user "$SB_USER" --since "$run_since" >"$WORK/check-agent-$id.log" 2>&1; then
				pass "\"$name\": the agent's tools ran as the model asked"
				sed 's/^/    /' "$WORK/check-agent-$id.log"
			else
				cat "$WORK/check-agent-$id.log"
				fail "\"$name\": agent checks (model record at $OPENAI_RECORD_URL)"
			fi
		fi
		;;
	esac
done <"$WORK/index.tsv"

# ---------------------------------------------------------------------------------------------
step "6. n8n start: credential test and polling trigger"
JAR="$WORK/cookie"

t0=$(date +%s)
start_n8n || die "n8n start did not become ready"
pass "n8n start ready at $N8N_URL ($(($(date +%s) - t0)) s)"
export CONTENTGEN_N8N_OWNER_PASSWORD="Cg-$(node -p 'require("crypto").randomBytes(9).toString("hex")')-A1"
rest setup >/dev/null || die "owner setup"
expected_types='n8n-nodes-contentgen.contentGen n8n-nodes-contentgen.contentGenTool'
[[ "$HAS_TRIGGER" == true ]] && expected_types+=' n8n-nodes-contentgen.contentGenTrigger'
# shellcheck disable=SC2086 # a list of type names
check_served_types $expected_types contentGenApi
check_credential_tests "$CRED_ID" "$CRED_NAME" "$BAD_CRED_ID" "$WRONG_KEY"
if verdict="$(rest test-credential --id contentgen-plain-http 2>&1)"; then
	fail "credential test sent the key over plain http to $PLAIN_HTTP_URL: $verdict"
elif [[ "$verdict" == *'"status":"Error"'* && "$verdict" == *'plain http'* && "$verdict" != *"$API_KEY"* ]]; then
	pass "credential test refuses plain http to a remote host before sending the key: $verdict"
else
	fail "credential test of a plain http Base URL: $verdict"
fi

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
		start_n8n || die "n8n start did not become ready after the restart"
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
stop_n8n # the next leg starts its own n8n processes

