# Device call 4 (2026-11-25, kind nvidia-h100-x2): every parallelism drill's reference
# solution on 2 GPUs through NCCL (issue #25), then the bandwidth sweeps (1 MB .. 1 GB)
# against the library collectives. NVLink multicast stays off, here and in every rank.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p $OUT/r /tmp/sh
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nvidia-smi topo -m | head -4
python -c "import torch, torch.distributed as d; print('torch', torch.__version__, 'nccl', torch.cuda.nccl.version(), 'gpus', torch.cuda.device_count())"
summ() { python - "$1" <<'PY'
import json,sys
try: r=json.load(open(sys.argv[1]))
except Exception as e: print(sys.argv[1], 'no result', e); sys.exit()
bad=[c['name'] for c in r['cases'] if not c['passed']]
print(r['drill'], r['status'], 'backend', r.get('backend'), 'ws', r.get('world_size'), sum(c['passed'] for c in r['cases']), '/', len(r['cases']), bad[:4], ((r.get('error') or {}).get('message') or '')[:300])
if bad: print('   first failure:', ([c for c in r['cases'] if not c['passed']][0].get('error') or '')[-400:])
for p in r['bench']['points']:
    print('   ', p['size'], p['dtype'], 'busbw', round(p.get('gbps') or 0,1), 'lib', round(p.get('ref_gbps') or 0,1), 'ratio', round((p.get('gbps') or 0)/max(p.get('ref_gbps') or 1e-9,1e-9),2), p.get('error') or '')
PY
}
for d in ring_allreduce ring_allgather ring_reduce_scatter moe_all_to_all tp_mlp zero1_adam pipeline_1f1b ring_attention; do
  timeout 75 python -m studio.drills.cli run $d @solution --world-size 2 --json --timeout 70 > $OUT/r/$d.json 2> $OUT/r/$d.err
  summ $OUT/r/$d.json; echo "  ($d at $(el) s)"
done
for d in ring_allreduce ring_allgather ring_reduce_scatter; do
  left=$(( 540 - $(el) )); [ $left -lt 40 ] && { echo "no time for $d bench"; continue; }
  timeout $left python -m studio.drills.cli run $d @solution --world-size 2 --bench --json --timeout $((left-5)) > $OUT/r/bench_$d.json 2> $OUT/r/bench_$d.err
  summ $OUT/r/bench_$d.json; echo "  ($d bench at $(el) s)"
done
cd $OUT && tar czf r.tgz r && rm -rf r
