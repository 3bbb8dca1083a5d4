#!/usr/bin/env bash
# Builds the package tarball of an earlier commit, as the update leg installs it before updating
# to the current build (test/n8n/update.leg.ts). The tarball is committed under test/n8n/fixtures/
# so that CI never needs the repository's history (a clone may be shallow); this script is how
# anyone rebuilds it from the commit and checks it is what the commit builds.
#
#   scripts/n8n/build-old-tarball.sh [commit] [--check]
#
# commit   default: the commit the committed fixture names (n8n-nodes-contentgen-<version>-<commit>.tgz,
#          the only one in test/n8n/fixtures/). Given a commit without --check, the new tarball
#          replaces the committed one: the leg installs whichever is there.
# --check  rebuild and compare with the committed fixture instead of writing it: every file of
#          the two tarballs is compared (npm pack is byte-reproducible with the same npm; another
#          npm may compress differently, which is not a difference)
# Needs Node 22 or newer and the history of the commit (git fetch --unshallow on a shallow clone).
# When the commit's package-lock.json is this checkout's, its node_modules are used instead of an
# npm ci.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FIXTURES="$REPO/test/n8n/fixtures"
shopt -s nullglob
fixtures=("$FIXTURES"/n8n-nodes-contentgen-*-*.tgz)
COMMIT=""
if ((${#fixtures[@]} == 1)); then
	COMMIT="$(basename "${fixtures[0]}" .tgz)"
	COMMIT="${COMMIT##*-}"
fi
CHECK=""
for arg in "$@"; do
	case "$arg" in
	--check) CHECK=1 ;;
	*) COMMIT="$arg" ;;
	esac
done
[[ -n "$COMMIT" ]] || { echo "name the commit: no single fixture in $FIXTURES names one" >&2; exit 1; }
SHORT="$(git -C "$REPO" rev-parse --short=7 "$COMMIT^{commit}")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "== the tree of $SHORT into $work"
git -C "$REPO" archive "$SHORT" | tar -x -C "$work/"
cd "$work"
VERSION="$(node -p 'require("./package.json").version')"
NAME="n8n-nodes-contentgen-$VERSION-$SHORT.tgz"
echo "== install, build and pack ($VERSION at $SHORT)"
if cmp -s package-lock.json "$REPO/package-lock.json" && [[ -d "$REPO/node_modules" ]]; then
	ln -s "$REPO/node_modules" node_modules
else
	npm_config_yes=true npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi
npm run build >build.log 2>&1 || { tail -n 30 build.log >&2; exit 1; }
npm pack --silent >/dev/null
mv "n8n-nodes-contentgen-$VERSION.tgz" "$work/$NAME"

if [[ -z "$CHECK" ]]; then
	mkdir -p "$FIXTURES"
	for old in "${fixtures[@]}"; do [[ "$old" == "$FIXTURES/$NAME" ]] || rm -f "$old"; done
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
