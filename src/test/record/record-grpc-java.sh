#!/usr/bin/env bash
# Records grpc-java exports of the scenarios in grpc-java/ (client and server in one JVM, Netty on
# 127.0.0.1, an ephemeral port): under the OpenTelemetry Java agent's gRPC instrumentation, and with
# grpc-java's own tracing (grpc-opentelemetry, gRFC A72) and the OpenTelemetry SDK without the agent.
#   record-grpc-java.sh OUTDIR [PORT]
# RECORD_ONLY=agent, a72 or zipkin records one of the sets; RECORD_CASES="A B" names the agent and
# a72 scenarios (default: all). The zipkin set (the agent's Zipkin exporter) posts to server.mjs,
# which must already listen on 127.0.0.1:PORT and save into OUTDIR/server (as record-all.sh starts
# it); without PORT it is skipped.
# Writes OUTDIR/otel-java-grpc/CASE.log (the agent's log with the logging-otlp exporter),
# OUTDIR/grpc-otel/CASE.jsonl (the SDK's experimental-otlp/stdout exporter: one
# ExportTraceServiceRequest a line), OUTDIR/otel-java-grpc-zipkin/CASE.json (the Zipkin v2 body that
# server.mjs saved) and OUTDIR/grpc-wire/{agent,a72,zipkin}-CASE.jsonl (what the gRPC server received
# and how it answered).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
port=${2:-}
(cd "$here/grpc-java" && mvn -q -B -ntp package)
deps="$here/grpc-java/target/deps"
agent=$(ls "$deps"/opentelemetry-javaagent-*.jar)
cp="$here/grpc-java/target/classes:$(ls "$deps"/*.jar | grep -v javaagent | paste -sd:)"
mkdir -p "$out/otel-java-grpc" "$out/grpc-otel" "$out/otel-java-grpc-zipkin" "$out/grpc-wire"
agent_options=(-javaagent:"$agent" -Drecord.mode=agent
  -Dotel.resource.disabled.keys=host.name,host.arch,os.description,os.type,os.version,process.pid,process.command_args,process.command_line,process.executable.path,process.runtime.description,process.runtime.name,process.runtime.version,container.id
  -Dotel.instrumentation.grpc.client.request-metadata.included=idempotency-key
  -Dotel.instrumentation.grpc.server.request-metadata.included=idempotency-key,grpc-previous-rpc-attempts,user-agent
  -Dio.opentelemetry.javaagent.slf4j.simpleLogger.log.io.opentelemetry.javaagent.tooling.VersionLogger=warn)

common=(-Xshare:off -XX:TieredStopAtLevel=1
  -Dotel.service.name=record-grpc
  -Dotel.metrics.exporter=none -Dotel.logs.exporter=none -Dotel.bsp.schedule.delay=60000)

agent_case() { # the agent logs each exported ResourceSpans as one JSON line after its log prefix
  local case=$1
  rm -f "$out/grpc-wire/agent-$case.jsonl"
  java "${common[@]}" "${agent_options[@]}" -Drecord.wire="$out/grpc-wire/agent-$case.jsonl" \
    -Dotel.traces.exporter=logging-otlp \
    -cp "$cp" record.Grpc "$case" > "$out/otel-java-grpc/$case.out" 2> "$out/otel-java-grpc/$case.log"
}

posts() { # how many bodies server.mjs has saved
  local saved=("$out"/server/zipkin-*.json)
  [ -e "${saved[0]}" ] && echo "${#saved[@]}" || echo 0
}

zipkin_case() { # the agent posts the whole scenario once, at exit; server.mjs saves it
  local case=$1 before after
  rm -f "$out/grpc-wire/zipkin-$case.jsonl"
  before=$(posts)
  java "${common[@]}" "${agent_options[@]}" -Drecord.wire="$out/grpc-wire/zipkin-$case.jsonl" \
    -Dotel.traces.exporter=zipkin -Dotel.exporter.zipkin.endpoint="http://127.0.0.1:$port/api/v2/spans" \
    -cp "$cp" record.Grpc "$case" > "$out/otel-java-grpc-zipkin/$case.out" 2> "$out/otel-java-grpc-zipkin/$case.err"
  after=$(posts)
  if [ "$after" -ne $((before + 1)) ]; then
    echo "$case: expected one Zipkin post in $out/server, found $((after - before))" >&2
    exit 1
  fi
  cp "$(ls -t "$out"/server/zipkin-*.json | head -1)" "$out/otel-java-grpc-zipkin/$case.json"
}

a72_case() { # the SDK's stdout exporter writes the scenario's spans as one line at shutdown
  local case=$1
  rm -f "$out/grpc-wire/a72-$case.jsonl"
  GRPC_EXPERIMENTAL_ENABLE_OTEL_TRACING=true java "${common[@]}" -Drecord.mode=a72 \
    -Drecord.wire="$out/grpc-wire/a72-$case.jsonl" \
    -Dotel.traces.exporter=experimental-otlp/stdout \
    -cp "$cp" record.Grpc "$case" > "$out/grpc-otel/$case.jsonl" 2> "$out/grpc-otel/$case.stderr"
}

only=${RECORD_ONLY:-}
all="unavailable-retried deadline-write-resent deadline-write-resent-keyed invalid-argument-resent
  pushback-honoured pushback-negative-resent clean-single"
[ "$only" = a72 ] || [ "$only" = zipkin ] || for case in ${RECORD_CASES:-$all}; do
  agent_case "$case"
done
[ "$only" = agent ] || [ "$only" = zipkin ] || for case in ${RECORD_CASES:-$all}; do
  a72_case "$case"
done
[ -z "$port" ] || [ "$only" = agent ] || [ "$only" = a72 ] || for case in unavailable-retried deadline-write-resent; do
  zipkin_case "$case"
done
