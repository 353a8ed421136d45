#!/bin/sh
# Scripted agent of the golden edges suite: one fixed reply per question,
# each exercising a corner of what evalrun stores (usage and cost, big
# numbers, redaction and repair, plain text, a crash, judge input).
set -eu
input=$(cat)
case "$input" in
  *'"usage"'*)
    printf '{"output":"Paris","actions":[],"input_tokens":1234,"output_tokens":56,"cost":0.0001234567890123456,"metadata":{"big":12345678901234567890,"float":1.0,"unicode":"caf\\u00e9 \\ud83d\\ude00"}}\n' ;;
  *'"secret"'*)
    printf '{"output":"token sk-abcdefghijklmnopqrstuvwxyz012345 api_key=hunter2 nul:\\u0000 bad:\377","actions":null,"input_tokens":10,"output_tokens":0,"cost":0}\n' ;;
  *'"plain"'*)
    printf 'hello\n' ;;
  *'"crash"'*)
    echo "agent: simulated crash" >&2
    exit 3 ;;
  *'"grounded"'*)
    printf '{"output":"It was finished in 1889.","metadata":{}}\n' ;;
  *'"garbled"'*)
    printf '{"output":"GARBLE the tower is tall.","metadata":{}}\n' ;;
  *)
    printf '{"output":"unknown question"}\n' ;;
esac
