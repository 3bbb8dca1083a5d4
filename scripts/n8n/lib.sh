# Shell helpers for suites that run the packed package inside a real n8n. Source it from bash:
#   source "$REPO/scripts/n8n/lib.sh"
# It sets nothing up by itself; each function says what it needs.

N8N_VERSION=2.41.1

# Puts Node 24 first on PATH (n8n 2.x refuses older Node); never relies on the caller's shell setup.
ensure_node24() {
	local major
	major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	if ((major < 24)); then
		local dir
		dir="$(npx -y -p node@24 -- node -p 'require("path").dirname(process.execPath)' 2>/dev/null | tail -n1)"
		[[ -x "$dir/node" ]] || { echo "FAIL could not obtain Node 24 through npx"; return 1; }
		export PATH="$dir:$PATH"
	fi
	export npm_config_yes=true npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
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

# json <path>: prints a field of the JSON on stdin, e.g. `json .data.id <file`
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);const r=eval("v"+process.argv[1]);console.log(typeof r==="object"?JSON.stringify(r):r)})' "$1"; }

# Background services, each in its own process group so that stopping one stops its children.
BG_PIDS=()
# bg_start <stdout file> <stderr file> <command...>: starts it, sets BG_PID
bg_start() {
	local out=$1 err=$2
	shift 2
	setsid "$@" >>"$out" 2>>"$err" &
	BG_PID=$!
	BG_PIDS+=("$BG_PID")
}
# bg_stop <pid>: TERM to the group, KILL after 20 s
bg_stop() {
	kill -TERM -- "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null || true
	for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
	kill -KILL -- "-$1" 2>/dev/null || true
}
bg_stop_all() {
	local pid
	for pid in "${BG_PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true; done
	for pid in "${BG_PIDS[@]}"; do bg_stop "$pid"; done
}

# pack_and_install <repo> <work dir> <n8n user folder> [skip build]: builds (unless told not to),
# packs the package and installs the tarball where n8n looks for community packages
# (<user folder>/.n8n/nodes). Prints the tarball's path. Logs go to <work dir>/{build,pack}.log.
pack_and_install() {
	local repo=$1 work=$2 user_folder=$3 skip_build=${4:-}
	if [[ -z "$skip_build" ]]; then
		(cd "$repo" && npm run build) >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; return 1; }
	fi
	local tarball
	tarball="$(cd "$repo" && npm pack --silent --pack-destination "$work" 2>"$work/pack.log" | tail -n1)"
	[[ -f "$work/$tarball" ]] || { cat "$work/pack.log" >&2; return 1; }
	local pkg_dir="$user_folder/.n8n/nodes/node_modules/n8n-nodes-contentgen"
	mkdir -p "$pkg_dir"
	tar -xzf "$work/$tarball" -C "$pkg_dir" --strip-components=1
	# n8n resolves the peer dependency n8n-workflow from its own installation.
	echo '{"name":"installed-nodes","private":true,"dependencies":{"n8n-nodes-contentgen":"file:'"$work/$tarball"'"}}' \
		>"$user_folder/.n8n/nodes/package.json"
	echo "$work/$tarball"
}

# n8n_env <user folder>: exports what a throwaway, quiet, loopback-only `n8n start` needs, on free
# ports; sets N8N_URL.
n8n_env() {
	export N8N_USER_FOLDER="$1"
	export N8N_ENCRYPTION_KEY="contentgen-n8n-test-$(date +%s)"
	export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false
	export N8N_PERSONALIZATION_ENABLED=false N8N_HIRING_BANNER_ENABLED=false N8N_SECURE_COOKIE=false
	export N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 N8N_PORT="$(free_port)"
	export N8N_RUNNERS_BROKER_PORT="$(free_port)" QUEUE_HEALTH_CHECK_PORT="$(free_port)"
	export N8N_REINSTALL_MISSING_PACKAGES=false N8N_COMMUNITY_PACKAGES_ENABLED=true
	export N8N_LOG_LEVEL="${N8N_LOG_LEVEL:-info}" N8N_LOG_OUTPUT=console N8N_LOG_FORMAT=text
	export GENERIC_TIMEZONE=UTC TZ=UTC
	N8N_URL="http://127.0.0.1:$N8N_PORT"
}
