#!/usr/bin/env bash
# Load on `schedmate serve` over 127.0.0.1 with Debian's wrk (issue 19):
#   steady  advise on a cached repository at a held RATE (default 1000/s) for
#           SECONDS (default 60): achieved rate, p50/p99, errors by kind.
#   burst   wrk at full speed with many connections against a lower submit
#           rate limit: how many 200/429/503 answers, and whether any timed out.
#   kill9   RUNS times: history writes (each id logged once it answered 201)
#           beside advise load, the server killed with SIGKILL mid-load; then
#           every committed id must be in the SQLite file, which must pass
#           PRAGMA integrity_check.
# wrk drives at full speed; to hold a rate the Lua script paces each wrk
# thread with a schedule (slot n at start + n / rate; delay() waits for the
# next free slot, read with clock_gettime through LuaJIT's FFI).
# Usage: bench/service_load.sh [steady|burst|kill9|all] (default all)
#        env: SCHEDMATE=path/to/schedmate (default build/bin/schedmate), RATE, SECONDS_STEADY,
#             SECONDS_BURST, RUNS, THREADS (wrk threads, default 2), CONNECTIONS (default 32)
set -euo pipefail
cd "$(dirname "$0")/.."
phase=${1:-all}
bin=$(realpath "${SCHEDMATE:-build/bin/schedmate}")
rate=${RATE:-1000}
steady_s=${SECONDS_STEADY:-60}
burst_s=${SECONDS_BURST:-10}
runs=${RUNS:-5}
threads=${THREADS:-2}
connections=${CONNECTIONS:-32}
command -v wrk >/dev/null || { echo "needs wrk (scripts/install_deps.sh installs it)"; exit 2; }
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 shell (apt-get install sqlite3)"; exit 2; }
work=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A small repository under the allowed root, and the token (mode 600).
mkdir -p "$work/root/repo"
cat >"$work/root/repo/train.py" <<'PY'
import argparse
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from datasets import load_dataset
p = argparse.ArgumentParser()
p.add_argument("--model_name_or_path", default="meta-llama/Meta-Llama-3-8B")
p.add_argument("--batch_size", type=int, default=8)
p.add_argument("--max_steps", type=int, default=1000)
args = p.parse_args()
model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
ds = load_dataset("tatsu-lab/alpaca")
targs = TrainingArguments(output_dir="out", per_device_train_batch_size=args.batch_size, max_steps=args.max_steps)
PY
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
(umask 077; echo "$token" >"$work/token")
advise_body="{\"repo\":\"$work/root/repo\",\"cmd\":\"torchrun --nproc_per_node 8 train.py --max_steps 5000\"}"

# start_server DB [serve flags…]: sets server_pid and port.
start_server() {
  local db=$1
  shift
  "$bin" serve --port 0 --history "$db" --allow-root "$work/root" --token-file "$work/token" "$@" \
    >"$work/server.out" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    port=$(grep -o '127\.0\.0\.1:[0-9]*' "$work/server.out" 2>/dev/null | cut -d: -f2 || true)
    [[ -n $port ]] && return 0
    sleep 0.05
  done
  echo "server did not start:"; cat "$work/server.out"; exit 1
}
# http METHOD PATH [BODY]: the reply body (python3, so no curl is needed).
http() {
  python3 - "$port" "$@" <<'PY'
import http.client, sys
port, method, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
conn.request(method, path, sys.argv[4] if len(sys.argv) > 4 else None, {"Content-Type": "application/json"})
r = conn.getresponse()
sys.stdout.write(r.read().decode())
sys.exit(0 if r.status < 300 else 1)
PY
}
stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# The wrk script: POST the advise body, optionally paced at RATE, counting
# statuses per thread and printing one summary line at the end.
cat >"$work/advise.lua" <<LUA
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } timespec_t;
int clock_gettime(int clk, timespec_t* ts);
]]
local ts = ffi.new("timespec_t")
local function now_ms()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$advise_body'
local threads = {}
function setup(thread) table.insert(threads, thread) end
local per_thread_rate = tonumber(os.getenv("PACE_RATE") or "0") / $threads
local start, slot = nil, 0
statuses = {}
function delay()
  if per_thread_rate <= 0 then return 0 end
  local t = now_ms()
  if start == nil then start = t end
  slot = slot + 1
  local due = start + slot * 1000 / per_thread_rate
  return due > t and math.floor(due - t) or 0
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local counts = {}
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do counts[status] = (counts[status] or 0) + n end
  end
  local parts = {}
  for status, n in pairs(counts) do table.insert(parts, status .. ":" .. n) end
  table.sort(parts)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d seconds=%.1f rate=%.1f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f " ..
                         "statuses=%s connect_errors=%d read_errors=%d write_errors=%d timeouts=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    table.concat(parts, ","), e.connect, e.read, e.write, e.timeout))
end
LUA

steady() {
  start_server "$work/steady.db"
  http POST /v1/advise "$advise_body" >/dev/null  # fills the cache
  echo "== steady: advise on a cached repository, paced at $rate/s for ${steady_s}s ($threads wrk threads, $connections connections)"
  PACE_RATE=$rate wrk -t"$threads" -c"$connections" -d"${steady_s}s" --timeout 5s -s "$work/advise.lua" \
    "http://127.0.0.1:$port/v1/advise" | grep RESULT
  http GET /metrics | grep -E '^schedmate_(advise_cache_total|channel_refusals_total)' || true
  stop_server
}

burst() {
  # A submit rate limit below what the server can do, so a full-speed burst must be refused, not queued.
  start_server "$work/burst.db" --channel submit:rate=500,burst=100
  echo "== burst: advise at full speed for ${burst_s}s, 128 connections, submit channel limited to 500/s"
  PACE_RATE=0 wrk -t"$threads" -c128 -d"${burst_s}s" --timeout 2s -s "$work/advise.lua" \
    "http://127.0.0.1:$port/v1/advise" | grep RESULT
  stop_server
}

# One kill: history writes logged when committed, advise load beside them, SIGKILL.
kill_once() {
  local i=$1 db=$work/kill.db
  start_server "$db"
  PACE_RATE=500 wrk -t1 -c8 -d30s --timeout 2s -s "$work/advise.lua" "http://127.0.0.1:$port/v1/advise" \
    >/dev/null 2>&1 &
  local wrk_pid=$!
  python3 - "$port" "$token" "$i" "$work/committed.txt" <<'PY' &
import http.client, json, sys
port, token, run, log = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
with open(log, "a") as out:
    for n in range(1000000):
        job = f"kill{run}-{n}"
        record = {"schema_version": 1, "job_id": job, "completed_at_s": 1000 + n, "duration_s": 60,
                  "metadata": {"model_name": "gpt2", "dataset": "owt"}, "fingerprint": [0.25] * 256}
        try:
            conn.request("POST", "/v1/history", json.dumps({"record": record}),
                         {"Content-Type": "application/json", "Authorization": "Bearer " + token})
            r = conn.getresponse()
            r.read()
        except Exception:
            break  # the server is gone
        if r.status == 201:
            out.write(job + "\n")
            out.flush()
PY
  local writer_pid=$!
  sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 1 + r / 32768 * 2 }')"
  kill -9 "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
  wait "$writer_pid" || true
  kill "$wrk_pid" 2>/dev/null || true
  wait "$wrk_pid" 2>/dev/null || true
}

kill9() {
  echo "== kill9: $runs runs of history writes + advise load, server killed with SIGKILL at a random moment in 1-3 s"
  : >"$work/committed.txt"
  local bad=0
  for ((i = 1; i <= runs; i++)); do
    kill_once "$i"
    sort -u "$work/committed.txt" >"$work/want.txt"
    sqlite3 "$work/kill.db" "SELECT job_id FROM records" | sort -u >"$work/have.txt"
    local integrity lost
    integrity=$(sqlite3 "$work/kill.db" "PRAGMA integrity_check")
    lost=$(comm -23 "$work/want.txt" "$work/have.txt" | wc -l)
    echo "run $i: $(wc -l <"$work/want.txt") records answered 201 so far, $(wc -l <"$work/have.txt") in the file," \
         "$lost lost, integrity $integrity"
    [[ $lost -eq 0 && $integrity == ok ]] || bad=$((bad + 1))
  done
  echo "kill9: $((runs - bad)) of $runs runs lost no committed record"
  [[ $bad -eq 0 ]]
}

case $phase in
  steady) steady ;;
  burst) burst ;;
  kill9) kill9 ;;
  all) steady; burst; kill9 ;;
  *) echo "unknown phase $phase (steady|burst|kill9|all)"; exit 2 ;;
esac
