#!/usr/bin/env bash
# One short GPU check of the decode benchmark, for a borrowed Linux GPU machine (no network, ≤ 10 min).
# Needs: Node ≥ 20 on the machine and out/gpu-bench/ (made by prepare-gpu-bundle.sh, carried with the tree).
# Picks the first GPU provider that really runs the reference decoder (CUDA if its libraries happen to be there,
# else WebGPU through Vulkan), else CPU; writes everything to $OUT (default /tmp/recto-gpu-check).
# Usage (repo root): bash bench/decode/gpu-check.sh
set -u
OUT=${OUT:-/tmp/recto-gpu-check}
mkdir -p "$OUT"
B=out/gpu-bench
PACKS=${PACKS:-/tmp/recto-vlm-packs}
summary() { echo "$*" | tee -a "$OUT/summary.txt"; }

{
  date -u; uname -a
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 || echo "nvidia-smi: not available"
  echo "vulkan ICDs:"; ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d 2>&1
  ldconfig -p 2>/dev/null | grep -Ei 'libvulkan|libcudart|libcublas|libcudnn' || echo "no vulkan/cuda libs in ldconfig"
  echo "node: $(node --version 2>&1)"
} > "$OUT/env.txt" 2>&1

if ! command -v node >/dev/null; then summary "no node on this machine: no run"; exit 0; fi
if [ ! -f "$B/bench.mjs" ]; then summary "missing $B/bench.mjs: run prepare-gpu-bundle.sh here first and carry out/gpu-bench"; exit 0; fi

timeout 90 node "$B/bench.mjs" --probe --packs "$PACKS" > "$OUT/probe.json" 2> "$OUT/probe.err"
PROVIDER=$(node -e 'try { const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const ok = r.find((p) => p.ok); console.log(ok ? ok.provider : "cpu"); } catch { console.log("cpu"); }' "$OUT/probe.json")
summary "provider chosen: $PROVIDER (probe: $OUT/probe.json)"

# Reference packs (toy size): lossless check + acceptance + overheads on the chosen provider.
timeout 150 node "$B/bench.mjs" --provider "$PROVIDER" --packs "$PACKS" --json "$OUT/bench-toy-$PROVIDER.json" \
  > "$OUT/bench-toy-$PROVIDER.txt" 2> "$OUT/bench-toy-$PROVIDER.err"
summary "toy bench rc=$? → $OUT/bench-toy-$PROVIDER.txt"

# Shape-faithful pack (DeepSeek-OCR decoder dims, random weights; generated here, ~3.7 GB in $PACKS).
timeout 330 node "$B/bench.mjs" --real-size --skip-moe --provider "$PROVIDER" --tokens 32 --packs "$PACKS" \
  --json "$OUT/bench-real-$PROVIDER.json" > "$OUT/bench-real-$PROVIDER.txt" 2> "$OUT/bench-real-$PROVIDER.err"
summary "real-size bench rc=$? (124 = timed out) → $OUT/bench-real-$PROVIDER.txt"
cat "$OUT"/bench-*.txt 2>/dev/null
