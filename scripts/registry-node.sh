#!/usr/bin/env bash
# Prints the folder of Node.js <major> from the npm registry: bin/node and include/node (the
# headers native modules build against), from the official build the `node` package installs
# (node-<os>-<arch>; ~30 MB, fetched by npx into npm's cache on first use).
# Usage: bash scripts/registry-node.sh 24
set -euo pipefail
major=${1:?usage: registry-node.sh <major version>}
platform=$(node -p '`${process.platform}-${process.arch}`')
npx --yes --package "node-$platform@$major" -- \
  node -p 'require("node:path").resolve(require("node:fs").realpathSync(process.execPath), "../..")'
