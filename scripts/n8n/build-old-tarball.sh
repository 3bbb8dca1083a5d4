#!/usr/bin/env bash
# Builds the package tarball of an earlier commit, as the update leg installs it before updating
# to the current build (test/n8n/update.leg.ts). The tarball is committed under test/n8n/fixtures/
# so that CI never needs the repository's history (a clone may be shallow); this script is how
# anyone rebuilds it from the commit and checks it is what the commit builds.
#
#   scripts/n8n/build-old-tarball.sh [commit] [--check]
#
# commit   default fece5e5 (trigger state format 1, package version 0.1.0)
# --check  rebuild and compare with the committed fixture instead of writing it: every file of
#          the two tarballs is compared (npm pack is byte-reproducible with the same npm; another
#          npm may compress differently, which is not a difference)
# Needs Node 22 or newer and the history of the commit (git fetch --unshallow on a shallow clone).
# The tarball is named n8n-nodes-contentgen-<version>-<commit>.tgz.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
COMMIT=fece5e5
CHECK=""
for arg in "$@"; do
	case "$arg" in
	--check) CHECK=1 ;;
	*) COMMIT="$arg" ;;
	esac
done
SHORT="$(git -C "$REPO" rev-parse --short=7 "$COMMIT^{commit}")"
FIXTURES="$REPO/test/n8n/fixtures"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "== the tree of $SHORT into $work"
git -C "$REPO" archive "$SHORT" | tar -x -C "$work/"
cd "$work"
VERSION="$(node -p 'require("./package.json").version')"
NAME="n8n-nodes-contentgen-$VERSION-$SHORT.tgz"
echo "== npm ci, build and pack ($VERSION at $SHORT)"
npm_config_yes=true npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
npm run build >build.log 2>&1 || { tail -n 30 build.log >&2; exit 1; }
npm pack --silent >/dev/null
mv "n8n-nodes-contentgen-$VERSION.tgz" "$work/$NAME"

if [[ -z "$CHECK" ]]; then
	mkdir -p "$FIXTURES"
	cp "$work/$NAME" "$FIXTURES/$NAME"
	echo "wrote $FIXTURES/$NAME ($(wc -c <"$FIXTURES/$NAME") bytes, sha1 $(sha1sum "$FIXTURES/$NAME" | cut -c1-40))"
	exit 0
fi

committed="$FIXTURES/$NAME"
[[ -f "$committed" ]] || { echo "no committed fixture $committed" >&2; exit 1; }
if cmp -s "$committed" "$work/$NAME"; then
	echo "OK: $NAME rebuilt from $SHORT is byte-identical to the committed fixture"
	exit 0
fi
mkdir "$work/a" "$work/b"
tar -xzf "$committed" -C "$work/a"
tar -xzf "$work/$NAME" -C "$work/b"
if diff -r "$work/a" "$work/b"; then
	echo "OK: $NAME rebuilt from $SHORT holds the same files as the committed fixture (compressed differently)"
else
	echo "DIFFERENT: the committed $NAME is not what $SHORT builds" >&2
	exit 1
fi
