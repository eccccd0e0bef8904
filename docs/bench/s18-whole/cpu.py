# CPU and wall time, per mode, on the tasks correct in both of two bench results.csv files.
# Usage: python3 cpu.py BEFORE.csv AFTER.csv
import csv,sys
def key(r): return (r['file'].split('sv-comp15/')[-1].split('sv-comp-new/')[-1],r['mode'])
a={key(r):r for r in csv.DictReader(open(sys.argv[1]))}
b={key(r):r for r in csv.DictReader(open(sys.argv[2]))}
for mode in ('plain','cegpv'):
    ks=[k for k in a if k[1]==mode and k in b and a[k]['status']=='correct' and b[k]['status']=='correct']
    ca=sum(float(a[k]['cpu_seconds']) for k in ks); cb=sum(float(b[k]['cpu_seconds']) for k in ks)
    wa=sum(float(a[k]['wall_seconds']) for k in ks); wb=sum(float(b[k]['wall_seconds']) for k in ks)
    print(f"{mode}: {len(ks)} tasks correct in both: cpu {ca:.1f}s -> {cb:.1f}s ({cb/ca:.2f}x), wall {wa:.1f}s -> {wb:.1f}s ({wb/wa:.2f}x)")
