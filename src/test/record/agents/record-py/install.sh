#!/usr/bin/env bash
# Makes the recorder's venv: install.sh VENV OTEL_GIT_DIR AGENT_PROTOCOL_GIT_DIR
# The two git directories are clones (or bare snapshots) of open-telemetry/opentelemetry-python and
# langchain-ai/agent-protocol; the packages of source-packages.txt are built from their tags, then
# the registry packages of requirements.txt are installed.
set -euo pipefail
venv=$1 otel_git=$2 protocol_git=$3
here=$(cd "$(dirname "$0")" && pwd)
python3 -m venv "$venv"
src="$venv/src"
mkdir -p "$src/otel" "$src/agent-protocol"
git --git-dir="$otel_git" archive v1.44.0 | tar -x -C "$src/otel"
git --git-dir="$protocol_git" archive 'langchain-protocol==0.0.18' streaming/py | tar -x -C "$src/agent-protocol"
dirs=()
while read -r name dir; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ "$name" = langchain-protocol==0.0.18 ]; then dirs+=("$src/agent-protocol/$dir"); else dirs+=("$src/otel/$dir"); fi
done < "$here/source-packages.txt"
"$venv/bin/pip" install "${dirs[@]}"
"$venv/bin/pip" install -r "$here/requirements.txt"
"$venv/bin/pip" check
