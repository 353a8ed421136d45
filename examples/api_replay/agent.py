#!/usr/bin/env python3
"""Offline shipping agent for examples/api_replay/suite.json (a command agent).

It reads one question as JSON on stdin ({"id", "name", "question"}), calls the
shipping API over HTTPS with Python's standard library only, and prints a
Response JSON object: the answer, the observed API calls and its revision.

evalrun points it at its replay proxy through HTTPS_PROXY and SSL_CERT_FILE:
the API never exists, every request is answered from the suite's fixtures.

AGENT_REVISION=regressed simulates a bad change: it looks orders up with an
off-by-one id and asks for express labels. Replay refuses those requests; the
agent rescues the error and still answers, but the case fails anyway.
"""
import json
import os
import re
import sys
import urllib.error
import urllib.request

API = "https://shipping.example"
regressed = os.environ.get("AGENT_REVISION", "reference") == "regressed"
actions = []


def call(name, method, path, args, body=None, headers=None):
    actions.append({"group": "shipping", "name": name, "arguments": args})
    data = None if body is None else json.dumps(body).encode()
    hdrs = dict(headers or {})
    if data is not None:
        hdrs["Content-Type"] = "application/json"
    req = urllib.request.Request(API + path, data=data, headers=hdrs, method=method)
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)


def answer(question):
    order = int(re.search(r"\d+", question).group())
    asked = order + 1 if regressed else order
    try:
        found = call("get_order", "GET", "/orders?id=%d" % asked, {"id": asked})
        if "label" not in question.lower():
            return "Order %d is %s." % (order, found["status"])
        express = regressed
        label = call("create_label", "POST", "/labels", {"order": order, "express": express},
                     body={"order": order, "express": express}, headers={"X-Region": "eu"})
        return "Label %s created for order %d (%s)." % (label["label"], order, label["carrier"])
    except urllib.error.URLError as err:
        # Rescued: a real agent might retry or apologise. Replay still fails the case.
        return "The shipping service is unavailable (%s)." % err


q = json.load(sys.stdin)
out = answer(q["question"])
print(json.dumps({"output": out, "actions": actions,
                  "metadata": {"revision": "regressed" if regressed else "reference"}}))
