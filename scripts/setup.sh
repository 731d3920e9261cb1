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
# npm on a Node every dependency supports (Node 24 from the npm registry on Node 20), the native
# modules built for this one, as in CI: scripts/npm-install.sh says how.
bash scripts/npm-install.sh install
