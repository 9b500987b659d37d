set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh TORCH_CUDA_ARCH_LIST=9.0a MM_BUILD_ROOT=/tmp/mmroot
mkdir -p $OUT/r /tmp/sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T0=$(date +%s)
( python bench/cuda_matmul_wgmma.py --build-only > $OUT/r/build.txt 2>&1 ) &
( unset TORCH_CUDA_ARCH_LIST; timeout 400 python -m studio.drills.cli run matmul @solution-cuda --json > $OUT/r/matmul_cuda_check.json 2> $OUT/r/matmul_cuda_check.err ) &
wait
echo "builds done at $(( $(date +%s) - T0 )) s"; tail -5 $OUT/r/build.txt
python -c "import json;d=json.load(open('$OUT/r/matmul_cuda_check.json'));print('matmul cuda check:',d['status'],sum(c['passed'] for c in d['cases']),'/',len(d['cases']),d.get('builds'),d.get('error'))"
timeout 150 python -m studio.drills.cli run embedding_backward @solution --bench --json > $OUT/r/embedding_backward.json 2>$OUT/r/emb.err
python -c "import json;d=json.load(open('$OUT/r/embedding_backward.json'));print('embedding_backward:',d['status'],sum(c['passed'] for c in d['cases']),'/',len(d['cases']), [c['name'] for c in d['cases'] if not c['passed']])"
echo "emb done at $(( $(date +%s) - T0 )) s"
timeout 200 python bench/cuda_matmul_wgmma.py --out $OUT/r/wgmma.json 2>&1 | tail -40
echo "wgmma done at $(( $(date +%s) - T0 )) s"
( unset TORCH_CUDA_ARCH_LIST; timeout 150 python -m studio.drills.cli run matmul @solution-cuda --bench --json > $OUT/r/matmul_cuda_bench.json 2> $OUT/r/matmul_cuda_bench.err )
python - <<'PY'
import json,os
d=json.load(open(os.environ['OUT']+'/r/matmul_cuda_bench.json'))
print('matmul cuda bench:',d['status'], d.get('error'))
for p in d['bench']['points']:
    print(p.get('size'), p.get('dtype'), {k:p.get(k) for k in ('ms','ref_ms','speedup','tflops','pct_of_tflops_peak','passed','invalid')})
PY
echo "all done at $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf r.tgz r && rm -rf r
