#!/bin/sh
# Offline support agent for examples/support/suite.json (a `command` agent).
# It reads one question as JSON on stdin ({"id", "name", "question"}), routes
# it to a policy topic, really looks the topic up in a local policy file, and
# prints a Response JSON object with the answer and the observed lookup.
#
# AGENT_REVISION=regressed simulates a bad change: the router sends the
# returns question to the shipping topic, finds nothing about returns there
# and makes up a 7-day deadline instead of saying it does not know.
set -eu

input=$(cat)
case "$input" in
  *"return an item"*) topic=returns ;;
  *"shipping"*) topic=shipping ;;
  *"warranty"*) topic=warranty ;;
  *) topic=unknown ;;
esac

asked=$topic
if [ "${AGENT_REVISION:-reference}" = regressed ] && [ "$topic" = returns ]; then
  topic=shipping
fi

# The observed action: a real lookup in the policy file.
answer=$(awk -F '\t' -v t="$topic" '$1 == t { print $2 }' policies.txt)
if [ "$asked" != "$topic" ]; then
  answer="You can return it within 7 days."
fi
[ -n "$answer" ] || answer="Sorry, I do not know."

printf '{"output":"%s","actions":[{"group":"policies","name":"lookup_policy","arguments":{"topic":"%s"}}],"metadata":{"revision":"%s"}}\n' \
  "$answer" "$topic" "${AGENT_REVISION:-reference}"
