# Task-by-task comparison of two bench results.csv files: every task whose verdict or status differs,
# and the CPU/wall totals. Usage: python3 cmp.py BEFORE.csv AFTER.csv
import csv,sys
a={(r['file'].split('sv-comp15/')[-1].split('sv-comp-new/')[-1],r['mode']):r for r in csv.DictReader(open(sys.argv[1]))}
b={(r['file'].split('sv-comp15/')[-1].split('sv-comp-new/')[-1],r['mode']):r for r in csv.DictReader(open(sys.argv[2]))}
ca=cb=0;wa=wb=0
for k in sorted(set(a)|set(b)):
    x,y=a.get(k),b.get(k)
    if not x or not y: print('missing',k); continue
    ca+=float(x['cpu_seconds'] or 0); cb+=float(y['cpu_seconds'] or 0)
    wa+=float(x['wall_seconds'] or 0); wb+=float(y['wall_seconds'] or 0)
    if x['verdict']!=y['verdict'] or x['status']!=y['status']:
        print(k[1],k[0],'|',x['verdict'],x['status'],x['wall_seconds'],x['cpu_seconds'],'->',y['verdict'],y['status'],y['wall_seconds'],y['cpu_seconds'],y['reason'][:80])
print('cpu %.0f -> %.0f, wall %.0f -> %.0f'%(ca,cb,wa,wb))
