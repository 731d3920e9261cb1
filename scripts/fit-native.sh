#!/usr/bin/env bash
# Makes node_modules' native modules load under a Node (default: the `node` on PATH).
# better-sqlite3 is compiled for one Node ABI (NODE_MODULE_VERSION); keytar uses Node-API, so one
# build serves every Node from the one whose headers it was built with (which set the Node-API
# version it declares) on: keytar built with Node 24's headers crashes Node 20 as it loads.
# Each is checked by loading it in a child process; one that does not load is replaced. The build
# it replaces is kept in node_modules/.cache/quire-native, named by the ABI it was compiled for,
# and a kept build for the ABI wanted is taken back rather than compiled again (a few
# CPU-minutes); otherwise npm rebuilds it on that Node, against that Node's own headers.
# Usage: bash scripts/fit-native.sh [path/to/node]
set -euo pipefail
node=$(readlink -f "$(command -v "${1:-node}")")
cd "$(dirname "$0")/.."
prefix=$(dirname "$(dirname "$node")")
abi=$("$node" -p process.versions.modules)
kept=node_modules/.cache/quire-native

# Whether the addon loads under $node; a crash is a no (and the shell does not report it).
loads() {
  "$node" -e '
    const loading = "process.dlopen({ exports: {} }, process.argv[1])";
    const child = require("node:child_process").spawnSync(process.execPath, ["-e", loading, process.argv[1]], { stdio: "ignore" });
    process.exit(child.status === 0 ? 0 : 1)' "$1"
}

for module in better-sqlite3:build/Release/better_sqlite3.node keytar:build/Release/keytar.node; do
  name=${module%%:*}
  dir=node_modules/$name
  addon=$dir/${module#*:}
  loads "$addon" && continue
  version=$("$node" -p "require('./$dir/package.json').version")
  # A build node-gyp made names its ABI in config.gypi; a downloaded one does not, and is not kept.
  built_for=$(sed -n 's/^ *"node_module_version": \([0-9]*\),$/\1/p' "$dir/build/config.gypi" 2>/dev/null || true)
  if [ -n "$built_for" ]; then
    mkdir -p "$kept" && rm -rf "$kept/$name-$version-abi$built_for"
    mv "$dir/build" "$kept/$name-$version-abi$built_for"
  fi
  rm -rf "$dir/build"
  if [ -d "$kept/$name-$version-abi$abi" ]; then
    mv "$kept/$name-$version-abi$abi" "$dir/build"
  else
    echo "Building $name for Node $("$node" --version) (a few minutes)" >&2
    (
      # npm and node-gyp run on that Node, and build against its headers where it has them.
      if [ "$(readlink -f "$(command -v node)")" != "$node" ]; then PATH="$(dirname "$node"):$PATH"; fi
      if [ -f "$prefix/include/node/node.h" ]; then export npm_config_nodedir=$prefix; fi
      npm rebuild "$name" --no-audit --no-fund >&2
    )
  fi
  loads "$addon" || { echo "$name built for Node $("$node" --version) does not load in it" >&2; exit 1; }
done
