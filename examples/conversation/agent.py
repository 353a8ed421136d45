"""Offline support agent for examples/conversation/suite.json (a `command` agent).

One process per turn: it reads the question JSON on stdin, whose "messages"
hold the conversation so far, and prints a Response JSON object. It keeps no
state of its own: what the user said earlier is in the history.

AGENT_REVISION=regressed simulates a bad change: the agent reads only the
current message, so it forgets the order number the user gave in turn 1 and
asks for it again.
"""
import json
import os
import re
import sys

ORDER = re.compile(r"\b[A-Z]-\d{4}\b")


def order_number(messages):
    for m in messages:
        if m["role"] == "user":
            found = ORDER.search(m["content"])
            if found:
                return found.group(0)
    return None


def reply(text, messages):
    order = order_number(messages)
    lowered = text.lower()
    actions = []
    if order:
        actions.append({"group": "orders", "name": "lookup_order", "arguments": {"order": order}})
    if "broken" in lowered or "damaged" in lowered:
        return "I am sorry to hear that. Would you like a refund or a replacement?", actions
    if order is None:
        return "What is your order number?", actions
    if "refund" in lowered:
        actions.append({"group": "orders", "name": "refund", "arguments": {"order": order}})
        return "Your refund for order %s is on its way." % order, actions
    if "repeat" in lowered:
        return "Your order number is %s." % order, actions
    if "arrive" in lowered or "when" in lowered:
        return "Order %s arrives on Friday." % order, actions
    return "Order %s has shipped and is with the carrier." % order, actions


def main():
    q = json.load(sys.stdin)
    messages = q.get("messages") or [{"role": "user", "content": q["question"]}]
    if os.environ.get("AGENT_REVISION") == "regressed":
        messages = messages[-1:]
    text, actions = reply(messages[-1]["content"], messages)
    json.dump({"output": text, "actions": actions, "input_tokens": 40 * len(messages), "output_tokens": 12}, sys.stdout)


main()
