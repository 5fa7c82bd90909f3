#!/usr/bin/env python3
"""The straightforward checker that retry-audit replaces, as bench/run measures it against the audit.

It reads a spans file one JSON line at a time, groups the attempts by operation (operation_id, else
parent_run_id with idempotency_key or tool) and checks three things: a write resent without an
idempotency key, a resend after an attempt that committed or whose commit state is unknown, and a
resend started before the attempt it follows had ended. It prints one JSON line a problem; it
exits 2 when it found one, 0 when not.
Usage: python3 bench/checker.py FILE
"""
import json
import sys
from datetime import datetime

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def started_ms(attempt):
    text = attempt.get("started_at")
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000


def check(key, attempts, out):
    problems = 0
    attempts.sort(key=lambda a: a.get("attempt_id", 0))
    first = attempts[0]
    if len(attempts) > 1 and first.get("method", "POST") in WRITES and not first.get("idempotency_key"):
        out.write(json.dumps({"operation": key, "problem": "write resent without an idempotency key"}) + "\n")
        problems += 1
    for before, after in zip(attempts, attempts[1:]):
        if before.get("commit_state") in ("committed", "unknown"):
            out.write(json.dumps({"operation": key, "attempt": after.get("attempt_id"),
                                  "problem": "resent after commit state " + before["commit_state"]}) + "\n")
            problems += 1
        start, end = started_ms(after), started_ms(before)
        if start is not None and end is not None and start < end + before.get("duration_ms", 0):
            out.write(json.dumps({"operation": key, "attempt": after.get("attempt_id"),
                                  "problem": "resent before the attempt it follows ended"}) + "\n")
            problems += 1
    return problems


def main():
    operations = {}
    with open(sys.argv[1], encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            span = json.loads(line)
            key = span.get("operation_id") or (span.get("parent_run_id"),
                                                span.get("idempotency_key") or span.get("tool"))
            operations.setdefault(str(key), []).append(span)
    problems = 0
    out = sys.stdout
    for key, attempts in operations.items():
        problems += check(key, attempts, out)
    sys.exit(2 if problems else 0)


if __name__ == "__main__":
    main()
