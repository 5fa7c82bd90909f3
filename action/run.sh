#!/usr/bin/env bash
# The steps of the retry-audit GitHub Action (action.yml), in a script so that they can be run and
# tested outside GitHub. Two commands:
#
#   run.sh locate   the jar's version and cache directory, for actions/cache (GITHUB_OUTPUT: version, cache-dir)
#   run.sh audit    builds the jar if the cache holds none, runs the audit, writes the Markdown summary to
#                   GITHUB_STEP_SUMMARY and the outputs to GITHUB_OUTPUT: exit-code, findings, errors,
#                   report-file, sarif-file
#
# Inputs come as INPUT_* variables (INPUT_PATHS, INPUT_FORMAT, INPUT_FAIL_ON, INPUT_POLICY, INPUT_BASELINE,
# INPUT_TOOLS, INPUT_UPLOAD_SARIF), the places as GitHub sets them (GITHUB_ACTION_PATH, RUNNER_TEMP,
# GITHUB_OUTPUT, GITHUB_STEP_SUMMARY). The audit's exit code is the step's verdict; `audit` itself exits 0
# once it has written its outputs, and action.yml fails the job by that code after the SARIF upload.
set -euo pipefail

action_path=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}
temp=${RUNNER_TEMP:?RUNNER_TEMP is not set}
cache_dir=${RETRY_AUDIT_CACHE_DIR:-$temp/retry-audit-jar}

# The version of the action's own checkout: the pom's project version (the first <version> after <artifactId>retry-audit).
version() {
  sed -n '/<artifactId>retry-audit<\/artifactId>/,/<\/version>/ s:.*<version>\(.*\)</version>.*:\1:p' \
    "$action_path/pom.xml" | head -n 1
}

output() {
  printf '%s=%s\n' "$1" "$2" >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
}

locate() {
  local v
  v=$(version)
  if [ -z "$v" ]; then
    echo "::error title=retry-audit::cannot read the version from $action_path/pom.xml" >&2
    exit 70
  fi
  output version "$v"
  output cache-dir "$cache_dir"
}

# The jar of this version: from the cache, else built from the action's checkout into the cache.
jar() {
  local v jar
  v=$(version)
  jar="$cache_dir/retry-audit-$v.jar"
  if [ ! -f "$jar" ]; then
    echo "retry-audit: building retry-audit $v from $action_path" >&2
    (cd "$action_path" && ./mvnw -B -q -ntp package -DskipTests) >&2
    mkdir -p "$cache_dir"
    cp "$action_path/target/retry-audit.jar" "$jar.tmp"
    mv "$jar.tmp" "$jar"
  fi
  printf '%s\n' "$jar"
}

audit() {
  local jar format out sarif code paths args
  jar=$(jar)
  format=${INPUT_FORMAT:-sarif}
  out="$temp/retry-audit"
  mkdir -p "$out"
  case "$format" in
    json) report="$out/report.json" ;;
    sarif) report="$out/report.sarif" ;;
    html) report="$out/report.html" ;;
    markdown) report="$out/report.md" ;;
    *) report="$out/report.txt" ;;
  esac
  # Paths are split on white space (spaces, tabs, new lines) and shell patterns in them expanded
  # (traces/*.jsonl); a pattern that matches nothing is passed as it is, and the audit says it cannot read it.
  # shellcheck disable=SC2206
  paths=( ${INPUT_PATHS:?the input 'paths' is required} )
  args=(--fail-on "${INPUT_FAIL_ON:-error}")
  [ -n "${INPUT_POLICY:-}" ] && args+=(--policy "$INPUT_POLICY")
  [ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
  [ -n "${INPUT_TOOLS:-}" ] && args+=(--tools "$INPUT_TOOLS")

  set +e
  java -jar "$jar" audit "${args[@]}" --format "$format" --output "$report" -- "${paths[@]}"
  code=$?
  set -e
  output exit-code "$code"
  output report-file "$report"

  # The summary tells the same audit in Markdown; its own exit code is the one above.
  local summary="$out/summary.md"
  java -jar "$jar" audit "${args[@]}" --format markdown --output "$summary" -- "${paths[@]}" 2>/dev/null || true
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$summary" ]; then
    cat "$summary" >> "$GITHUB_STEP_SUMMARY"
  fi

  # findings and errors: from the summary table's row (errors, warnings, notes); empty when no audit ran.
  local row findings="" errors=""
  row=$(grep -m 1 -E '^\| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \|' "$summary" 2>/dev/null || true)
  if [ -n "$row" ]; then
    errors=$(printf '%s\n' "$row" | awk -F'|' '{gsub(/ /, "", $5); print $5}')
    findings=$(printf '%s\n' "$row" | awk -F'|' '{gsub(/ /, "", $5); gsub(/ /, "", $6); gsub(/ /, "", $7); print $5 + $6 + $7}')
  fi
  output findings "$findings"
  output errors "$errors"

  sarif=""
  if [ "$format" = sarif ]; then
    sarif=$report
  elif [ "${INPUT_UPLOAD_SARIF:-true}" = true ]; then
    sarif="$out/report.sarif"
    java -jar "$jar" audit "${args[@]}" --format sarif --output "$sarif" -- "${paths[@]}" 2>/dev/null || true
  fi
  if [ -n "$sarif" ] && [ ! -s "$sarif" ]; then
    sarif=""
  fi
  output sarif-file "$sarif"
}

case "${1:-}" in
  locate) locate ;;
  audit) audit ;;
  *) echo "usage: run.sh locate|audit" >&2; exit 64 ;;
esac
