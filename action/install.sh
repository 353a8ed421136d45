#!/usr/bin/env bash
# Installs evalrun for the agentevals GitHub Action: INPUT_VERSION empty
# builds the evalrun of the action's own checkout ($GITHUB_ACTION_PATH),
# otherwise `go install …/cmd/evalrun@INPUT_VERSION`. The binary goes to
# $RUNNER_TEMP/agentevals-bin (or a temporary directory), which is added to
# $GITHUB_PATH for the later steps.
set -euo pipefail

bin="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentevals-bin"
mkdir -p "$bin"
if [ -z "${INPUT_VERSION:-}" ]; then
	src="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: run this script from the action}"
	(cd "$src" && GOBIN="$bin" go install ./cmd/evalrun)
else
	GOBIN="$bin" go install "github.com/agentevals-go/agentevals/cmd/evalrun@${INPUT_VERSION}"
fi
"$bin/evalrun" --version
if [ -n "${GITHUB_PATH:-}" ]; then
	echo "$bin" >>"$GITHUB_PATH"
fi
