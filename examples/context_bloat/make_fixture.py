#!/usr/bin/env python3
"""Writes fixtures/policies.json: a ~500 KB policy API response.

Twenty years of refund, shipping and warranty policy versions for several
regions, most of them superseded, with one current EU refund policy in the
middle. The output is deterministic (no clock, no randomness): the suite
fingerprint covers the file's SHA-256, so regenerating it must not change it.

    python3 make_fixture.py            # (re)write fixtures/policies.json
    python3 make_fixture.py --check    # exit 1 if the committed file differs
"""
import json
import os
import sys

REGIONS = ["eu", "us", "uk", "apac", "latam"]
TOPICS = ["refunds", "shipping", "warranty"]
FILLER = ("This version replaces the previous one after a periodic review by the "
          "customer policy board. Wording changes only affect the clarity of the "
          "conditions; see the change log for the exact amendments. ")


def policies():
    out = []
    n = 0
    for year in range(2006, 2026):
        for month in (1, 4, 7, 10):
            for region in REGIONS:
                for topic in TOPICS:
                    n += 1
                    out.append({
                        "id": "%s-%s-%04d" % (topic, region, n),
                        "region": region,
                        "topic": topic,
                        "effective_from": "%d-%02d-01" % (year, month),
                        "current": False,
                        "refund_window_days": 14 + (n % 5) * 7 if topic == "refunds" else None,
                        "text": FILLER,
                        "change_log": ["Amendment %d.%d: editorial changes." % (n, k) for k in range(2)],
                    })
    current = {
        "id": "refunds-eu-current",
        "region": "eu",
        "topic": "refunds",
        "effective_from": "2025-07-01",
        "current": True,
        "refund_window_days": 30,
        "text": "EU customers can request a refund within 30 days of delivery.",
        "change_log": ["Extended from 14 to 30 days."],
    }
    out.insert(len(out) // 2, current)
    return {"policies": out, "count": len(out), "generated_by": "make_fixture.py"}


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "policies.json")
    data = (json.dumps(policies(), separators=(", ", ": "), sort_keys=True) + "\n").encode()
    if sys.argv[1:] == ["--check"]:
        with open(path, "rb") as f:
            same = f.read() == data
        print("fixtures/policies.json is %s" % ("up to date" if same else "STALE: run make_fixture.py"))
        sys.exit(0 if same else 1)
    with open(path, "wb") as f:
        f.write(data)
    print("wrote %s (%d bytes)" % (path, len(data)))


main()
