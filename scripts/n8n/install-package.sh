#!/usr/bin/env bash
# Builds, packs and installs the package into an n8n user folder by running the README's own
# commands: the code blocks after <!-- install:pack --> and <!-- install:plain --> in README.md. So
# the documented install path is the one every real-n8n test loads the package from.
#
#   scripts/n8n/install-package.sh <tarball folder> <n8n user folder>
#
# The pack block runs in the repository; the install block runs in the tarball folder with HOME set
# to the user folder (the README's ~/.n8n is then <user folder>/.n8n, as for N8N_USER_FOLDER).
# CONTENTGEN_N8N_SKIP_BUILD=1 leaves out the block's `npm run build` line and packs dist as it is.
# CONTENTGEN_N8N_TARBALL=<file> installs that tarball instead of packing this checkout (the update
# leg installs an earlier build, then updates it in place).
# The last line printed says what was installed.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEST="${1:?usage: install-package.sh <tarball folder> <n8n user folder>}"
USER_FOLDER="${2:?usage: install-package.sh <tarball folder> <n8n user folder>}"

# readme_block <marker>: the code of the first fenced block after the line <!-- marker -->
readme_block() {
	awk -v marker="<!-- $1 -->" '
		$0 == marker { found = 1; next }
		found && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }
	' "$REPO/README.md"
}

pack_block="$(readme_block install:pack)"
install_block="$(readme_block install:plain)"
[[ -n "$pack_block" && -n "$install_block" ]] ||
	{ echo "README.md lacks the install:pack or install:plain block" >&2; exit 1; }
if [[ -n "${CONTENTGEN_N8N_SKIP_BUILD:-}" ]]; then
	pack_block="$(grep -v '^npm run build' <<<"$pack_block")"
fi

if [[ -n "${CONTENTGEN_N8N_TARBALL:-}" ]]; then
	tarball="$(basename "$CONTENTGEN_N8N_TARBALL")"
	mkdir -p "$DEST" "$USER_FOLDER"
	# the folder holds one version of it, as the README asks
	rm -f "$DEST"/n8n-nodes-contentgen-*.tgz
	cp "$CONTENTGEN_N8N_TARBALL" "$DEST/"
	expected="$(tar -xzOf "$DEST/$tarball" package/package.json | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).version')"
else
	tarball="$(cd "$REPO" && node -p 'const p = require("./package.json"); `${p.name}-${p.version}.tgz`')"
	rm -f "$REPO/$tarball"
	echo "== README install:pack, in $REPO"
	(cd "$REPO" && bash -e -o pipefail -c "$pack_block")
	[[ -f "$REPO/$tarball" ]] || { echo "the pack block did not write $tarball" >&2; exit 1; }
	mkdir -p "$DEST" "$USER_FOLDER"
	rm -f "$DEST"/n8n-nodes-contentgen-*.tgz
	mv "$REPO/$tarball" "$DEST/"
	expected="$(node -p 'require(process.argv[1]).version' "$REPO/package.json")"
fi

echo "== README install:plain, in $DEST with HOME=$USER_FOLDER"
(cd "$DEST" && HOME="$USER_FOLDER" bash -e -o pipefail -c "$install_block")

nodes="$USER_FOLDER/.n8n/nodes/node_modules"
installed="$(node -p 'require(process.argv[1]).version' "$nodes/n8n-nodes-contentgen/package.json" 2>/dev/null || true)"
[[ "$installed" == "$expected" ]] ||
	{ echo "expected n8n-nodes-contentgen $expected in $nodes, found '${installed:-nothing}'" >&2; exit 1; }
# n8n's own copy of the peer dependency must be the one the nodes load.
[[ ! -e "$nodes/n8n-workflow" ]] || { echo "the install put a second n8n-workflow into $nodes" >&2; exit 1; }
echo "installed $tarball ($(tar -tzf "$DEST/$tarball" | wc -l) files) into $nodes with the README's commands"
