#!/usr/bin/env bash
# Records grpc-java exports of the scenarios in grpc-java/ (client and server in one JVM, Netty on
# 127.0.0.1, an ephemeral port): under the OpenTelemetry Java agent's gRPC instrumentation, and with
# grpc-java's own tracing (grpc-opentelemetry, gRFC A72) and the OpenTelemetry SDK without the agent.
#   record-grpc-java.sh OUTDIR
# RECORD_ONLY=agent or RECORD_ONLY=a72 records one of the two sets; RECORD_CASES="A B" names the
# scenarios (default: all).
# Writes OUTDIR/otel-java-grpc/CASE.log (the agent's log with the logging-otlp exporter),
# OUTDIR/grpc-otel/CASE.jsonl (the SDK's experimental-otlp/stdout exporter: one
# ExportTraceServiceRequest a line) and OUTDIR/grpc-wire/{agent,a72}-CASE.jsonl (what the server
# received and answered, one call a line).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
(cd "$here/grpc-java" && mvn -q -B -ntp package)
deps="$here/grpc-java/target/deps"
agent=$(ls "$deps"/opentelemetry-javaagent-*.jar)
cp="$here/grpc-java/target/classes:$(ls "$deps"/*.jar | grep -v javaagent | paste -sd:)"
mkdir -p "$out/otel-java-grpc" "$out/grpc-otel" "$out/grpc-wire"

common=(-Xshare:off -XX:TieredStopAtLevel=1
  -Dotel.service.name=record-grpc
  -Dotel.metrics.exporter=none -Dotel.logs.exporter=none -Dotel.bsp.schedule.delay=60000)

agent_case() { # the agent logs each exported ResourceSpans as one JSON line after its log prefix
  local case=$1
  rm -f "$out/grpc-wire/agent-$case.jsonl"
  java "${common[@]}" -javaagent:"$agent" -Drecord.mode=agent -Drecord.wire="$out/grpc-wire/agent-$case.jsonl" \
    -Dotel.traces.exporter=logging-otlp \
    -Dotel.resource.disabled.keys=host.name,host.arch,os.description,os.type,os.version,process.pid,process.command_args,process.command_line,process.executable.path,process.runtime.description,process.runtime.name,process.runtime.version,container.id \
    -Dotel.instrumentation.grpc.client.request-metadata.included=idempotency-key \
    -Dotel.instrumentation.grpc.server.request-metadata.included=idempotency-key,grpc-previous-rpc-attempts,user-agent \
    -Dio.opentelemetry.javaagent.slf4j.simpleLogger.log.io.opentelemetry.javaagent.tooling.VersionLogger=warn \
    -cp "$cp" record.Grpc "$case" > "$out/otel-java-grpc/$case.out" 2> "$out/otel-java-grpc/$case.log"
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
[ "$only" = a72 ] || for case in ${RECORD_CASES:-$all}; do
  agent_case "$case"
done
[ "$only" = agent ] || for case in ${RECORD_CASES:-$all}; do
  a72_case "$case"
done
