#!/usr/bin/env bash
# Two `schedmate agent slurm` processes share one history through Redis
# (a real redis-server on a free loopback port) on a real SLURM cluster
# started here (scripts/slurm_cluster.sh, 2 nodes, partitions a and b, port
# 17400, its own temp dir — it runs beside the other SLURM e2e tests).
# Agent A watches partition a, agent B partition b; each has its own state
# file and its own guard ledger. Both start before any job exists.
#   1. a ResNet-50 job in partition a completes; agent A records slurm-<id>
#      in Redis; agent B never sees that job;
#   2. a renamed copy submitted to partition b gets agent B's estimate from
#      agent A's record (B's index was built before the record existed), and
#      the estimate lands in the copy's comment (B runs --enforce comment);
#   3. Redis holds both records; each ledger holds only its own agent's audit
#      (quotas and cool-downs are per ledger file — see docs/agent.md).
# Usage: shared_history_e2e.sh SCHEDMATE_BIN. Exit 77 (CTest SKIP) without root, SLURM or redis-server.
set -euo pipefail

bin=$(realpath "${1:?usage: shared_history_e2e.sh SCHEDMATE_BIN}")
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/support/slurm_prereqs.sh"
require_slurm redis-server redis-cli

work=$(mktemp -d /tmp/schedmate-shared-history-e2e.XXXXXX)
pids=()
redis_port=""
cleanup() {
  local rc=$?
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
  [[ -n $redis_port ]] && redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1
  bash "$root/scripts/slurm_cluster.sh" stop --dir "$work/cluster" >/dev/null 2>&1 || true
  if [[ $rc -eq 0 ]]; then rm -rf "$work"; else echo "shared history e2e: FAILED, files kept in $work" >&2; fi
}
trap cleanup EXIT
fail() { echo "shared history e2e: FAIL: $*" >&2; exit 1; }
ok() { echo "shared history e2e: ok: $*"; }
t0=$(date +%s)

redis_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
  --pidfile "$work/redis.pid" --dir "$work" --loglevel warning
for _ in $(seq 50); do redis-cli -p "$redis_port" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
history="redis://127.0.0.1:$redis_port/e2e"

eval "$(bash "$root/scripts/slurm_cluster.sh" start --dir "$work/cluster" --nodes 2 --gpus 2 --port 17400 --partitions a,b)"
export SLURM_CONF
repo=$work/repo
cp -r "$root/tests/agent/job_repo" "$repo"
mkdir -p "$work/logs"

start_agent() {  # NAME PARTITION FLAGS...
  "$bin" agent slurm --partition "$2" --history "$history" --ledger "$work/ledger-$1.db" \
    --state "$work/state-$1.json" --interval 0.5 --json "${@:3}" >"$work/agent-$1.jsonl" 2>"$work/agent-$1.err" &
  pids+=($!)
}
start_agent a a
start_agent b b --enforce comment

submit() {  # PARTITION NAME
  (cd "$repo" && sbatch --parsable -p "$1" -J "$2" --open-mode=append -o "$work/logs/%x-%j.log" job.sh)
}
field() { scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }
has_event() {  # FILE PYTHON-EXPRESSION over e
  python3 - "$1" "$2" <<'PY'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if any(eval(sys.argv[2], {}, {"e": e}) for e in events) else 1)
PY
}
wait_event() {  # FILE EXPRESSION SECONDS WHAT
  for _ in $(seq $(($3 * 5))); do has_event "$1" "$2" && return 0; sleep 0.2; done
  fail "$4 (no such event in $1 after $3 s)"
}

# ---- 1. agent A records a finished job of partition a ----
a=$(submit a resnet-a)
wait_event "$work/agent-a.jsonl" "e['event']=='ended' and e['job']=='$a' and e['history'].startswith('recorded slurm-$a')" 60 \
  "agent A did not record job $a"
ok "agent A (partition a) recorded job $a: $(redis-cli -p "$redis_port" --raw exists "e2e:rec:slurm-$a") record e2e:rec:slurm-$a in Redis"

# History answers as of the submit time in whole seconds; a record completed
# in the very second of the submit does not count. Submit after $a's end second.
while (( $(date +%s) <= $(date -d "$(field "$a" EndTime)" +%s) )); do sleep 0.2; done

# ---- 2. agent B estimates a renamed copy in partition b from it ----
c=$(submit b resnet-copy)
wait_event "$work/agent-b.jsonl" "e['event']=='advise' and e['job']=='$c'" 30 "agent B did not advise job $c"
has_event "$work/agent-b.jsonl" "e['event']=='advise' and e['job']=='$c' and e['estimate']['method']=='history' and any(m['id']=='slurm-$a' for m in e['estimate']['matches'])" ||
  fail "agent B's estimate of $c is not from slurm-$a: $(grep "\"job\":\"$c\"" "$work/agent-b.jsonl" | head -1)"
for _ in $(seq 25); do [[ $(field "$c" Comment) == *"slurm-$a"* ]] && break; sleep 0.2; done
comment=$(scontrol show job "$c" | sed -n 's/.*Comment=\(.*\)/\1/p')
[[ $comment == *"schedmate estimate"*"slurm-$a"* ]] || fail "job $c's comment is '$comment'"
! has_event "$work/agent-b.jsonl" "e.get('job')=='$a'" || fail "agent B handled job $a of partition a"
! has_event "$work/agent-a.jsonl" "e.get('job')=='$c'" || fail "agent A handled job $c of partition b"
ok "agent B (partition b, started before the record existed) estimated the renamed copy $c from slurm-$a; comment '$comment'"

# ---- 3. what is shared and what is not ----
[[ $(field "$c" JobState) =~ ^(PENDING|RUNNING|COMPLETING|COMPLETED)$ ]] || fail "job $c is $(field "$c" JobState)"
for _ in $(seq 150); do [[ $(field "$c" JobState) == COMPLETED ]] && break; sleep 0.2; done
wait_event "$work/agent-b.jsonl" "e['event']=='ended' and e['job']=='$c' and e['history'].startswith('recorded')" 30 \
  "agent B did not record job $c"
n=$(redis-cli -p "$redis_port" zcard e2e:by_completed)
[[ $n -eq 2 ]] || fail "Redis holds $n records, not 2 (slurm-$a by A, slurm-$c by B)"
audit_a=$("$bin" audit --history "$work/ledger-a.db" --json -n 1000)
audit_b=$("$bin" audit --history "$work/ledger-b.db" --json -n 1000)
grep -q "\"job\":\"$c\"" <<<"$audit_b" || fail "agent B's ledger has no audit of job $c"
! grep -q "\"job\":\"$c\"" <<<"$audit_a" || fail "agent A's ledger holds agent B's audit of $c"
ok "Redis holds 2 records (one per agent); ledgers are per agent: B's holds $(grep -c . <<<"$audit_b") audit records, A's none of B's"
echo "shared history e2e: all checks passed in $(($(date +%s) - t0)) s"
