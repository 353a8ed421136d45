"""The order desk agent of the outcome-checks example: a command agent that
reads one question as JSON on stdin, places the order in the desk's SQLite
database (ORDERDESK_DB, sqlite:PATH) and answers with a confirmation and the
tool call it made. Offline and deterministic.

AGENT_REVISION=regressed is a bad change that still answers correctly and
reports the same tool call, but never commits the order row.

`python3 orderdesk.py init PATH` creates the desk's database.
"""
import json
import os
import re
import sqlite3
import sys

SCHEMA = """CREATE TABLE IF NOT EXISTS orders (
    ref TEXT NOT NULL,
    customer TEXT NOT NULL,
    item TEXT NOT NULL,
    quantity INTEGER NOT NULL
)"""

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "twelve": 12}


def db_path():
    url = os.environ.get("ORDERDESK_DB", "")
    if not url.startswith("sqlite:"):
        sys.exit("ORDERDESK_DB must be sqlite:PATH")
    return url[len("sqlite:"):]


def parse(text):
    """Reads 'Order <quantity> <item> for <customer>.'"""
    m = re.match(r"\s*order\s+(\w+)\s+(.+?)\s+for\s+(.+?)\.?\s*$", text, re.IGNORECASE)
    if not m:
        return None
    qty = m.group(1).lower()
    quantity = int(qty) if qty.isdigit() else WORDS.get(qty)
    if quantity is None:
        return None
    return {"quantity": quantity, "item": m.group(2).lower(), "customer": m.group(3)}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "init":
        with sqlite3.connect(sys.argv[2]) as con:
            con.execute(SCHEMA)
        return
    question = json.loads(sys.stdin.readline())
    order = parse(question["question"])
    if order is None:
        json.dump({"output": "Sorry, I could not read that order."}, sys.stdout)
        return
    con = sqlite3.connect(db_path(), timeout=10)
    con.execute("INSERT INTO orders (ref, customer, item, quantity) VALUES (?, ?, ?, ?)",
                (question["id"], order["customer"], order["item"], order["quantity"]))
    if os.environ.get("AGENT_REVISION") != "regressed":
        con.commit()
    con.close()
    reply = {
        "output": "Order placed: %d x %s for %s." % (order["quantity"], order["item"], order["customer"]),
        "actions": [{"group": "desk", "name": "place_order", "arguments": order}],
    }
    json.dump(reply, sys.stdout)


main()
