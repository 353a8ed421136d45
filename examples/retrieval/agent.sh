#!/bin/sh
# Offline retrieval agent for examples/retrieval/suite.json (a `command`
# agent). It reads one question as JSON on stdin, retrieves passages from
# docs.txt by keyword, answers from the first passage, and reports what it
# retrieved, in rank order, in its reply's metadata.contexts.
#
# RETRIEVER=broken simulates a retrieval bug: the shipping passage ranks
# first for every question and the returns passage is not retrieved at
# all: the retrieval metrics fail on the returns question, whatever the
# answer says.
set -eu

input=$(cat)
case "$input" in
  *"return"*) want=returns ;;
  *"shipping"*) want=shipping ;;
  *) want=none ;;
esac
index=docs.txt
if [ "${RETRIEVER:-good}" = broken ]; then
  want=shipping
  index=$(mktemp)
  trap 'rm -f "$index"' EXIT
  grep -v '^returns' docs.txt > "$index"
fi

# Rank: the wanted topic first, then the other passages in file order;
# keep the first two.
ranked=$( (awk -F '\t' -v w="$want" '$1 == w { print }' "$index"; awk -F '\t' -v w="$want" '$1 != w { print }' "$index") | head -n 2)
contexts=$(printf '%s\n' "$ranked" | awk -F '\t' 'BEGIN { sep = "" } { printf "%s{\"id\":\"%s\",\"text\":\"%s\"}", sep, $2, $3; sep = "," }')
answer=$(printf '%s\n' "$ranked" | awk -F '\t' 'NR == 1 { print $3 }')
printf '{"output": "%s", "metadata": {"contexts": [%s]}}\n' "$answer" "$contexts"
