#!/usr/bin/env bash
# The decoder's GPU check lives with the other benchmarks: bench/decode/gpu-check.sh (this path is the one the issue
# names). Run from the repository root.
exec bash "$(dirname "$0")/../../../bench/decode/gpu-check.sh" "$@"
