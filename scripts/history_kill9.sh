#!/usr/bin/env bash
# kill -9 `schedmate history import` RUNS times at random moments and check,
# after each, that the SQLite history passes PRAGMA integrity_check, that the
# killed import left none or all of its RECORDS records, and that every record
# committed before it is still there (issue 16). Each run imports fresh job ids.
# tests/cli/history_import_test.cc runs the same check 5 times.
# Usage: scripts/history_kill9.sh [RUNS=100] [RECORDS=10000] [SEED=16]
#        (SCHEDMATE=path/to/schedmate, default build/bin/schedmate)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100}
records=${2:-10000}
RANDOM=${3:-16}
bin=$(realpath "${SCHEDMATE:-build/bin/schedmate}")
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 command-line shell (apt-get install sqlite3)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/h.db

# RECORDS records in the export format with 256-float fingerprints, ids base-<i>.
python3 - "$records" >"$work/base.jsonl" <<'EOF'
import json, sys
for i in range(int(sys.argv[1])):
    print(json.dumps({"schema_version": 1, "job_id": f"base-{i}", "completed_at_s": 1000 + i, "duration_s": 60,
                      "metadata_json": '{"model_name":"gpt2","dataset":"owt"}',
                      "fingerprint": [0.25 + i % 7] * 256}, separators=(",", ":")))
EOF
count() { sqlite3 "$db" "SELECT COUNT(*) FROM records$1"; }

start=$(date +%s%N)
"$bin" history --history "$db" import "$work/base.jsonl" >/dev/null
full=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.3f", ns / 1e9 }')
committed=$(count "")
echo "uninterrupted import of $records records: ${full} s; kills at uniform random moments in [0, 1.1 x that]"

none=0 all=0 bad=0 finished=0
for ((i = 1; i <= runs; i++)); do
  sed "s/\"job_id\":\"base-/\"job_id\":\"it$i-/" "$work/base.jsonl" >"$work/it.jsonl"
  "$bin" history --history "$db" import "$work/it.jsonl" >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v r=$RANDOM -v t="$full" 'BEGIN { printf "%.3f", r / 32768 * 1.1 * t }')"
  kill -9 "$pid" 2>/dev/null || finished=$((finished + 1))  # it had exited already
  wait "$pid" 2>/dev/null || true
  integrity=$(sqlite3 "$db" "PRAGMA integrity_check")
  mine=$(count " WHERE job_id LIKE 'it$i-%'")
  total=$(count "")
  if [[ $integrity != ok || $total -ne $((committed + mine)) || ($mine -ne 0 && $mine -ne $records) ]]; then
    echo "run $i: integrity '$integrity', $mine of $records imported, $total records (expected $committed + $mine)"
    bad=$((bad + 1))
  fi
  committed=$total
  if [[ $mine -eq 0 ]]; then none=$((none + 1)); else all=$((all + 1)); fi
done
echo "$runs runs: $((runs - bad)) with integrity ok, all or nothing, and no committed record lost;" \
     "$none left nothing, $all the whole import ($finished of them had finished before the kill);" \
     "$committed records at the end"
[[ $bad -eq 0 ]]
