"""The order desk's verifier, in worker mode: it reads one JSON document per
line (the question, its metadata, the agent's answer and actions, the run
and case ids) and writes one verdict per line. It checks what the agent did,
not what it said: the order row of this question exists with the item and
quantity the question asked for."""
import json
import os
import sqlite3
import sys

path = os.environ["ORDERDESK_DB"][len("sqlite:"):]
con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)

for line in sys.stdin:
    case = json.loads(line)
    want = case["metadata"]
    rows = con.execute("SELECT item, quantity FROM orders WHERE ref = ?", (case["case_id"],)).fetchall()
    if not rows:
        verdict = {"score": 0, "reason": "no order row for %s: the agent said it placed the order but wrote nothing" % case["case_id"]}
    elif rows != [(want["item"], want["quantity"])]:
        verdict = {"score": 0, "reason": "order rows %r, want one row (%r, %r)" % (rows, want["item"], want["quantity"])}
    else:
        verdict = {"score": 1, "reason": "one order row: %d x %s" % (want["quantity"], want["item"])}
    print(json.dumps(verdict), flush=True)
