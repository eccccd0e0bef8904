"""Sums what measure.sh recorded and compares it with plain's total time on
the same tasks (a results.csv of `cegpv bench --modes plain,...`).

usage: floor.py OUTDIR RESULTS.CSV
"""
import csv, datetime, glob, os, re, sys

out, results = sys.argv[1], sys.argv[2]
plain = {os.path.basename(r['file']): float(r['wall_seconds'])
         for r in csv.DictReader(open(results)) if r['mode'] == 'plain'}
unit = {'ms': 1e-3, 'µs': 1e-6, 's': 1.0}
n = wall = first = solve = plain_sum = 0
for log in sorted(glob.glob(os.path.join(out, '*.log'))):
    name = os.path.basename(log)[:-4]
    start, end = map(float, open(log[:-4] + '.time').read().split())
    lines = [l for l in open(log).read().splitlines() if 'checked' in l]
    if not lines or name not in plain:
        continue
    l = lines[0]
    ts = datetime.datetime.strptime(l.split()[0], '%Y-%m-%dT%H:%M:%S.%fZ')
    ts = ts.replace(tzinfo=datetime.timezone.utc).timestamp()
    m = re.search(r'time="?([\d.]+)(ms|µs|s)', l)
    n += 1
    wall += end - start
    first += ts - start
    solve += float(m.group(1)) * unit[m.group(2)]
    plain_sum += plain[name]
print(f'tasks: {n}')
print(f'plain, total time (from {results}): {plain_sum:.1f} s; one tenth: {plain_sum / 10:.1f} s')
print(f'cegpv, total wall time of these runs: {wall:.1f} s')
print(f'cegpv, start to the first answer on the first abstraction: {first:.1f} s '
      f'({first / (plain_sum / 10):.1f}x one tenth of plain), of which the first solve {solve:.1f} s')
