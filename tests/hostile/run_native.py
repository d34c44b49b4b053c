#!/usr/bin/python3
"""Runs the hostile-input corpus (make_corpus.py) through the `twinrt` executable.

    /usr/bin/python3 tests/hostile/run_native.py TWINRT CORPUS_DIR [SUMMARY.md]

Each case runs with a timeout and an address-space cap, so a hang or a memory blow-up is
seen as such instead of stalling the machine. A case passes when it ends the way the
manifest says: "error" - exit code 2 with a "twinrt: error:" line (matching `match`);
"clean" - that, or exit 0/1 with the error line for 1; "ok" - exit 0. Anything else is
counted as crash (a signal, an abort), hang (timeout) or OOM (the memory cap was hit).
Prints one line per failure and a summary table; exits 1 when any case failed.
"""
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections import OrderedDict

TIMEOUT_S = 20
ADDRESS_SPACE = 8 << 30  # far below the bombs, far above what a clean refusal needs

twinrt, corpus = sys.argv[1], sys.argv[2]
summary_path = sys.argv[3] if len(sys.argv) > 3 else None
cases = json.load(open(os.path.join(corpus, "manifest.json")))["cases"]


def cap_memory():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def classify(c):
    """-> (outcome, detail): outcome is one of ok, clean error, crash, hang, OOM, wrong."""
    start = time.monotonic()
    try:
        p = subprocess.run([twinrt, *c["args"]], cwd=corpus, capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT_S, preexec_fn=cap_memory, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "hang", f"no answer after {TIMEOUT_S} s"
    seconds = time.monotonic() - start
    text = p.stdout + p.stderr
    error_line = next((line for line in p.stderr.splitlines() if line.startswith("twinrt: error:")), None)
    if p.returncode < 0 or p.returncode >= 128:
        oom = "bad_alloc" in text or "out of memory" in text.lower()
        return ("OOM" if oom else "crash"), f"exit {p.returncode}: {text.strip()[-300:]}"
    if p.returncode == 0:
        outcome = "ok"
    elif p.returncode in (1, 2) and error_line:
        outcome = "clean error"
    else:
        return "crash", f"exit {p.returncode} without an error line: {text.strip()[-300:]}"
    want = c["expect"]
    if want == "ok" and outcome != "ok":
        return "wrong", f"expected success, got exit {p.returncode}: {error_line}"
    if want == "error":
        if p.returncode != 2:
            return "wrong", f"expected exit 2, got {p.returncode}: {error_line or text.strip()[-200:]}"
        if c["match"] and not re.search(c["match"], error_line):
            return "wrong", f"error does not match /{c['match']}/: {error_line}"
    return outcome, f"{seconds:.1f} s: {error_line or 'ran'}"


counts = OrderedDict()
failed = []
for c in cases:
    outcome, detail = classify(c)
    row = counts.setdefault(c["kind"], OrderedDict((k, 0) for k in ["tried", "ok", "clean error", "crash", "hang",
                                                                       "OOM", "wrong"]))
    row["tried"] += 1
    row[outcome] += 1
    if outcome in ("crash", "hang", "OOM", "wrong"):
        failed.append(c["name"])
        print(f"FAIL {c['name']} ({outcome}): {detail}")
    elif os.environ.get("VERBOSE"):
        print(f"ok   {c['name']} ({outcome}): {detail}")

columns = ["tried", "ok", "clean error", "crash", "hang", "OOM", "wrong"]
lines = ["| kind | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
total = OrderedDict((k, 0) for k in columns)
for kind, row in counts.items():
    lines.append(f"| {kind} | " + " | ".join(str(row[k]) for k in columns) + " |")
    for k in columns:
        total[k] += row[k]
lines.append("| **all** | " + " | ".join(f"**{total[k]}**" for k in columns) + " |")
table = "\n".join(lines)
print(table)
if summary_path:
    with open(summary_path, "w") as f:
        f.write(table + "\n")
print(f"hostile corpus (native): {total['tried']} cases, {len(failed)} failed")
sys.exit(1 if failed else 0)
