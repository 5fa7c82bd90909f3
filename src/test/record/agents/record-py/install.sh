#!/usr/bin/env bash
# Makes the recorder's venv: install.sh VENV OTEL_GIT_DIR CONTRIB_GIT_DIR AGENT_PROTOCOL_GIT_DIR
# The git directories are clones (or bare snapshots) of open-telemetry/opentelemetry-python,
# open-telemetry/opentelemetry-python-contrib and langchain-ai/agent-protocol; the packages of
# source-packages.txt are built from their tags, then the registry packages of requirements.txt
# are installed.
set -euo pipefail
venv=$1
declare -A git_dir=([otel]=$2 [contrib]=$3 [protocol]=$4)
declare -A tag=([otel]=v1.44.0 [contrib]=v0.65b0 [protocol]='langchain-protocol==0.0.18')
here=$(cd "$(dirname "$0")" && pwd)
python3 -m venv "$venv"
dirs=()
while read -r name source dir; do
  case "$name" in ''|'#'*) continue ;; esac
  mkdir -p "$venv/src/$source"
  git --git-dir="${git_dir[$source]}" archive "${tag[$source]}" "$dir" | tar -x -C "$venv/src/$source"
  dirs+=("$venv/src/$source/$dir")
done < "$here/source-packages.txt"
"$venv/bin/pip" install "${dirs[@]}"
"$venv/bin/pip" install -r "$here/requirements.txt"
"$venv/bin/pip" check
