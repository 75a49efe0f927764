#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) into ./build-fuzz and
# runs each for SECONDS (default 60) on its seed corpus (fuzz/corpus/).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET-NAME-FILTER]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
filter=${2:-}
bash scripts/install_deps.sh
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DSCHEDMATE_BUILD_TESTS=OFF -DSCHEDMATE_BUILD_BENCH=OFF \
  -DSCHEDMATE_BUILD_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
  >/dev/null
ninja -C build-fuzz $(cd build-fuzz && ninja -t targets all | grep -o '^fuzz_[a-z_]*' | sort -u)
declare -A corpus=([fuzz_csv_reader]=csv [fuzz_vc_config]=vc [fuzz_datetime]=datetime [fuzz_experiment_json]=json
                   [fuzz_progress_log]=logs [fuzz_log_files]=logs [fuzz_llm_answer]=llm
                   [fuzz_failure_log]=failures [fuzz_advisor_inputs]=advisor [fuzz_model_weights]=weights
                   [fuzz_slurm_json]=slurm [fuzz_service_requests]=service)
failed=0
for bin in build-fuzz/bin/fuzz_*; do
  name=$(basename "$bin")
  [[ -n $filter && $name != *$filter* ]] && continue
  seeds=fuzz/corpus/${corpus[$name]:-trace}
  work=build-fuzz/corpus/$name
  mkdir -p "$work"
  echo "== $name: ${seconds}s"
  if ! "$bin" "$work" "$seeds" -max_total_time="$seconds" -max_len=65536 \
       -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
       -artifact_prefix=build-fuzz/ 2>build-fuzz/$name.log; then
    echo "   FAILED: see build-fuzz/$name.log"; failed=1
  fi
  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' build-fuzz/$name.log | sed 's/^/   /'
done
exit $failed
