#!/usr/bin/env bash
# One short GPU check of the decode benchmark, for a borrowed Linux GPU machine (no network, ≤ 10 min).
# Needs: Node ≥ 20 on the machine and out/gpu-bench/ (made by prepare-gpu-bundle.sh, carried with the tree).
# Runs on every GPU provider that really runs the reference decoder (CUDA if its libraries happen to be there,
# WebGPU through Vulkan) and says which are unavailable and why; with none, it runs CPU so the script itself is
# checked. Per provider: the reference packs (lossless check, bytes per step, step time vs context) and the real-size
# pack (steps/s per K and context, fraction of the memory-bandwidth bound). WebGPU runs the 'shared-buffer' packs,
# whose KV caches stay on the device (preferredOutputLocation 'gpu-buffer'); CUDA and CPU the 'views' packs.
# Writes everything to $OUT (default /tmp/recto-gpu-check); summary.txt first.
# Usage (repo root): bash bench/decode/gpu-check.sh
#   BUDGET_S (default 570) caps the whole run; TOY_ARGS (default none) goes to the reference-pack run and REAL_ARGS
#   (default "--tokens 16") to the real-size run. A CPU dry run on a busy machine:
#   TOY_ARGS="--repeats 1 --inputs 2" REAL_ARGS="--tokens 2 --context-reps 1" bash bench/decode/gpu-check.sh
set -u
OUT=${OUT:-/tmp/recto-gpu-check}
mkdir -p "$OUT"
B=out/gpu-bench
PACKS=${PACKS:-/tmp/recto-vlm-packs}
summary() { echo "$*" | tee -a "$OUT/summary.txt"; }
# One device call may run 600 s: every step gets at most what is left of 570 s.
DEADLINE=$((SECONDS + ${BUDGET_S:-570}))
budget() { local left=$((DEADLINE - SECONDS)); [ "$left" -lt "$1" ] && echo $((left > 5 ? left : 5)) || echo "$1"; }

{
  date -u; uname -a
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 || echo "nvidia-smi: not available"
  echo "vulkan ICDs:"; ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d 2>&1
  ldconfig -p 2>/dev/null | grep -Ei 'libvulkan|libcudart|libcublas|libcudnn' || echo "no vulkan/cuda libs in ldconfig"
  echo "node: $(node --version 2>&1)"
} > "$OUT/env.txt" 2>&1

if ! command -v node >/dev/null; then summary "no node on this machine: no run"; exit 0; fi
if [ ! -f "$B/bench.mjs" ]; then summary "missing $B/bench.mjs: run prepare-gpu-bundle.sh here first and carry out/gpu-bench"; exit 0; fi

timeout "$(budget 90)" node "$B/bench.mjs" --probe --packs "$PACKS" > "$OUT/probe.json" 2> "$OUT/probe.err"
# Every GPU provider that really ran the reference decoder (CUDA and WebGPU where present), else CPU.
PROVIDERS=$(node -e 'try { const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const ok = r.filter((p) => p.ok && (p.provider === "cuda" || p.provider === "webgpu")).map((p) => p.provider); console.log(ok.length ? ok.join(" ") : "cpu"); } catch { console.log("cpu"); }' "$OUT/probe.json")
# One line per GPU provider: available (and whether the caches stay on the device) or why not.
node -e 'try { for (const p of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))) console.log(`  ${p.provider}: ${p.ok ? "available" : "UNAVAILABLE"} — ${p.detail}`); } catch (e) { console.log(`  probe failed: ${e.message} (see probe.err)`); }' "$OUT/probe.json" | tee -a "$OUT/summary.txt"
[ "$PROVIDERS" = cpu ] && summary "no GPU provider runs here: running CPU only (a dry run of this script, not a GPU figure)"
summary "providers: $PROVIDERS (probe: $OUT/probe.json)"

# Device memory bandwidth (GB/s) for the bound steps/s ≤ bandwidth ÷ bytes read per step: BANDWIDTH_GBS if set,
# else the datasheet figure of the GPU nvidia-smi names (HBM/GDDR peak; unknown GPUs: no bound printed).
GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
bandwidth_of() {
  case "$1" in
    *H200*) echo 4800 ;; *H100*SXM*|*H100\ 80GB\ HBM3*) echo 3350 ;; *H100*) echo 2000 ;;
    *A100*80GB*) echo 2039 ;; *A100*) echo 1555 ;; *L40S*|*L40*) echo 864 ;; *L4*) echo 300 ;;
    *4090*) echo 1008 ;; *3090*) echo 936 ;; *A10*) echo 600 ;; *T4*) echo 320 ;; *V100*) echo 900 ;; *) echo "" ;;
  esac
}
BW=${BANDWIDTH_GBS:-$(bandwidth_of "$GPU_NAME")}
summary "GPU: ${GPU_NAME:-none}; bandwidth: ${BW:-unknown} GB/s"

for PROVIDER in $PROVIDERS; do
  FORM=views; [ "$PROVIDER" = webgpu ] && FORM=shared-buffer
  # The real-size figures first: generating that pack takes minutes of the budget; the toy run gets what is left.
  # Shape-faithful pack (jina-ocr-v1's decoder dims, random weights; generated here once per form, ~3.7 GB in $PACKS):
  # steps/s per K and context (100 … 2,000) and the fraction of the bandwidth bound.
  # shellcheck disable=SC2086 # REAL_ARGS is a list of arguments
  timeout "$(budget 300)" node "$B/bench.mjs" --real-size --skip-moe --provider "$PROVIDER" --cache-form "$FORM" \
    ${REAL_ARGS:---tokens 16} --packs "$PACKS" ${BW:+--bandwidth-gbs "$BW"} --json "$OUT/bench-real-$PROVIDER.json" \
    > "$OUT/bench-real-$PROVIDER.txt" 2> "$OUT/bench-real-$PROVIDER.err"
  summary "real-size bench on $PROVIDER ($FORM caches) rc=$? (124 = timed out) → $OUT/bench-real-$PROVIDER.txt"
  # Reference packs (toy size): lossless check, acceptance, bytes per step, step time vs context.
  # shellcheck disable=SC2086 # TOY_ARGS is a list of arguments
  timeout "$(budget 120)" node "$B/bench.mjs" --provider "$PROVIDER" --cache-form "$FORM" --packs "$PACKS" ${TOY_ARGS:-} \
    --json "$OUT/bench-toy-$PROVIDER.json" > "$OUT/bench-toy-$PROVIDER.txt" 2> "$OUT/bench-toy-$PROVIDER.err"
  summary "toy bench on $PROVIDER ($FORM caches) rc=$? (124 = timed out) → $OUT/bench-toy-$PROVIDER.txt"
done
cat "$OUT"/bench-*.txt 2>/dev/null
