#!/bin/sh
# Support agent for examples/llm_judge/suite.json (a `command` agent). Like
# examples/support/agent.sh it looks the answer up in a local policy file,
# but its policy texts are paraphrases of the expected answers, so only a
# semantic judge (not exact matching) can tell they are right.
#
# AGENT_REVISION=regressed simulates a bad change: the returns answer states
# a 14-day deadline, which semantic_accuracy must catch.
set -eu

input=$(cat)
case "$input" in
  *"return an item"*) topic=returns ;;
  *"shipping"*) topic=shipping ;;
  *"warranty"*) topic=warranty ;;
  *) topic=unknown ;;
esac

answer=$(awk -F '\t' -v t="$topic" '$1 == t { print $2 }' policies.txt)
if [ "${AGENT_REVISION:-reference}" = regressed ] && [ "$topic" = returns ]; then
  answer="You have 14 days from delivery to send an item back for a refund."
fi
[ -n "$answer" ] || answer="Sorry, I do not know."

printf '{"output":"%s","actions":[{"group":"policies","name":"lookup_policy","arguments":{"topic":"%s"}}],"metadata":{"revision":"%s"}}\n' \
  "$answer" "$topic" "${AGENT_REVISION:-reference}"
