#!/usr/bin/env python3
"""The tables of README.md from the runs' results.json (runs/*/results.json):
per backend, set and heuristic: verdicts, who decided them, the loop's figures, CPU time on
the tasks every heuristic of that backend and set solved, and the tasks on which the
heuristics disagree. Run from docs/bench/heuristics: python3 analysis.py > analysis.txt"""
import collections, csv, glob, json, os, sys

HEUR_ALL = ["paper", "steps1", "steps2", "steps4", "cone", "guards", "smallcone"]


def setname(cat):
    if cat.startswith("new-"):
        return "sv-comp-new"
    if cat in ("pthread", "pthread-ext"):
        return "2015 pthread+ext"
    return "2015 " + cat


def load(dirs):
    rows = []
    for d in dirs:
        if os.path.exists(os.path.join(d, "results.json")):
            res = json.load(open(os.path.join(d, "results.json")))
        elif os.path.exists(os.path.join(d, "results.csv")):  # a run cut short: its partial CSV
            res = {"tasks": []}
            for r in csv.DictReader(open(os.path.join(d, "results.csv"))):
                for k in ("cpu_seconds", "wall_seconds", "kept_share", "abstract_seconds", "reconstruct_seconds"):
                    r[k] = float(r[k] or 0)
                for k in ("levels", "iterations", "spurious", "kept_vars", "program_vars", "patterns", "pattern_labels"):
                    r[k] = int(r[k] or 0)
                r["missed"] = r["missed"] == "true"
                res["tasks"].append(r)
        else:
            continue
        loop = res.get("loop") or {}
        for t in res["tasks"]:
            mode = t["mode"]
            base, h = mode.split("/")
            t["backend"] = "esbmc" if "@esbmc" in base else "builtin"
            t["heur"] = h
            t["set"] = setname(t["category"])
            t["run"] = os.path.basename(d)
            l = loop.get(t["file"], {}).get(mode) or {}
            # the first kept set at the last unwinding (level 0 there): the heuristic's own choice
            ks = l.get("kept_sets") or []
            first = [k for k in ks if k.get("level") == 0]
            t["first_share"] = len(first[-1]["kept"]) / first[-1]["of"] if first and first[-1].get("of") else None
            rows.append(t)
    return rows


def ok(t):
    return t["status"] == "correct"


def main(dirs):
    rows = load(dirs)
    print("""Columns: correct/wrong (missed: of the wrong, bounded TRUEs on unsafe tasks)/timeout/unknown/error
per heuristic; byLoop/byOther: TRUEs and FALSEs decided by the CEGPV loop / another engine;
othUnk: UNKNOWNs that another engine had decided (loop-only turns them UNKNOWN: reason
"loop only: ..."); iters, spur: iterations and spurious counterexamples summed over the runs
(the deepening's shallow runs at unwind 1 and 2 included); widened: runs that went past their
first level at unwind 5; share0: mean share of the program's variables in the heuristic's
first kept set at the last unwinding; share: the same at the last level entered; cpuCommon: CPU
seconds on the tasks every heuristic of that backend and set solved correctly; cpuAll: on all.
Means over the runs that entered the loop.
""")
    groups = collections.defaultdict(list)
    for t in rows:
        groups[(t["backend"], t["set"])].append(t)
        groups[(t["backend"], "ALL")].append(t)
    order = sorted(groups, key=lambda k: (k[0] != "builtin", k[1] == "ALL", k[1]))
    for key in order:
        g = groups[key]
        by = collections.defaultdict(list)
        for t in g:
            by[t["heur"]].append(t)
        HEUR = [h for h in HEUR_ALL if by[h]]
        files = sorted({t["file"] for t in g})
        solved_by_all = [f for f in files if all(any(ok(t) and t["file"] == f for t in by[h]) for h in HEUR)]
        print(f"== {key[0]} backend, {key[1]}: {len(files)} tasks, solved by every heuristic: {len(solved_by_all)}")
        print(f"{'heuristic':>9} {'correct':>7} {'wrong':>5} {'missed':>6} {'timeout':>7} {'unknown':>7} {'error':>5}"
              f" {'byLoop':>6} {'byOther':>7} {'othUnk':>6} {'iters':>5} {'spur':>4} {'widened':>7} {'share0':>6} {'share':>6}"
              f" {'cpuCommon':>9} {'cpuAll':>7}")
        for h in HEUR:
            ts = by[h]
            c = collections.Counter()
            for t in ts:
                if ok(t):
                    c["correct"] += 1
                elif t["status"].startswith("incorrect"):
                    c["wrong"] += 1
                    if t.get("missed"):
                        c["missed"] += 1
                elif t.get("result") == "TIMEOUT":
                    c["timeout"] += 1
                elif t["status"] == "unknown":
                    c["unknown"] += 1
                else:
                    c["error"] += 1
                if t["verdict"] in ("TRUE", "FALSE"):
                    c["byLoop" if t.get("decided_by") == "the CEGPV loop" else "byOther"] += 1
                if (t.get("reason") or "").startswith("loop only:"):
                    c["otherUnk"] += 1  # another engine decided; loop-only made it UNKNOWN
            looped = [t for t in ts if t.get("iterations")]
            shares = [t["kept_vars"] / t["program_vars"] for t in looped if t.get("program_vars")]
            s0 = [t["first_share"] for t in looped if t["first_share"] is not None]
            common = sum(t["cpu_seconds"] for t in ts if t["file"] in solved_by_all)
            print(f"{h:>9} {c['correct']:>7} {c['wrong']:>5} {c['missed']:>6} {c['timeout']:>7} {c['unknown']:>7} {c['error']:>5}"
                  f" {c['byLoop']:>6} {c['byOther']:>7} {c['otherUnk']:>6} {sum(t.get('iterations', 0) for t in ts):>5}"
                  f" {sum(t.get('spurious', 0) for t in ts):>4} {sum(1 for t in ts if t.get('levels', 0) > 1):>7}"
                  f" {sum(s0) / len(s0) if s0 else 0:>6.3f} {sum(shares) / len(shares) if shares else 0:>6.3f}"
                  f" {common:>9.1f} {sum(t['cpu_seconds'] for t in ts):>7.1f}")
        if key[1] == "ALL":
            print()
            continue
        # tasks on which the heuristics disagree (status), or spend different spurious counterexamples
        print("  tasks where the heuristics differ (status/iterations/spurious/cpu s per heuristic):")
        for f in files:
            per = {t["heur"]: t for t in g if t["file"] == f}
            st = {per[h]["status"] for h in HEUR if h in per}
            sp = {per[h].get("spurious", 0) for h in HEUR if h in per}
            if len(st) > 1 or len(sp) > 1:
                cells = []
                for h in HEUR:
                    t = per.get(h)
                    if not t:
                        cells.append(f"{h}:-")
                        continue
                    s = "ok" if ok(t) else (t.get("result") or t["status"])[:7]
                    cells.append(f"{h}:{s}/{t.get('iterations', 0)}/{t.get('spurious', 0)}/{t['cpu_seconds']:.1f}")
                print(f"  {os.path.basename(f)[:48]:48} " + " ".join(cells))
        print()


if __name__ == "__main__":
    main(sys.argv[1:] or sorted(glob.glob("runs/*")))
