#!/usr/bin/env bash
# Proves the packed package in the n8n 1.x line: installs its pinned release (Node 22) once into its own
# cache folder, installs the package with the README's commands, imports a credential pointing at
# the local sandbox, runs the credits smoke workflow (and its wrong-key copy, which must fail with
# an actionable message) and the content-pipeline example (generate with Wait for Completion,
# publish, credits) with `n8n execute`, then in `n8n start` checks the node types n8n serves and
# tests the credential the way the editor does.
#
#   npm run test:n8n:1x              (or: bash scripts/n8n/leg-1x.sh)
#
# Environment:
#   CONTENTGEN_N8N_1X_CACHE   n8n install folder (default ~/.cache/n8n-nodes-contentgen/n8n-<version>)
#   CONTENTGEN_N8N_KEEP=1     keep the temporary folder (logs, n8n user folder) for debugging
#   CONTENTGEN_N8N_SKIP_BUILD=1   pack the existing dist/ instead of building first
set -Eeuo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The maintained 1.x line, pinned in test/n8n/versions.json (line1). On Node 20 its isolated-vm has
# no prebuilt binary, so it runs on Node 22 (the lowest Node the package declares). n8n 1.x names a
# tarball outside the npm registry for xlsx; the pinned overrides take the same version from it.
line1() { node -p 'const v = require(process.argv[1]).line1[process.argv[2]]; typeof v === "object" ? JSON.stringify(v) : v' "$REPO/test/n8n/versions.json" "$1"; }
N8N_VERSION="$(line1 version)"
NODE_MAJOR="$(line1 node)"
N8N_EXTRA_OVERRIDES="$(line1 overrides)"
CACHE="${CONTENTGEN_N8N_1X_CACHE:-$HOME/.cache/n8n-nodes-contentgen/n8n-$N8N_VERSION}"
CRED_ID=contentgen-sandbox
CRED_NAME='ContentGen account'
BAD_CRED_ID=contentgen-wrong-key
WRONG_KEY="svc_$(printf '0%.0s' $(seq 1 64))"
TITLE="n8n $N8N_VERSION (1.x) smoke"

# shellcheck source=scripts/n8n/lib.sh
source "$REPO/scripts/n8n/lib.sh"
die() { fail "$*"; summary "$TITLE"; exit 1; }
use_node "$NODE_MAJOR"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/contentgen-n8n1.XXXXXX")"
lib_init
echo "n8n-nodes-contentgen in n8n $N8N_VERSION on Node $(node --version); work folder $WORK"

# ---------------------------------------------------------------------------------------------
step "1. n8n $N8N_VERSION in $CACHE"
t0=$(date +%s)
N8N_VERSION="$N8N_VERSION" N8N_EXTRA_OVERRIDES="$N8N_EXTRA_OVERRIDES" \
	bash "$REPO/scripts/n8n/install.sh" "$CACHE" || die "n8n install into $CACHE"
N8N="$CACHE/node_modules/.bin/n8n"
[[ "$("$N8N" --version 2>/dev/null | tail -n1)" == "$N8N_VERSION" ]] || die "n8n --version is not $N8N_VERSION"
pass "n8n $N8N_VERSION installed ($(($(date +%s) - t0)) s)"

# ---------------------------------------------------------------------------------------------
step "2. build, pack and install the package as a community package, as the README says"
bash "$REPO/scripts/n8n/install-package.sh" "$WORK/package" "$WORK/home" >"$WORK/install-package.log" 2>&1 ||
	{ tail -n 30 "$WORK/install-package.log"; die "build, pack and install with the README's commands"; }
pass "$(tail -n1 "$WORK/install-package.log")"

# ---------------------------------------------------------------------------------------------
step "3. sandbox, credentials, workflows"
start_sandbox SB --speed 1000 || die "sandbox did not start"
SANDBOX_URL=$SB_URL API_KEY=$SB_API_KEY
pass "sandbox at $SANDBOX_URL"
n8n_environment "$WORK/home"
import_credentials "$SANDBOX_URL" "$CRED_ID" "$CRED_NAME" "$API_KEY" \
	"$BAD_CRED_ID" 'ContentGen wrong key' "$WRONG_KEY" || die "n8n import:credentials"
pass "imported credentials $CRED_ID and $BAD_CRED_ID"
mkdir -p "$WORK/workflows"
tsx "$REPO/scripts/n8n/prepare-workflows.ts" --out "$WORK/workflows" --bad-credential "$BAD_CRED_ID" \
	"$REPO/test/n8n/fixtures/smoke-credits.json" "$REPO/examples/content-pipeline.json" >"$WORK/index.tsv" ||
	die "preparing workflows"
"$N8N" import:workflow --separate --input="$WORK/workflows" >"$WORK/import-workflows.log" 2>&1 ||
	{ tail -n 20 "$WORK/import-workflows.log"; die "n8n import:workflow"; }
pass "imported $(grep -c . "$WORK/index.tsv") workflows"

# ---------------------------------------------------------------------------------------------
step "4. execute workflows with n8n execute"
while IFS=$'\t' read -r id kind name file note; do
	case "$kind" in
	manual) execute_and_check "$id" "$name" "$file" "$note" "$API_KEY" ;;
	broken) execute_broken_and_check "$id" "$name" "$file" "$WRONG_KEY" ;;
	esac
done <"$WORK/index.tsv"

# ---------------------------------------------------------------------------------------------
step "5. n8n start: node types and credential test"
t0=$(date +%s)
start_n8n || die "n8n start did not become ready"
pass "n8n start ready at $N8N_URL ($(($(date +%s) - t0)) s)"
export CONTENTGEN_N8N_OWNER_PASSWORD="Cg-$(node -p 'require("crypto").randomBytes(9).toString("hex")')-A1"
rest setup >/dev/null || die "owner setup"
check_served_types n8n-nodes-contentgen.contentGen n8n-nodes-contentgen.contentGenTool \
	n8n-nodes-contentgen.contentGenTrigger contentGenApi
check_credential_tests "$CRED_ID" "$CRED_NAME" "$BAD_CRED_ID" "$WRONG_KEY"
if grep -q "$API_KEY" "$WORK/n8n-start.log" "$WORK"/run-*.err 2>/dev/null; then
	fail "the API key appears in n8n's logs"
else
	pass "the API key never appears in n8n's logs"
fi

summary "$TITLE"
exit $((failures == 0 ? 0 : 1))
