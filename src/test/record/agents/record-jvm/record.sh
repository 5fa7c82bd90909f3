#!/usr/bin/env bash
# Records OpenTelemetry Java agent exports of LangChain4j, AWS SDK for Java v2 (DynamoDB) and
# azure-core scenarios against the agents' recording fixture (../fixture.mjs), one JVM a scenario.
#   record.sh OUTDIR [PORT]
# Starts the fixture on 127.0.0.1:PORT (default 8790; RECORD_FIXTURE=path names another copy of
# fixture.mjs), configures each scenario through its /_config/SCENARIO endpoint, runs the scenario
# and stops the fixture. RECORD_CASES="A B" records some scenarios only.
# Writes OUTDIR/PRODUCER/NAME.log (the JVM's standard error: with the logging-otlp exporter the
# agent logs each exported ResourceSpans as one JSON line after its log prefix), OUTDIR/PRODUCER/NAME.out
# (standard output), OUTDIR/fixture/fixture-log.jsonl and OUTDIR/wire/PRODUCER-NAME.jsonl (the
# fixture's log lines of that scenario), where PRODUCER is langchain4j, aws-sdk-java or
# azure-core-java and NAME the scenario without its first word (langchain4j-charge-clean is
# langchain4j/charge-clean.log).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
port=${2:-8790}
fixture=${RECORD_FIXTURE:-$here/../fixture.mjs}
(cd "$here" && mvn -q -B -ntp package)
deps="$here/target/deps"
agent=$(ls "$deps"/opentelemetry-javaagent-*.jar)
cp="$here/target/classes:$(ls "$deps"/*.jar | grep -v javaagent | paste -sd:)"
mkdir -p "$out/langchain4j" "$out/aws-sdk-java" "$out/azure-core-java" "$out/wire" "$out/fixture"

node "$fixture" "$port" "$out/fixture" > "$out/fixture/stdout.txt" 2>&1 &
fixture_pid=$!
trap 'kill "$fixture_pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  grep -q listening "$out/fixture/stdout.txt" 2>/dev/null && break
  sleep 0.1
done
base="http://127.0.0.1:$port"

common=(-Xshare:off -XX:TieredStopAtLevel=1 -javaagent:"$agent"
  -Drecord.base="$base"
  -Dotel.service.name=record-agents
  -Dotel.traces.exporter=logging-otlp
  -Dotel.metrics.exporter=none -Dotel.logs.exporter=none -Dotel.bsp.schedule.delay=60000
  -Dotel.resource.disabled.keys=host.name,host.arch,os.description,os.type,os.version,process.pid,process.command_args,process.command_line,process.executable.path,process.runtime.description,process.runtime.name,process.runtime.version,container.id
  -Dotel.instrumentation.http.client.capture-request-headers=idempotency-key,user-agent,amz-sdk-invocation-id,amz-sdk-request,x-ms-client-request-id
  -Dotel.instrumentation.http.client.capture-response-headers=retry-after,retry-after-ms,date
  -Dio.opentelemetry.javaagent.slf4j.simpleLogger.log.io.opentelemetry.javaagent.tooling.VersionLogger=warn)

charge='"tool":"chargeCart","args":"{\"cart\":\"c-1\",\"amount\":1200}"'
config() { # the fixture options of a scenario
  case $1 in
    langchain4j-charge-timeout-keyless|langchain4j-charge-timeout-keyed) echo "{$charge,\"pay\":\"hold\",\"hold\":\"3000\"}" ;;
    langchain4j-charge-clean) echo "{$charge}" ;;
    langchain4j-charge-503-recall) echo "{$charge,\"pay\":\"503\",\"ra\":\"2\"}" ;;
    langchain4j-cart-timeout-recall) echo '{"tool":"getCart","args":"{\"cart\":\"c-1\"}","cart":"hold","carthold":"3000"}' ;;
    langchain4j-model-429-retry-after) echo "{$charge,\"model\":\"429\",\"modeln\":\"1\",\"modelra\":\"2\"}" ;;
    aws-updateitem-attempt-timeout-*) echo '{"ddb":"hold","ddbn":"1","ddbhold":"6000","ddbop":"UpdateItem"}' ;;
    aws-putitem-throttled-*) echo '{"ddb":"throttle","ddbn":"2","ddbop":"PutItem"}' ;;
    aws-putitem-clean-*) echo '{}' ;;
    azure-post-reset-keyless) echo '{"az":"reset","azn":"1"}' ;;
    azure-post-503-retry-after) echo '{"az":"503","azn":"1","azra":"2"}' ;;
    azure-post-429-retry-after-ms) echo '{"az":"429","azn":"1","azra":"ms:1500"}' ;;
  esac
}
flags() { # the agent options of a scenario beyond the common ones
  case $1 in
    langchain4j-cart-*) echo "-Dotel.instrumentation.methods.include=record.Tools[chargeCart,getCart]" ;;
    langchain4j-*) echo "-Dotel.instrumentation.methods.include=record.Tools[chargeCart]" ;;
    aws-*-http) echo "-Dotel.instrumentation.aws-sdk.enabled=false" ;;
  esac
}

producer() { # the output directory of a scenario
  case $1 in
    langchain4j-*) echo langchain4j ;;
    aws-*) echo aws-sdk-java ;;
    azure-*) echo azure-core-java ;;
  esac
}

record_case() {
  local case=$1 producer name
  producer=$(producer "$case")
  name=${case#*-}
  curl -sf -XPOST "$base/_config/$case" -d "$(config "$case")" > /dev/null
  # shellcheck disable=SC2046
  java "${common[@]}" $(flags "$case") -cp "$cp" record.Scenarios "$case" \
    > "$out/$producer/$name.out" 2> "$out/$producer/$name.log"
  # A held request is answered (and its outcome logged) after the client gave up: wait for every
  # request line to have its outcome line, at most 10 s.
  local log="$out/fixture/by-scenario/$case.jsonl"
  for _ in $(seq 100); do
    [ "$(grep -c '"event":"request"' "$log")" -eq "$(grep -c '"event":"outcome"' "$log")" ] && break
    sleep 0.1
  done
  cp "$log" "$out/wire/$producer-$name.jsonl"
}

all="langchain4j-charge-timeout-keyless langchain4j-charge-timeout-keyed langchain4j-charge-clean
  langchain4j-charge-503-recall langchain4j-model-429-retry-after langchain4j-cart-timeout-recall
  aws-updateitem-attempt-timeout-http aws-updateitem-attempt-timeout-sdkspan
  aws-putitem-throttled-http aws-putitem-throttled-sdkspan aws-putitem-clean-http
  azure-post-reset-keyless azure-post-503-retry-after azure-post-429-retry-after-ms"
for case in ${RECORD_CASES:-$all}; do
  record_case "$case"
done
