#!/usr/bin/env bash
# Records OpenTelemetry Java agent exports of the scenarios in otel-java/ against server.mjs.
#   record-otel-java.sh OUTDIR [PORT]
# server.mjs must already listen on 127.0.0.1:PORT and save into OUTDIR/server (as record-all.sh
# starts it).
# RECORD_ONLY=logging or RECORD_ONLY=zipkin records one of the two sets; RECORD_CASES="A B" names
# the logging-otlp scenarios to record (default: all).
# Writes OUTDIR/otel-java-logging/CASE.log (the agent's log with the logging-otlp exporter:
# one ResourceSpans JSON a line after the agent's log prefix) and
# OUTDIR/otel-java-zipkin/CASE.json (Zipkin exporter posting to server.mjs, which saves the body).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
port=${2:-8765}
(cd "$here/otel-java" && mvn -q -B -ntp package)
deps="$here/otel-java/target/deps"
agent=$(ls "$deps"/opentelemetry-javaagent-*.jar)
cp="$here/otel-java/target/classes:$(ls "$deps"/*.jar | grep -v javaagent | paste -sd:)"
mkdir -p "$out/otel-java-logging" "$out/otel-java-zipkin"

common=(-Xshare:off -XX:TieredStopAtLevel=1 -javaagent:"$agent"
  -Drecord.base="http://127.0.0.1:$port"
  -Dotel.service.name=record-clients
  -Dotel.metrics.exporter=none -Dotel.logs.exporter=none -Dotel.bsp.schedule.delay=60000
  -Dotel.resource.disabled.keys=host.name,host.arch,os.description,os.type,os.version,process.pid,process.command_args,process.command_line,process.executable.path,process.runtime.description,process.runtime.name,process.runtime.version,container.id
  -Dotel.instrumentation.http.client.capture-request-headers=idempotency-key,user-agent
  -Dotel.instrumentation.http.client.capture-response-headers=retry-after,date
  -Dio.opentelemetry.javaagent.slf4j.simpleLogger.log.io.opentelemetry.javaagent.tooling.VersionLogger=warn)

logging_case() { # the agent logs each exported ResourceSpans as one JSON line after its log prefix
  local case=$1
  java "${common[@]}" -Dotel.traces.exporter=logging-otlp -cp "$cp" record.Clients "$case" \
    2> "$out/otel-java-logging/$case.log"
}

posts() { # how many bodies server.mjs has saved
  local saved=("$out"/server/zipkin-*.json)
  [ -e "${saved[0]}" ] && echo "${#saved[@]}" || echo 0
}

zipkin_case() { # the agent posts the whole scenario once, at exit; server.mjs saves it
  local case=$1 before after
  before=$(posts)
  java "${common[@]}" -Drecord.suffix=-zipkin -Dotel.traces.exporter=zipkin \
    -Dotel.exporter.zipkin.endpoint="http://127.0.0.1:$port/api/v2/spans" \
    -cp "$cp" record.Clients "$case"
  after=$(posts)
  if [ "$after" -ne $((before + 1)) ]; then
    echo "$case: expected one Zipkin post in $out/server, found $((after - before))" >&2
    exit 1
  fi
  cp "$(ls -t "$out"/server/zipkin-*.json | head -1)" "$out/otel-java-zipkin/$case.json"
}

only=${RECORD_ONLY:-}
all="okhttp-honoured-429-parent okhttp-honoured-429-root okhttp-ignored-503-root
  okhttp-ignored-429-parent okhttp-honoured-503-http-date okhttp-post-timeout-keyless
  okhttp-post-timeout-keyed okhttp-two-threads-root okhttp-builtin-408 apache5-honoured-429 apache5-ignored-503
  jdk-honoured-429 jdk-ignored-503 jdk-post-timeout-keyless jdk-post-timeout-keyed r4j-okhttp-ignored-503
  r4j-okhttp-honoured-429 restclient-honoured-503 restclient-ignored-503 restclient-post-timeout-keyless
  webclient-post-timeout-keyless webclient-ignored-503-root webclient-post-timeout-keyed jdk-post-400-resent"
[ "$only" = zipkin ] || for case in ${RECORD_CASES:-$all}; do
  logging_case "$case"
done
[ "$only" = logging ] || for case in okhttp-ignored-429-parent okhttp-honoured-429-root okhttp-post-timeout-keyless; do
  zipkin_case "$case"
done
