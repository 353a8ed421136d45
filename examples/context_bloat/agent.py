#!/usr/bin/env python3
"""Policy agent for examples/context_bloat/suite.json (a command agent).

The agent has one tool, get_policies(region, topic), backed by the policy
API (https://policies.example, replayed by evalrun from a ~500 KB fixture).
What the tool returns is what the agent's model would read: the tool result.

* reference: the tool extracts the relevant facts (the current policy only)
  and returns a few hundred bytes.
* AGENT_REVISION=regressed: the tool passes the whole API response through.
  The answer is still right, but the model-facing tool result is ~500 KB and
  the max_tool_result_bytes budget (4,096 bytes) fails.

The "model" here is a deterministic stand-in that reads the tool result, so
the example runs offline; the byte counts are real. Both are reported in the
response metadata: tool_result_bytes (one entry per tool call) and
api_response_bytes.
"""
import json
import os
import sys
import urllib.request

API = "https://policies.example/v1/policies"
regressed = os.environ.get("AGENT_REVISION", "reference") == "regressed"


def get_policies(region, topic):
    """The tool: returns (tool_result_text, api_response_bytes)."""
    url = "%s?region=%s&topic=%s" % (API, region, topic)
    with urllib.request.urlopen(url, timeout=10) as resp:
        raw = resp.read()
    if regressed:
        return raw.decode(), len(raw)
    current = [p for p in json.loads(raw)["policies"]
               if p["current"] and p["region"] == region and p["topic"] == topic]
    facts = [{"id": p["id"], "effective_from": p["effective_from"],
              "refund_window_days": p["refund_window_days"], "text": p["text"]} for p in current]
    return json.dumps({"current_policies": facts}), len(raw)


def model(question, tool_result):
    """Stand-in for the model: finds the current policy in the tool result."""
    data = json.loads(tool_result)
    policies = data.get("current_policies") or [p for p in data.get("policies", []) if p.get("current")]
    days = policies[0]["refund_window_days"]
    return "EU customers can request a refund within %d days of delivery." % days


q = json.load(sys.stdin)
args = {"region": "eu", "topic": "refunds"}
result, api_bytes = get_policies(**args)
print(json.dumps({
    "output": model(q["question"], result),
    "actions": [{"group": "policy_tools", "name": "get_policies", "arguments": args}],
    "metadata": {"tool_result_bytes": [len(result.encode())], "api_response_bytes": api_bytes,
                 "revision": "regressed" if regressed else "reference"},
}))
