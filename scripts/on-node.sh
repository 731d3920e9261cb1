#!/usr/bin/env bash
# Runs a command on Node.js <major> from the npm registry (scripts/registry-node.sh): that Node
# first on PATH, so npm, vitest and the `quire` launcher run on it, and the native modules fitted
# to it (scripts/fit-native.sh) for the command's length, then fitted back to the `node` on PATH
# however the command ends. Nothing else may use this checkout's node_modules meanwhile.
# Usage: bash scripts/on-node.sh 24 npm test
set -euo pipefail
here=$(dirname "$0")
major=${1:?usage: on-node.sh <major version> <command...>}
shift
prefix=$(bash "$here/registry-node.sh" "$major")
home=$(command -v node)
trap 'bash "$here/fit-native.sh" "$home"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
bash "$here/fit-native.sh" "$prefix/bin/node"
echo "== on Node $("$prefix/bin/node" --version) ($prefix)" >&2
PATH="$prefix/bin:$PATH" "$@"
