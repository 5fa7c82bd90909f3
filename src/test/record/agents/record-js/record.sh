#!/bin/sh
# Records every JS agent scenario into OUTDIR: starts ../fixture.mjs on PORT (a fresh one, so that each
# scenario's counters start at zero), runs record.mjs, stops the fixture.
#   ./record.sh OUTDIR [PORT] [PRODUCER[/CASE]...]
# Writes OUTDIR/PRODUCER/CASE.json (the exports) and OUTDIR/fixture/fixture-log.jsonl with
# OUTDIR/fixture/by-scenario/PRODUCER-CASE.jsonl (the wire truth of each scenario).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
port=${2:-8790}
[ $# -ge 2 ] && shift 2 || shift 1
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund
node ../fixture.mjs "$port" "$out/fixture" > "$out/fixture.out" 2>&1 &
fixture=$!
trap 'kill $fixture' EXIT
sleep 1
node record.mjs "$out" "$port" "$@"
