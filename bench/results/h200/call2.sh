#!/usr/bin/env bash
# H200 call 2 (2026-11-28, device kind nvidia-h200), from the repository root (the device tool sets OUT):
#   bash bench/results/h200/call2.sh      (carry: .sshcarry = Debian 12's ssh, sshd, ssh-keygen + their libs)
# 1. --bench of dropout, fp8_quant, fused_adamw after the timing fixes of 37f467e, and of flash_decoding (new);
# 2. the SSH target on the GPU: a real sshd on 127.0.0.1 (the image has no OpenSSH: the carried binaries run
#    through wrappers that set LD_LIBRARY_PATH for them alone), bench/remote_gpu.py: doctor, the GPU's name,
#    a CUDA drill, a CUDA starter, a timed Triton drill and a 2-rank parallelism drill, each remote and local.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/bench $STUDIO_HOME; T0=$(date +%s)
one() { local d=$1; shift; local s=$(date +%s)
  timeout 200 python3 -m studio.drills.cli run $d @solution --json --timeout 190 --bench "$@" > $R/bench/$d.json 2>$R/bench/$d.stderr
  echo "bench $d rc=$? $(( $(date +%s)-s ))s" >> $R/log.txt; }
for d in flash_decoding dropout fp8_quant fused_adamw; do one $d; done
echo "bench done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
# --- SSH on the GPU machine
id sshd >/dev/null 2>&1 || useradd -r -M -d /run/sshd -s /usr/sbin/nologin sshd
mkdir -p /tmp/sshbin
for b in ssh sshd ssh-keygen; do
  printf '#!/bin/sh\nLD_LIBRARY_PATH=%s/.sshcarry/lib exec %s/.sshcarry/real/%s "$@"\n' "$PWD" "$PWD" $b > /tmp/sshbin/$b
  chmod +x /tmp/sshbin/$b
done
export PATH=/tmp/sshbin:$PATH
P=$(command -v python3)
env | grep -E '^(LD_LIBRARY_PATH|PATH|CUDA[A-Z_]*|NCCL_[A-Z_]*|TORCH_[A-Z_]*|NVSHMEM_[A-Z_]*|NVIDIA_[A-Z_]*|CC|CXX)=' \
  | sed -e 's/^\([^=]*\)=\(.*\)$/export \1="\2"/' > /tmp/remote_env.sh
printf '#!/bin/sh\n. /tmp/remote_env.sh\nexec %s "$@"\n' "$P" > /tmp/remote_python; chmod +x /tmp/remote_python
timeout 330 python3 bench/remote_gpu.py --python /tmp/remote_python --out $R/ssh > $R/ssh.txt 2>&1
echo "ssh rc=$? done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - $R > $R/summary.txt 2>&1 <<'PY'
import json, sys, pathlib
root = pathlib.Path(sys.argv[1])
for f in sorted((root / "bench").glob("*.json")):
    try:
        d = json.loads(f.read_text())
    except Exception as exc:
        print(f.stem, "NO JSON", (root / "bench" / (f.stem + ".stderr")).read_text()[-400:].replace("\n", " | ")); continue
    cases = d.get("cases") or []
    bad = [c.get("name") for c in cases if not c.get("passed")]
    err = d.get("error") or {}
    print(f.stem, d.get("status"), f"cases {len(cases)-len(bad)}/{len(cases)}", ("FAILED %s" % bad[:6]) if bad else "",
          ("error " + str(err.get("message", err))[:400]) if err else "")
    for p in (d.get("bench") or {}).get("points") or []:
        ms, ref = p.get("ms") or 0, p.get("ref_ms") or 0
        print("   ", p.get("size"), p.get("dtype"), "ok" if p.get("passed") else "NOT", "us %.1f ref %.1f" % (ms * 1e3, ref * 1e3),
              "GB/s %.0f" % (p.get("gbps") or 0), "pct %.1f" % (p.get("pct_of_peak") or 0), "x%.2f" % (ref / ms if ms else 0),
              str(p.get("invalid") or p.get("error") or "")[:300])
PY
cd $OUT && tar czf h200_call2.tgz r && rm -rf r
