#!/usr/bin/env bash
# The nodes in n8n's editor, used as a user would: installs the packed package as a community package
# into a throwaway n8n 2.41.1, starts the local sandbox as the service, signs in with headless
# Chromium and drives the editor (scripts/editor/editor.ts has the checks).
#
#   npm run test:editor                       (or: bash scripts/editor/test-editor.sh)
#   npm run test:editor -- --update-screenshots   also writes the screenshots into docs/images/
#
# Environment:
#   CONTENTGEN_CHROMIUM            browser binary (default: chromium on PATH, e.g. Debian's /usr/bin/chromium)
#   CONTENTGEN_N8N_CACHE           n8n install folder (default ~/.cache/n8n-nodes-contentgen/n8n-2.41.1)
#   CONTENTGEN_N8N_SKIP_BUILD=1    use the existing dist/ instead of `npm run build`
#   CONTENTGEN_N8N_KEEP=1          keep the work folder (logs, screenshots, n8n user folder)
# Every check prints a PASS or FAIL line and the last line is `editor: N passed, N failed`. On failure
# the work folder is kept with a screenshot and the page text of the failing step; every process
# started here is stopped on exit.
set -Eeuo pipefail

N8N_VERSION=2.41.1
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../n8n/lib.sh
source "$REPO/scripts/n8n/lib.sh"
CACHE="${CONTENTGEN_N8N_CACHE:-$HOME/.cache/n8n-nodes-contentgen/n8n-$N8N_VERSION}"
UPDATE_SCREENSHOTS=""
for arg in "$@"; do
	case "$arg" in
	--update-screenshots) UPDATE_SCREENSHOTS=1 ;;
	*) echo "unknown argument $arg" >&2; exit 2 ;;
	esac
done
die() { fail "$*"; summary editor; exit 1; }

use_node 24
WORK="$(mktemp -d "${TMPDIR:-/tmp}/contentgen-editor.XXXXXX")"
lib_init

CHROMIUM="${CONTENTGEN_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[[ -x "$CHROMIUM" ]] || die "no Chromium: install Debian's package (apt-get install chromium) or set CONTENTGEN_CHROMIUM"
echo "n8n-nodes-contentgen in n8n $N8N_VERSION's editor, $("$CHROMIUM" --version 2>/dev/null | head -n1), Node $(node --version); work folder $WORK"

bash "$REPO/scripts/n8n/install.sh" "$CACHE" >"$WORK/install.log" 2>&1 || { tail -n 20 "$WORK/install.log"; die "n8n install into $CACHE"; }
N8N="$CACHE/node_modules/.bin/n8n"

bash "$REPO/scripts/n8n/install-package.sh" "$WORK/package" "$WORK/home" >"$WORK/install-package.log" 2>&1 ||
	{ tail -n 30 "$WORK/install-package.log"; die "build, pack and install with the README's commands"; }
pass "$(tail -n1 "$WORK/install-package.log")"

# A high speed lets an article finish within seconds while the editor waits for it.
start_sandbox SB --speed "${CONTENTGEN_EDITOR_SANDBOX_SPEED:-2000}" || die "sandbox did not start"

n8n_environment "$WORK/home"
t0=$(date +%s)
start_n8n || die "n8n start did not become ready"
export CONTENTGEN_N8N_OWNER_PASSWORD="Cg-$(node -p 'require("crypto").randomBytes(9).toString("hex")')-A1"
owner="$(rest setup)" || die "owner setup"
pass "n8n start ready at $N8N_URL ($(($(date +%s) - t0)) s), owner created"

set +e
CONTENTGEN_EDITOR_N8N_URL="$N8N_URL" CONTENTGEN_EDITOR_OWNER_EMAIL="$(json .owner <<<"$owner")" \
	CONTENTGEN_EDITOR_SANDBOX="$SB_OUT" CONTENTGEN_EDITOR_WORK="$WORK" CONTENTGEN_CHROMIUM="$CHROMIUM" \
	CONTENTGEN_EDITOR_IMAGES="${UPDATE_SCREENSHOTS:+$REPO/docs/images}" \
	tsx "$REPO/scripts/editor/editor.ts" 2>&1 | tee "$WORK/editor.log"
browser_status=${PIPESTATUS[0]}
set -e
passes=$((passes + $(grep -c '^PASS ' "$WORK/editor.log" || true)))
failures=$((failures + $(grep -c '^FAIL ' "$WORK/editor.log" || true)))
((browser_status == 0)) || grep -q '^FAIL ' "$WORK/editor.log" || fail "the browser run ended with status $browser_status"

if grep -qF "$SB_API_KEY" "$WORK/n8n-start.log" "$WORK/editor.log"; then fail "the API key appears in n8n's log or the suite's output"; else pass "the API key appears in neither n8n's log nor the suite's output"; fi

summary editor
exit $((failures == 0 ? 0 : 1))
