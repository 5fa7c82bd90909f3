#!/usr/bin/env bash
# Records every LangGraph and MCP scenario: record.sh OUTDIR [PORT]
# Starts the agents' fixture (../fixture.mjs, or $FIXTURE) on 127.0.0.1:PORT (default 8791) with its
# log in OUTDIR/fixture, runs each scenario of record.py in its own Python process (the venv's
# python: $VENV, default /work/venv-record-py, made by install.sh) with LangSmith's OpenTelemetry
# export on, and writes OUTDIR/langgraph-py-langsmith/SCENARIO.json (the OTLP JSON export) and
# OUTDIR/wire/langgraph-py-langsmith-SCENARIO.jsonl (the fixture's log of that run); then some of them
# again with httpx's client spans, into langgraph-py-langsmith-httpx/ (RECORD_HTTPX_CASES). Then each MCP
# scenario: mcp_server.py on PORT+1 and mcp_client.py, each its own process and export,
# OUTDIR/mcp-py/SCENARIO-{client,server}.json and OUTDIR/wire/mcp-py-SCENARIO.jsonl.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
port=${2:-8791}
here=$(cd "$(dirname "$0")" && pwd)
fixture=${FIXTURE:-$here/../fixture.mjs}
python=${VENV:-/work/venv-record-py}/bin/python
scenarios=${RECORD_CASES-"node-retry-timeout-keyless node-retry-503 recall-timeout-keyless recall-timeout-keyed recall-timeout-key-argument recall-503 read-recall-timeout model-429-sdk-retry model-429-with-retry clean"}
httpx_scenarios=${RECORD_HTTPX_CASES-"node-retry-timeout-keyless node-retry-503 recall-timeout-keyless recall-timeout-keyed recall-503 read-recall-timeout clean"}
mcp_scenarios=${RECORD_MCP_CASES-"recall-timeout clean"}
mkdir -p "$out/langgraph-py-langsmith" "$out/langgraph-py-langsmith-httpx" "$out/mcp-py" "$out/wire" "$out/fixture"
node "$fixture" "$port" "$out/fixture" > "$out/fixture/stdout.txt" 2>&1 &
fixture_pid=$!
trap 'kill "$fixture_pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q listening "$out/fixture/stdout.txt" 2>/dev/null && break; sleep 0.1; done
export LANGSMITH_TRACING=true LANGSMITH_OTEL_ENABLED=true LANGSMITH_OTEL_ONLY=true
# langgraph PRODUCER RUN_PREFIX SCENARIO: one scenario in its own process.
langgraph() {
  local producer=$1 prefix=$2 scenario=$3
  local export_file="$out/$producer/$scenario.json"
  rm -f "$export_file"
  # Run outside any git work tree, so that langsmith finds no revision to put in the spans' metadata.
  (cd "$out" && RECORD_RUN_PREFIX=$prefix "$python" "$here/record.py" "$scenario" "http://127.0.0.1:$port" "$export_file") \
    > "$out/$producer-$scenario.stdout.txt" 2>&1
  sleep 3.5 # the held first response is answered (and logged) 3 s after it arrived
  cp "$out/fixture/by-scenario/$prefix$scenario${RECORD_RUN_SUFFIX:-}.jsonl" "$out/wire/$producer-$scenario.jsonl"
  echo "$producer $scenario: $(wc -c < "$export_file") bytes"
}
for scenario in $scenarios; do
  langgraph langgraph-py-langsmith langgraph- "$scenario"
done
# The same graphs with httpx's own client spans beside LangSmith's (the openai SDK sends with httpx2,
# which this instrumentation does not see, so only the tools' sends get spans).
export OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_REQUEST="idempotency-key,user-agent"
export OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_RESPONSE="retry-after,retry-after-ms,date"
for scenario in $httpx_scenarios; do
  RECORD_HTTPX=1 langgraph langgraph-py-langsmith-httpx langgraph-httpx- "$scenario"
done
unset OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_REQUEST OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_RESPONSE

# The MCP scenarios: the fixture's options, then the server and the client.
declare -A mcp_config=(
  [recall-timeout]='{"pay":"hold","hold":3000}'
  [clean]='{}'
)
mcp_port=$((port + 1))
for scenario in $mcp_scenarios; do
  run="mcp-$scenario${RECORD_RUN_SUFFIX:-}"
  curl -sS -o /dev/null -XPOST "http://127.0.0.1:$port/_config/$run" -d "${mcp_config[$scenario]}"
  client_file="$out/mcp-py/$scenario-client.json" server_file="$out/mcp-py/$scenario-server.json"
  rm -f "$client_file" "$server_file"
  (cd "$out" && exec "$python" "$here/mcp_server.py" "$mcp_port" "http://127.0.0.1:$port/s/$run/pay" "$server_file") \
    > "$out/mcp-$scenario.server.txt" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do grep -q 'Uvicorn running' "$out/mcp-$scenario.server.txt" 2>/dev/null && break; sleep 0.1; done
  (cd "$out" && "$python" "$here/mcp_client.py" "http://127.0.0.1:$mcp_port/mcp" "$client_file") > "$out/mcp-$scenario.client.txt" 2>&1
  sleep 3.5 # the held first charge is answered (and logged) 3 s after it arrived
  kill -INT "$server_pid"
  wait "$server_pid" || true # a stopped server exits with KeyboardInterrupt after writing its export
  cp "$out/fixture/by-scenario/$run.jsonl" "$out/wire/mcp-py-$scenario.jsonl"
  echo "mcp $scenario: $(wc -c < "$client_file") + $(wc -c < "$server_file") bytes"
done
