#!/usr/bin/env bash
# Issue 17's Sia tables, one `schedmate sia` process per workload file so a
# stopped run resumes where it was (a file whose output exists is skipped;
# --force reruns). Parts (--only, comma-separated; default: all):
#   philly, saturn, newtrace  plain Sia and Sia + schedmate (configs/sia/<name>.json)
#                             -> OUT/runs/<name>/<file>.txt
#   scale                     the same on every workloads/scale/rate_N folder, Sia's
#                             64-GPU cluster (configs/sia/scale.json) -> OUT/runs/scale/rate_N/<file>.json
#   pollux                    the same on Pollux's workloads, workloads-0.5, -1.5, -2.0, -realistic
#                             (configs/sia/pollux.json) -> OUT/runs/pollux/<folder>/<file>.json
#   as_you_go                 plain Sia without profiling (--runs sia --bootstrap as_you_go) on
#                             philly, saturn, newtrace -> OUT/runs/as_you_go/<name>/<file>.json
#   prefer_current            both runs with --prefer-current (ties keep the current
#                             allocation) on philly, saturn, newtrace and scale rate_40,
#                             rate_50 -> OUT/runs/prefer_current/<name>/<file>.json
#   new                       scale, pollux, as_you_go
# --max-files N runs only the first N files of each folder (natural order); the
# README's tables say how many files each row has. Then writes OUT/README.md
# (scripts/sia_summary.py; default OUT docs/results/sia). CPU-heavy (~40-80 s
# per 160-job file, minutes per newtrace or rate_50 file); run it niced:
#   nice -n 10 bash scripts/sia_experiments.sh [--out DIR] [--only PARTS] [--max-files N] [--force]
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/results/sia only="all" force=0 max_files=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --max-files) max_files="$2"; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) sed -n 2,20p "$0"; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$max_files" =~ ^[0-9]+$ ]] || { echo "error: --max-files takes a number, not '$max_files'" >&2; exit 2; }
declare -A want=()
IFS=, read -ra parts <<< "$only"
for p in "${parts[@]}"; do
  case "$p" in
    all) for q in philly saturn newtrace scale pollux as_you_go prefer_current; do want[$q]=1; done ;;
    new) for q in scale pollux as_you_go; do want[$q]=1; done ;;
    philly|saturn|newtrace|scale|pollux|as_you_go|prefer_current) want[$p]=1 ;;
    *) echo "error: --only: unknown part '$p' (philly, saturn, newtrace, scale, pollux, as_you_go, prefer_current, new, all)" >&2; exit 2 ;;
  esac
done
bin=${SCHEDMATE:-build/bin/schedmate}
[[ -x "$bin" ]] || { echo "error: $bin not built (bash scripts/build.sh)" >&2; exit 2; }
shared=${SHARED:-../shared}
[[ -d "$shared/traces/sia/workloads" ]] || { echo "error: $shared/traces/sia/workloads not found (set SHARED)" >&2; exit 2; }

# run LABEL CONFIG DIR DEST_DIR EXT [flags...]: every CSV of DIR (at most --max-files).
run() {
  local label=$1 config=$2 dir=$3 dest_dir=$4 ext=$5; shift 5
  local files
  files=$(ls "$dir"/*.csv | sort -V)
  if [[ $max_files -gt 0 ]]; then files=$(head -n "$max_files" <<< "$files"); fi
  mkdir -p "$dest_dir"
  for f in $files; do
    local dest="$dest_dir/$(basename "$f" .csv).$ext" t0=$SECONDS
    if [[ $force == 0 && -s "$dest" ]]; then continue; fi
    "$bin" sia --shared "$shared" --config "$config" --workloads "$f" "$@" > "$dest.tmp"
    mv "$dest.tmp" "$dest"
    echo "$label $(basename "$f"): $((SECONDS - t0)) s" >&2
  done
}

for name in philly saturn newtrace; do
  if [[ -n "${want[$name]:-}" ]]; then
    run "$name" "configs/sia/$name.json" "$shared/traces/sia/workloads/$name" "$out/runs/$name" txt
  fi
done
if [[ -n "${want[scale]:-}" ]]; then
  for d in $(ls -d "$shared/traces/sia/workloads/scale"/rate_* | sort -V); do
    run "scale/$(basename "$d")" configs/sia/scale.json "$d" "$out/runs/scale/$(basename "$d")" json --json
  done
fi
if [[ -n "${want[pollux]:-}" ]]; then
  for d in workloads workloads-0.5 workloads-1.5 workloads-2.0 workloads-realistic; do
    run "pollux/$d" configs/sia/pollux.json "$shared/traces/pollux/$d" "$out/runs/pollux/$d" json --json
  done
fi
if [[ -n "${want[as_you_go]:-}" ]]; then
  for name in philly saturn newtrace; do
    run "as_you_go/$name" "configs/sia/$name.json" "$shared/traces/sia/workloads/$name" "$out/runs/as_you_go/$name" json \
      --runs sia --bootstrap as_you_go --json
  done
fi
if [[ -n "${want[prefer_current]:-}" ]]; then
  for name in philly saturn newtrace; do
    run "prefer_current/$name" "configs/sia/$name.json" "$shared/traces/sia/workloads/$name" \
      "$out/runs/prefer_current/$name" json --prefer-current --json
  done
  for r in rate_40 rate_50; do
    run "prefer_current/$r" configs/sia/scale.json "$shared/traces/sia/workloads/scale/$r" \
      "$out/runs/prefer_current/$r" json --prefer-current --json
  done
fi
python3 scripts/sia_summary.py "$out" "$shared" > "$out/README.md.tmp.$$"
mv "$out/README.md.tmp.$$" "$out/README.md"
echo "wrote $out/README.md" >&2
