#!/usr/bin/env bash
# Issue 18's standalone tables: every configs/standalone/*.json over seeds
# 1..SEEDS (default 3), plus the sensitivity sweeps on the Acme-like setting
# with EASY backfill (checkpoint interval, node-fault rate, the Handler's
# accuracy). Writes one summary.json per run under OUT (default
# docs/results/standalone) and OUT/README.md with means ± standard deviations
# beside the research's numbers (scripts/standalone_summary.py).
#   bash scripts/standalone_experiments.sh [--seeds N] [--out DIR] [--only NAME] [--no-sweeps]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=3 out=docs/results/standalone only="" sweeps=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --no-sweeps) sweeps=0; shift ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
bin=${SCHEDMATE:-build/bin/schedmate}
[[ -x "$bin" ]] || { echo "error: $bin not built (bash scripts/build.sh)" >&2; exit 2; }
mkdir -p "$out"
run() {  # name seed extra-args...
  local name=$1 seed=$2; shift 2
  local dir="$out/runs/$name-s$seed" t0=$SECONDS
  mkdir -p "$dir"
  "$bin" standalone --seed "$seed" --progress off --json "$@" > "$dir/summary.json"
  echo "$name seed $seed: $((SECONDS - t0)) s" >&2
}
for cfg in configs/standalone/*.json; do
  name=$(basename "$cfg" .json)
  [[ -n "$only" && "$name" != "$only" ]] && continue
  for seed in $(seq 1 "$seeds"); do run "$name" "$seed" --config "$cfg"; done
done
if [[ $sweeps == 1 && ( -z "$only" || "$only" == sweeps ) ]]; then
  for c in 0 1800 7200; do run "sweep-checkpoint-$c" 1 --config configs/standalone/acme_easy.json --checkpoint-interval "$c"; done
  for r in 0 0.001; do run "sweep-node-faults-$r" 1 --config configs/standalone/acme_easy.json --node-fault-rate "$r"; done
  run sweep-handler-accuracy 1 --config configs/standalone/acme_easy.json \
    --handler-error-rate 0 --handler-error-rate 0.1 --handler-error-rate 0.3 --handler-error-rate 0.5
fi
python3 scripts/standalone_summary.py "$out" > "$out/README.md"
echo "wrote $out/README.md" >&2
