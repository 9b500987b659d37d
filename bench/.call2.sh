# Device call 2 (2026-11-25): Nsight Compute on softmax (#22) while the new drills are
# checked (no timing during ncu), then paged_attention_decode and the new drills timed alone.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh
mkdir -p $OUT/r/checks $OUT/r/bench /tmp/sh
T0=$(date +%s)
( OUT=$OUT/r/ncu TIMEOUT=200 PROFILE_SIDE_S=90 bash bench/ncu_gpu.sh > $OUT/r/ncu_stdout.txt 2>&1 ) &
NCU=$!
for d in ${CHECK_DRILLS}; do
  timeout 240 python -m studio.drills.cli run $d @solution --json > $OUT/r/checks/$d.json 2> $OUT/r/checks/$d.err
  python - $d <<'PY'
import json,os,sys
d=sys.argv[1]
try:
    r=json.load(open(os.environ['OUT']+f'/r/checks/{d}.json'))
    print(d, r['status'], sum(c['passed'] for c in r['cases']), '/', len(r['cases']), [c['name'] for c in r['cases'] if not c['passed']][:6], (r.get('error') or {}).get('message','')[:300] if r.get('error') else '')
except Exception as e:
    print(d, 'no result', e)
PY
done
echo "checks done at $(( $(date +%s) - T0 )) s"
wait $NCU
echo "ncu done at $(( $(date +%s) - T0 )) s"; tail -40 $OUT/r/ncu_stdout.txt
for d in ${BENCH_DRILLS}; do
  left=$(( 560 - ($(date +%s) - T0) ))
  [ $left -lt 30 ] && { echo "no time left for $d"; continue; }
  timeout $left python -m studio.drills.cli run $d @solution --bench --json > $OUT/r/bench/$d.json 2> $OUT/r/bench/$d.err
  python - $d <<'PY'
import json,os,sys
d=sys.argv[1]
try:
    r=json.load(open(os.environ['OUT']+f'/r/bench/{d}.json'))
    print(d, r['status'], 'copy', r['bench'].get('copy_gbps'))
    for p in r['bench']['points']:
        print('  ', p['size'], p['dtype'], 'pct', None if p.get('pct_of_peak') is None else round(p['pct_of_peak'],1), 'x torch', None if p.get('speedup') is None else round(p['speedup'],2), p.get('invalid') or '')
except Exception as e:
    print(d, 'no result', e)
PY
  echo "$d done at $(( $(date +%s) - T0 )) s"
done
cd $OUT && tar czf r.tgz r && rm -rf r
