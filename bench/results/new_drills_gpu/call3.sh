# Device call 3 (2026-11-25): the new drills' reference solutions checked (in parallel) and
# timed (one at a time) on the H100; the side-stream bad kernel under --bench; then the
# drills pane run live through Qt carried in .guicarry (bench/gui_device_env.sh).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh
mkdir -p $OUT/r/checks $OUT/r/bench $OUT/r/gui /tmp/sh
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
summ() {  # file
python - "$1" <<'PY'
import json,sys
try:
    r=json.load(open(sys.argv[1]))
except Exception as e:
    print(sys.argv[1], 'no result', e); sys.exit()
bad=[c['name'] for c in r['cases'] if not c['passed']]
print(r['drill'], r['status'], sum(c['passed'] for c in r['cases']), '/', len(r['cases']), bad[:5], (r.get('error') or {}).get('message','')[:300] if r.get('error') else '', [f['name'] for f in r.get('flags',[])])
if bad:
    c=[c for c in r['cases'] if not c['passed']][0]; print('   first failure:', (c.get('error') or '')[-600:])
for p in r['bench']['points']:
    print('  ', p['size'], p['dtype'], 'pct', None if p.get('pct_of_peak') is None else round(p['pct_of_peak'],1), 'tflops', None if p.get('tflops') is None else round(p['tflops'],1), 'x torch', None if p.get('speedup') is None else round(p['speedup'],2), p.get('invalid') or '')
PY
}
for d in $DRILLS; do
  ( timeout 330 python -m studio.drills.cli run $d @solution --json --timeout 300 > $OUT/r/checks/$d.json 2> $OUT/r/checks/$d.err ) &
done
wait
echo "checks done at $(el) s"
for d in $DRILLS; do summ $OUT/r/checks/$d.json; done
for d in $DRILLS; do
  python -c "import json,sys; r=json.load(open('$OUT/r/checks/$d.json')); sys.exit(0 if r['status']=='passed' else 1)" 2>/dev/null || { echo "skip bench $d (check did not pass)"; continue; }
  left=$(( ${BENCH_UNTIL:-330} - $(el) ))
  [ $left -lt 25 ] && { echo "no time left to bench $d"; continue; }
  timeout $left python -m studio.drills.cli run $d @solution --bench --json > $OUT/r/bench/$d.json 2> $OUT/r/bench/$d.err
  summ $OUT/r/bench/$d.json; echo "$d bench done at $(el) s"
done
timeout 90 python -m studio.drills.cli run softmax tests/drills/bad_kernels/softmax_side_stream.py --bench --json > $OUT/r/side_stream.json 2>$OUT/r/side_stream.err
summ $OUT/r/side_stream.json; echo "side stream done at $(el) s"
left=$(( 560 - $(el) ))
if [ $left -gt 60 ]; then
  source bench/gui_device_env.sh > $OUT/r/gui/env.txt 2>&1; cat $OUT/r/gui/env.txt | tail -5
  cp /tmp/gui/probe.png $OUT/r/gui/ 2>/dev/null
  GUI_PROFILE=1 timeout $left python bench/gui_live_gpu.py $OUT/r/gui softmax:triton matmul:cuda > $OUT/r/gui/run.txt 2>&1; tail -8 $OUT/r/gui/run.txt
fi
echo "all done at $(el) s"
cd $OUT && tar czf r.tgz r && rm -rf r
