#!/usr/bin/env python3
"""Writes the sample manifests of this experiment (docs/bench/heuristics/samples/*.tsv)
from the shared manifests; paths resolve to /work/shared from this directory.
Run from docs/bench/heuristics: python3 samples/make.py"""
import csv, collections

UP = "../../../../../shared/bench/"  # from docs/bench/heuristics/samples

def read(path):
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))

def write(name, header, rows):
    with open("samples/" + name, "w") as f:
        f.write("\t".join(header) + "\n")
        for r in rows:
            f.write("\t".join(r[h] for h in header) + "\n")

def every(rows, n, key="category"):
    """every n-th task of each category in manifest order, from the first"""
    seen, out = collections.Counter(), []
    for r in rows:
        if seen[r[key]] % n == 0:
            out.append(r)
        seen[r[key]] += 1
    return out

def interleave(rows, key="category"):
    """round-robin over the categories (each in manifest order): a run cut short by the
    budget has then done about as many tasks of each category"""
    cats = collections.OrderedDict()
    for r in rows:
        cats.setdefault(r[key], []).append(r)
    out, i = [], 0
    while len(out) < len(rows):
        for rs in cats.values():
            if i < len(rs):
                out.append(rs[i])
        i += 1
    return out

# 2015 sets: all of pthread-lit, every 3rd task of pthread and of pthread-ext
s15 = read("/work/shared/bench/sv-comp15/manifest.tsv")
for r in s15:
    r["file"] = UP + "sv-comp15/" + r["file"]
H15 = ["file", "category", "expected_verdict"]
write("sv15-lit.tsv", H15, [r for r in s15 if r["category"] == "pthread-lit"])
write("sv15-pthread-ext-every3.tsv", H15, interleave(every([r for r in s15 if r["category"] in ("pthread", "pthread-ext")], 3)))
# pthread-wmm: the 16 tasks of docs/bench/esbmc-wmm/sample.tsv (same depth, same paths)
wmm = read("../esbmc-wmm/sample.tsv")
for r in wmm:
    r["file"] = "../" + r["file"]
write("sv15-wmm16.tsv", H15, wmm)
# sv-comp-new: every 4th task of each category (stratified), in manifest order
new = [r for r in read("/work/shared/bench/sv-comp-new/manifest.tsv") if r["file"]]
for r in new:
    r["file"] = UP + "sv-comp-new/" + r["file"]
    r["yml"] = UP + "sv-comp-new/" + r["yml"]
    r["category"] = "new-" + r["category"]  # apart from the 2015 sets' pthread, pthread-ext, pthread-wmm
write("new-every4.tsv", ["file", "category", "expected_verdict", "data_model", "yml"], interleave(every(new, 4)))
# ESBMC: pthread-lit and every 2nd task of the 16 pthread-wmm ones (4 false, 4 true)
write("esbmc-lit-wmm8.tsv", H15, [r for r in s15 if r["category"] == "pthread-lit"] + wmm[::2])
# ... its second run, interleaved, without the two tasks the first run (cut) had done for
# every heuristic: fk2012_true and fkp2013_false (runs/esbmc takes their rows from that run)
lit = [r for r in s15 if r["category"] == "pthread-lit"]
write("esbmc-rest.tsv", H15, interleave(wmm[::2] + lit[2:]))
