#!/usr/bin/env bash
# Builds out/gpu-bench/: the decode benchmark as one ESM file plus onnxruntime-node (Linux x64 binaries only), small
# enough (~50 MB) to carry to a GPU machine that has Node ≥ 20 but no network and no node_modules.
# Usage (repo root, on this machine): bash bench/decode/prepare-gpu-bundle.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
B=out/gpu-bench
rm -rf "$B"
mkdir -p "$B/node_modules"
npx esbuild bench/decode/benchDecode.ts --bundle --platform=node --format=esm --target=node20 \
  --external:onnxruntime-node --outfile="$B/bench.mjs" --log-level=warning \
  --banner:js="import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);"
mkdir -p "$B/node_modules/onnxruntime-node/bin/napi-v6/linux"
cp node_modules/onnxruntime-node/package.json "$B/node_modules/onnxruntime-node/"
cp -r node_modules/onnxruntime-node/dist "$B/node_modules/onnxruntime-node/"
cp -r node_modules/onnxruntime-node/bin/napi-v6/linux/x64 "$B/node_modules/onnxruntime-node/bin/napi-v6/linux/"
cp -r node_modules/onnxruntime-common "$B/node_modules/"
du -sh "$B"
