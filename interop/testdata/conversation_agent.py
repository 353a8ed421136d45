"""A conversation agent for the protocol tests: it reports what it received.

Once per process (command) or once per line (worker, with --worker), it
reads a question and replies "turn N: M messages; first: F; session S".
"""
import json
import sys


def answer(q):
    msgs = q.get("messages") or []
    first = msgs[0]["content"] if msgs else ""
    text = "turn %s: %d messages; first: %s; session %s" % (q.get("turn"), len(msgs), first, q.get("session_id"))
    return {"output": text, "actions": [{"group": "probe", "name": "turn", "arguments": {"turn": q.get("turn")}}],
            "input_tokens": 10, "output_tokens": 2, "cost": 0.001}


if "--worker" in sys.argv:
    for line in sys.stdin:
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()
else:
    json.dump(answer(json.load(sys.stdin)), sys.stdout)
