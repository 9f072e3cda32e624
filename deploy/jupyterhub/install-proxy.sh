#!/usr/bin/env bash
# Install configurable-http-proxy (npm), which JupyterHub needs in front of the hub and the
# students' servers, into a folder of its own: $NESSUS_CHP_PREFIX (default ~/.cache/nessus/chp).
# Prints the binary's path; does nothing but print it when it is already there.
set -euo pipefail
prefix="${NESSUS_CHP_PREFIX:-$HOME/.cache/nessus/chp}"
bin="$prefix/node_modules/.bin/configurable-http-proxy"
if [ ! -x "$bin" ]; then
  command -v npm >/dev/null || { echo "install-proxy: npm not found (apt-get install npm)" >&2; exit 3; }
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error configurable-http-proxy@^5 >&2
fi
echo "$bin"
