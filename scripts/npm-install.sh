#!/usr/bin/env bash
# `npm install` or `npm ci` (the arguments) on a Node every dependency supports, with the native
# modules built for the `node` on PATH. Electron 45's tooling and katex's command line declare
# Node >= 22.12: on an older Node, npm runs on Node 24 from the npm registry
# (scripts/registry-node.sh), and the native modules are then rebuilt for this one
# (scripts/fit-native.sh). Native modules build against the installing Node's own headers where
# it has them, not headers downloaded from nodejs.org. Electron's and Playwright's own binaries
# are not needed to build, run or test Quire here.
# Usage: bash scripts/npm-install.sh ci
set -euo pipefail
here=$(dirname "$0")
export ELECTRON_SKIP_BINARY_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
(
  if ! node -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 22 || (major === 22 && minor >= 12) ? 0 : 1)'; then
    echo "== npm $1 on Node 24 from the npm registry: some dependencies do not support Node $(node --version)" >&2
    PATH="$(bash "$here/registry-node.sh" 24)/bin:$PATH"
  fi
  installer=$(node -p 'require("node:path").resolve(require("node:fs").realpathSync(process.execPath), "../..")')
  if [ -f "$installer/include/node/node.h" ]; then export npm_config_nodedir=$installer; fi
  npm "$@" --no-audit --no-fund
)
bash "$here/fit-native.sh"
