#!/usr/bin/env bash
# `npm install` or `npm ci` (the arguments) with no engine warnings, the native modules built for
# the `node` on PATH: the Node that runs Quire and its tests.
# Electron 45's tooling declares Node >= 22.12, so on an older Node npm itself runs on Node 24
# from the npm registry (scripts/registry-node.sh). The native modules still build against the
# headers of the Node on PATH (where it has them; not headers downloaded from nodejs.org), never
# the installing Node's: node-gyp takes the Node-API version a module declares from the headers'
# config.gypi, and Node 20 (Node-API 9) crashes as it loads a keytar built with Node 24's
# (Node-API 10). scripts/fit-native.sh then checks that each loads here, and builds again on this
# Node the one that does not. Electron's and Playwright's own binaries are not needed to build,
# run or test Quire here.
# Usage: bash scripts/npm-install.sh ci
set -euo pipefail
here=$(dirname "$0")
export ELECTRON_SKIP_BINARY_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
prefix=$(node -p 'require("node:path").resolve(require("node:fs").realpathSync(process.execPath), "../..")')
if [ -f "$prefix/include/node/node.h" ]; then export npm_config_nodedir=$prefix; fi
(
  if ! node -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 22 || (major === 22 && minor >= 12) ? 0 : 1)'; then
    echo "== npm $1 on Node 24 from the npm registry (Electron's tooling wants 22.12 or later), native modules for Node $(node --version)" >&2
    PATH="$(bash "$here/registry-node.sh" 24)/bin:$PATH"
  fi
  npm "$@" --no-audit --no-fund
)
bash "$here/fit-native.sh"
