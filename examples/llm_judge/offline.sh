#!/bin/sh
# Try the judge features without a model or a key: a scripted
# OpenAI-compatible judge (examples/scriptedjudge, rules, not a model)
# stands in for the real one.
#
#   examples/llm_judge/offline.sh
#
# It runs the suite at the reference revision, again with --repeat 3 (each
# question judged three times; the scripted judge's scores vary a little),
# then the regressed revision under --gate ci (the broken returns answer
# fails semantic_accuracy: exit 1), and measures the judge against
# examples/llm_judge/labels.jsonl with calibrate. Runs go to a throwaway
# SQLite file unless DATABASE_URL is set.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
judge=
cleanup() {
  [ -z "$judge" ] || kill "$judge" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

go build -o "$tmp/scriptedjudge" ./examples/scriptedjudge
go build -o "$tmp/evalrun" ./cmd/evalrun
# The file exists before the judge starts: the background shell opens its
# redirection only when it gets scheduled, and the loop below may read first.
: >"$tmp/judge.out"
"$tmp/scriptedjudge" -addr 127.0.0.1:0 >"$tmp/judge.out" &
judge=$!
url=
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  url=$(sed -n 's/^scripted judge at \([^ ]*\) .*/\1/p' "$tmp/judge.out")
  [ -n "$url" ] && break
  sleep 0.2
done
[ -n "$url" ] || { echo "offline.sh: the scripted judge did not start" >&2; exit 2; }

export OPENAI_API_KEY=offline-scripted-judge
db=${DATABASE_URL:-sqlite:$tmp/runs.sqlite3}
ev() { "$tmp/evalrun" --database-url "$db" "$@"; }
suite=examples/llm_judge/suite.json

echo "== reference revision, scripted judge at $url"
AGENT_REVISION=reference ev run "$suite" --judge-base-url "$url"
echo "== reference revision, every question judged 3 times"
AGENT_REVISION=reference ev run "$suite" --judge-base-url "$url" --repeat 3
echo "== regressed revision under the ci gate"
code=0
AGENT_REVISION=regressed ev run "$suite" --judge-base-url "$url" --gate ci --fail-on-regression || code=$?
echo "(exit $code: the regressed returns answer fails semantic_accuracy)"
[ "$code" = 1 ] || exit 1
echo "== the judge against human labels"
run=$(ev history --json --limit 1 | sed -n 's/^    "id": "\([0-9a-f-]*\)",$/\1/p' | head -n 1)
ev calibrate "$run" --labels examples/llm_judge/labels.jsonl
