"""Per-check rows of `cegpv verify --json --loop-only` runs: DIR/<binary>/<task>.json -> CSV on
stdout, one row per abstraction check (iteration 0 of a level: no refinement monitor; later
iterations: the monitor of the spurious counterexamples so far)."""
import csv, json, os, sys

d = sys.argv[1]
w = csv.writer(sys.stdout)
w.writerow(["binary", "task", "verdict", "decided_by", "total_seconds", "unwind", "level", "iteration",
            "abstract_instrs", "abstract_verdict", "abstract_seconds", "reconstruct_verdict", "reconstruct_seconds"])
for b in sorted(x for x in os.listdir(d) if os.path.isdir(os.path.join(d, x))):
    for f in sorted(os.listdir(os.path.join(d, b))):
        if not f.endswith(".json"):
            continue
        try:
            r = json.load(open(os.path.join(d, b, f)))
        except ValueError:
            continue
        head = [b, f[:-5], r.get("verdict"), r.get("decided_by", ""), "%.2f" % r.get("stats", {}).get("total_seconds", 0)]
        its = (r.get("cegpv") or {}).get("iterations") or []
        if not its:
            w.writerow(head + [""] * 8)
        for it in its:
            w.writerow(head + [it.get("unwind", ""), it.get("level"), it.get("iteration"), it.get("abstract_instrs"),
                               it.get("abstract_verdict"), "%.2f" % (it.get("abstract_time_ns", 0) / 1e9),
                               it.get("reconstruct_verdict", ""), "%.2f" % (it.get("reconstruct_time_ns", 0) / 1e9)])
