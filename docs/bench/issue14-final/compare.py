#!/usr/bin/env python3
"""Compare a cegpv bench run (results.csv) with an earlier one task by task.

usage: compare.py OLD.csv NEW.csv [MODE]

Prints the counts per status of both runs, every task whose status changed
(correct -> anything else is a lost task), every wrong verdict, and the
total wall and CPU time of the tasks both runs solved.
"""
import csv
import sys


def load(path, mode):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if mode and r["mode"] != mode:
                continue
            rows[r["file"]] = r
    return rows


def main():
    old, new = load(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else None), load(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    for name, rows in (("old", old), ("new", new)):
        counts = {}
        for r in rows.values():
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        print(name, len(rows), "tasks:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    lost = gained = 0
    both = [0.0, 0.0]
    cpu = [0.0, 0.0]
    for f in sorted(set(old) & set(new)):
        o, n = old[f], new[f]
        if o["status"] != n["status"]:
            print(f"  {f}: {o['status']} ({o['verdict']}, {float(o['wall_seconds']):.1f}s) -> {n['status']} ({n['verdict']}, {float(n['wall_seconds']):.1f}s) {n['reason'][:90]}")
            lost += o["status"] == "correct"
            gained += n["status"] == "correct"
        if o["status"] == "correct" and n["status"] == "correct":
            both[0] += float(o["wall_seconds"])
            both[1] += float(n["wall_seconds"])
            cpu[0] += float(o["cpu_seconds"])
            cpu[1] += float(n["cpu_seconds"])
        if n["status"] == "wrong":
            print(f"  WRONG: {f}: {n['verdict']}")
    print(f"lost {lost}, gained {gained}; time on the tasks both solved: {both[0]:.1f}s -> {both[1]:.1f}s wall, "
          f"{cpu[0]:.1f}s -> {cpu[1]:.1f}s cpu (cegpv and its solvers: the fairer measure on a shared machine)")


main()
