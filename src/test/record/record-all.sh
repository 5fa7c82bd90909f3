#!/usr/bin/env bash
# Records every export of the corpus: starts server.mjs on 127.0.0.1:PORT, runs each recorder,
# stops the server. Needs java 17, mvn, node 20, and (for the HAR) Debian's chromium.
#   record-all.sh OUTDIR [PORT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
port=${2:-8765}
node "$here/server.mjs" "$port" "$out/server" > "$out/server.out" 2>&1 &
server=$!
trap 'kill "$server"' EXIT
sleep 1
"$here/record-otel-java.sh" "$out" "$port"
"$here/record-grpc-java.sh" "$out" "$port"
(cd "$here/otel-js" && npm ci --no-audit --no-fund --silent && node record.mjs "$out" "$port")
(cd "$here/otel-js" && node har.mjs "$out" "$port")
