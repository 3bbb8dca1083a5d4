#!/usr/bin/env bash
# Proves the packed package inside a real n8n: installs n8n once into a cache folder, loads our
# tarball as a community package, then runs the legs:
#   single  (scripts/n8n/leg-single.sh) one n8n process against the local sandbox: the smoke and
#           example workflows with `n8n execute` (the AI-agent example against a scripted
#           OpenAI-compatible double), the credential test and the polling trigger in `n8n start`
#   queue   (scripts/n8n/leg-queue.sh) queue mode: Redis, n8n main and two workers, each loading the
#           package from its own user folder; webhook and trigger executions on the workers, exactly
#           once across a worker restart, a worker killed mid-wait, the trigger under a 429, and the
#           shared-budget benchmark (scripts/n8n/queue-bench.ts)
#
#   npm run test:n8n                 (or: bash scripts/test-n8n.sh)
#
# Environment:
#   CONTENTGEN_N8N_CACHE   n8n install folder (default ~/.cache/n8n-nodes-contentgen/n8n-<version>)
# The n8n version is test/n8n/versions.json's latest2.
#   CONTENTGEN_N8N_LEGS    legs to run, in order (default "single queue")
#   CONTENTGEN_N8N_KEEP=1  keep the temporary folder (logs, n8n user folders) for debugging
#   CONTENTGEN_N8N_SKIP_BUILD=1      use the existing dist/ instead of `npm run build`
#   CONTENTGEN_N8N_SKIP_TRIGGER=1    skip the polling-trigger part of the single leg (about a minute)
#   CONTENTGEN_N8N_SKIP_RESTART=1    skip the restart check of the trigger (about 30 s)
#   CONTENTGEN_N8N_SKIP_BENCH=1      skip the benchmark of the queue leg (about 3 minutes)
#   CONTENTGEN_BENCH_WRITE=1         write the benchmark table into BENCHMARKS.md
#   CONTENTGEN_N8N_QUEUE_BARE_WORKER=1  start the second worker without the package (the leg must fail)
# Nothing here is interactive (CI=true or not); every failure prints a FAIL line, the exit code is
# non-zero, and background processes are stopped on exit. On failure the work folder is kept.
set -Eeuo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N8N_VERSION="$(node -p 'require(process.argv[1]).latest2.version' "$REPO/test/n8n/versions.json")"
CACHE="${CONTENTGEN_N8N_CACHE:-$HOME/.cache/n8n-nodes-contentgen/n8n-$N8N_VERSION}"
LEGS="${CONTENTGEN_N8N_LEGS:-single queue}"

# shellcheck source=n8n/lib.sh
source "$REPO/scripts/n8n/lib.sh"
use_node 24
WORK="$(mktemp -d "${TMPDIR:-/tmp}/contentgen-n8n.XXXXXX")"
lib_init

echo "n8n-nodes-contentgen in n8n $N8N_VERSION on Node $(node --version); work folder $WORK"

# ---------------------------------------------------------------------------------------------
step "1. n8n $N8N_VERSION in $CACHE"
install_started=$(date +%s)
bash "$REPO/scripts/n8n/install.sh" "$CACHE" || die "n8n install into $CACHE"
N8N="$CACHE/node_modules/.bin/n8n"
[[ "$("$N8N" --version 2>/dev/null | tail -n1)" == "$N8N_VERSION" ]] || die "n8n --version is not $N8N_VERSION"
pass "n8n $N8N_VERSION installed ($(($(date +%s) - install_started)) s)"

# ---------------------------------------------------------------------------------------------
step "2. build, pack and install the package as a community package, as the README says"
export N8N_USER_FOLDER="$WORK/home"
bash "$REPO/scripts/n8n/install-package.sh" "$WORK/package" "$N8N_USER_FOLDER" >"$WORK/install-package.log" 2>&1 ||
	{ tail -n 30 "$WORK/install-package.log"; die "build, pack and install with the README's commands"; }
pass "$(tail -n1 "$WORK/install-package.log")"
cd "$REPO"
HAS_TRIGGER=$(node -p 'JSON.stringify(require("./package.json").n8n.nodes).includes("ContentGenTrigger")')

for leg in $LEGS; do
	[[ -f "$REPO/scripts/n8n/leg-$leg.sh" ]] || die "no leg \"$leg\" (scripts/n8n/leg-$leg.sh)"
	# shellcheck source=/dev/null
	source "$REPO/scripts/n8n/leg-$leg.sh"
done

summary
exit $((failures == 0 ? 0 : 1))
