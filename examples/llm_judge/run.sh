#!/bin/sh
# Opt-in example: run the support suite with real LLM judges.
#
#   OPENAI_API_KEY=... examples/llm_judge/run.sh
#   EVAL_JUDGE_PROVIDER=anthropic ANTHROPIC_API_KEY=... examples/llm_judge/run.sh
#   EVAL_JUDGE_PROVIDER=ollama EVAL_JUDGE_MODEL=llama3.1 examples/llm_judge/run.sh
#   AGENT_REVISION=regressed examples/llm_judge/run.sh   # a bad change the judge must catch
#
# It makes real model requests (which can incur charges, except with a
# local Ollama). Nothing in the test suite runs it. Extra arguments go to
# `evalrun run` (e.g. --judge-cache .judge-cache, --format markdown).
set -eu
cd "$(dirname "$0")/../.."

provider=${EVAL_JUDGE_PROVIDER:-openai}
case "$provider" in
  openai) key=OPENAI_API_KEY; model=gpt-4o-mini ;;
  anthropic) key=ANTHROPIC_API_KEY; model=claude-3-5-haiku-latest ;;
  ollama) key=; model=llama3.1 ;;
  *)
    echo "examples/llm_judge: EVAL_JUDGE_PROVIDER must be openai, anthropic or ollama, got '$provider'" >&2
    exit 2 ;;
esac

if [ -n "$key" ]; then
  eval "value=\${$key:-}"
  if [ -z "$value" ] && [ -z "${EVAL_JUDGE_BASE_URL:-}" ]; then
    cat >&2 <<MSG
examples/llm_judge needs a real judge model, and none is configured.

It needs:
  $key          the $provider API key (read from the environment only, never stored)
optionally:
  EVAL_JUDGE_PROVIDER  openai (default), anthropic or ollama (local, no key)
  EVAL_JUDGE_MODEL     judge model (default for $provider: $model)
  EVAL_JUDGE_BASE_URL  an OpenAI-compatible or Ollama endpoint instead of the provider's own
  DATABASE_URL         where to keep the runs (default: a SQLite file in \${TMPDIR:-/tmp})

Without a judge, the same suite still runs its deterministic checks:
  go run ./cmd/evalrun run --no-judge examples/llm_judge/suite.json
MSG
    exit 2
  fi
fi

export EVAL_JUDGE_PROVIDER="$provider"
export EVAL_JUDGE_MODEL="${EVAL_JUDGE_MODEL:-$model}"
db=${DATABASE_URL:-sqlite:${TMPDIR:-/tmp}/agentevals-llm-judge-example.sqlite3}
echo "judge: $EVAL_JUDGE_PROVIDER $EVAL_JUDGE_MODEL; database: $db" >&2
exec go run ./cmd/evalrun --database-url "$db" run examples/llm_judge/suite.json "$@"
