#!/usr/bin/env bash
# One-time setup on Debian/Ubuntu: the system packages the native modules
# (better-sqlite3, keytar), the keychain, the browser tests and the exFAT test
# need (the same list as .ci/run), then npm.
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -qq
as_root apt-get install -y -qq --no-install-recommends build-essential python3 pkg-config \
  libsecret-1-dev libsecret-1-0 gnome-keyring dbus dbus-x11 chromium fonts-noto-color-emoji exfat-fuse exfatprogs >/dev/null
# Native modules build against the installed Node's headers where it has them (as in CI), not
# headers downloaded from nodejs.org. Electron's and Playwright's own binaries are not needed
# to run or test Quire here.
if [ -f "$(dirname "$(dirname "$(command -v node)")")/include/node/node.h" ]; then
  export npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")"
fi
ELECTRON_SKIP_BINARY_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund
