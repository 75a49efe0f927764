#!/usr/bin/env bash
# End-to-end test of `schedmate agent slurm` against a real SLURM cluster
# started here (scripts/slurm_cluster.sh, 4 nodes x 2 fake GPUs, in a temp
# dir). Real sbatch jobs run tests/agent/job_repo/train.py, which prints
# training progress; a GPU fault is injected by writing $FAULT_DIR/<node>,
# a file the job reads (its "hardware") and the agent's node-side health
# check reads too (`test ! -e $FAULT_DIR/{node}`).
#
#   1. shadow: a finished job, a user error (KeyError) and an ECC failure;
#      `agent --once` advises, records, diagnoses and plans the drain and
#      requeue, and `scontrol show job/node` is the same before and after.
#   2. enforce: the agent runs with --interval 1 while a renamed copy of the
#      finished job (estimate from its history, written to its comment), a
#      second user error (reported, never requeued) and a second ECC failure
#      (its node drained, the job requeued and completed on another node) run.
#
# Usage: slurm_e2e.sh SCHEDMATE_BIN. Exit 77 (CTest SKIP) without root or SLURM.
set -euo pipefail

bin=$(realpath "${1:?usage: slurm_e2e.sh SCHEDMATE_BIN}")
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/support/slurm_prereqs.sh"
require_slurm

work=$(mktemp -d /tmp/schedmate-slurm-e2e.XXXXXX)
agent_pid=""
serve_pid=""
cleanup() {
  local rc=$?
  [[ -n $agent_pid ]] && kill "$agent_pid" 2>/dev/null && wait "$agent_pid" 2>/dev/null
  [[ -n $serve_pid ]] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  bash "$root/scripts/slurm_cluster.sh" stop --dir "$work/cluster" >/dev/null 2>&1 || true
  if [[ $rc -eq 0 ]]; then rm -rf "$work"; else echo "e2e: FAILED, files kept in $work" >&2; fi
}
trap cleanup EXIT

fail() { echo "e2e: FAIL: $*" >&2; exit 1; }
ok() { echo "e2e: ok: $*"; }
t0=$(date +%s)

eval "$(bash "$root/scripts/slurm_cluster.sh" start --dir "$work/cluster" --nodes 4 --gpus 2 --port 17100)"
export SLURM_CONF
repo=$work/repo
cp -r "$root/tests/agent/job_repo" "$repo"
mkdir -p "$work/faults" "$work/logs"

submit() {  # NAME SCRIPT
  (cd "$repo" && sbatch --parsable -J "$1" --open-mode=append -o "$work/logs/%x-%j.log" \
    --export=ALL,FAULT_DIR="$work/faults" "$2")
}
field() { scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }
wait_state() {  # JOB REGEX SECONDS
  local s=""
  for _ in $(seq $((${3} * 5))); do
    s=$(field "$1" JobState)
    [[ $s =~ ^($2)$ ]] && return 0
    sleep 0.2
  done
  fail "job $1 is $s, not $2, after $3 s"
}
agent_flags=(--history "$work/history.db" --state "$work/state.json" --audit "$work/audit.jsonl"
             --health-check "test ! -e $work/faults/{node}" --json)
# scontrol's view without what changes by itself (times, load, memory).
snapshot() {
  { for j in "$@"; do scontrol show job "$j"; done; scontrol show node; } |
    sed -E 's/[A-Za-z]*Time=[^ ]*//g; s/(CPULoad|FreeMem|AllocMem|RealMemory)=[^ ]*//g'
}
inject_fault_when_running() {  # JOB → prints the node
  wait_state "$1" RUNNING 30
  local node
  node=$(field "$1" NodeList)
  touch "$work/faults/$node"
  echo "$node"
}
has_event() {  # FILE JQ-LIKE PYTHON EXPRESSION over e
  python3 - "$1" "$2" <<'EOF'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if any(eval(sys.argv[2], {}, {"e": e}) for e in events) else 1)
EOF
}

# ---- 1. shadow mode ----
a=$(submit resnet-a job.sh)
u=$(submit bad-key job_bad_key.sh)
e=$(submit resnet-ecc job_ecc.sh)
node_e=$(inject_fault_when_running "$e")
wait_state "$a" COMPLETED 40
wait_state "$u" FAILED 40
wait_state "$e" FAILED 40
before=$(snapshot "$a" "$u" "$e")
"$bin" agent slurm "${agent_flags[@]}" --once >"$work/shadow.jsonl"
after=$(snapshot "$a" "$u" "$e")
[[ $before == "$after" ]] || { diff <(echo "$before") <(echo "$after") >&2; fail "shadow mode changed SLURM"; }
ok "shadow: scontrol show job/node identical before and after (jobs $a $u $e, $(grep -c . <<<"$before") lines)"
has_event "$work/shadow.jsonl" "e['event']=='recovery' and e['job']=='$e' and e['shadow'] and e['plan']['automatic']" ||
  fail "shadow: no planned recovery for the ECC job $e"
has_event "$work/audit.jsonl" "e.get('job')=='$e' and e.get('step')=='isolate_node' and e.get('decision')=='shadow'" ||
  fail "shadow: the would-be drain of $node_e is not audited"
has_event "$work/shadow.jsonl" "e['event']=='ended' and e['job']=='$u' and e['end_reason']=='failed_user'" ||
  fail "shadow: the KeyError job $u is not a user failure"
has_event "$work/shadow.jsonl" "e['event']=='ended' and e['job']=='$a' and e['history'].startswith('recorded')" ||
  fail "shadow: the finished job $a was not recorded in history"
ok "shadow: ECC job $e -> drain $node_e + requeue planned and audited, not done; $u failed_user; $a in history"
rm -f "$work/faults/$node_e"  # the "hardware" was repaired before the next phase

# ---- 2. enforce mode ----
# History answers "as of" the submit time, on SLURM's whole seconds, and a
# record completed in the very second of the submit does not count (it could
# be the future). The renamed copy must be submitted after $a's end second.
while (( $(date +%s) <= $(date -d "$(field "$a" EndTime)" +%s) )); do sleep 0.2; done
# The service whose dashboard shows the agent's jobs (agent --report-to).
(umask 077; echo "e2e-dashboard-token-0123456789" > "$work/token")
"$bin" serve --port 0 --history "$work/serve-history.db" --token-file "$work/token" >"$work/serve.out" 2>&1 &
serve_pid=$!
for _ in $(seq 50); do grep -q "listening on" "$work/serve.out" && break; sleep 0.1; done
serve_url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/serve.out" | head -1)
[[ -n $serve_url ]] || fail "schedmate serve did not start: $(cat "$work/serve.out")"
"$bin" agent slurm "${agent_flags[@]}" --interval 1 --enforce comment,priority,drain,requeue \
  --report-to "$serve_url" --report-token-file "$work/token" \
  >"$work/enforce.jsonl" 2>"$work/agent.err" &
agent_pid=$!
c=$(submit resnet-copy job.sh)
u2=$(submit bad-key-2 job_bad_key.sh)
e2=$(submit resnet-ecc-2 job_ecc.sh)
node_e2=$(inject_fault_when_running "$e2")
wait_state "$u2" FAILED 40
wait_state "$c" COMPLETED 40
for _ in $(seq 60); do  # failed on $node_e2, drained, requeued, run again elsewhere
  [[ $(field "$e2" Restarts) -ge 1 && $(field "$e2" JobState) == COMPLETED ]] && break
  sleep 1
done
sleep 2  # one more poll sees the final states
kill "$agent_pid"
wait "$agent_pid" || true
agent_pid=""

[[ $(field "$e2" JobState) == COMPLETED ]] || fail "requeued ECC job $e2 is $(field "$e2" JobState)"
[[ $(field "$e2" Restarts) == 1 ]] || fail "ECC job $e2 restarted $(field "$e2" Restarts) times, not once"
[[ $(field "$e2" NodeList) != "$node_e2" ]] || fail "ECC job $e2 ran again on the faulty $node_e2"
scontrol show node "$node_e2" | grep -q "State=[A-Z+]*DRAIN" || fail "$node_e2 is not drained"
scontrol show node "$node_e2" | grep -q "Reason=schedmate" || fail "$node_e2 has no schedmate drain reason"
ok "enforce: $node_e2 drained ($(scontrol show node "$node_e2" | sed -n 's/.*Reason=\(.\{0,60\}\).*/\1/p')), job $e2 requeued and COMPLETED on $(field "$e2" NodeList)"

[[ $(field "$u2" JobState) == FAILED && $(field "$u2" Restarts) == 0 ]] || fail "user-error job $u2 was retried"
has_event "$work/enforce.jsonl" "e['event']=='recovery' and e['job']=='$u2' and not e['plan']['automatic'] and not any('restart' in x for x in e['executed'])" ||
  fail "user-error job $u2: no report-only recovery"
ok "enforce: user-error job $u2 reported ($(grep -o '"KeyError[^"]*' "$work/enforce.jsonl" | head -1 | tr -d '"')), not retried"

has_event "$work/enforce.jsonl" "e['event']=='advise' and e['job']=='$c' and e['estimate']['method']=='history' and any(m['id']=='slurm-$a' for m in e['estimate']['matches'])" ||
  fail "renamed copy $c got no estimate from the history of $a"
comment=$(scontrol show job "$c" | sed -n 's/.*Comment=\(.*\)/\1/p')
[[ $comment == *"schedmate estimate"*"slurm-$a"* ]] || fail "job $c's comment is '$comment'"
ok "enforce: renamed copy $c (resnet-copy) estimated from slurm-$a; comment '$comment'"

has_event "$work/enforce.jsonl" "e['event']=='progress' and e['job']=='$c' and (e['progress'].get('step') or 0) > 0" ||
  fail "no progress tracked for the running job $c"
ok "enforce: progress tracked incrementally ($(grep -c '"event":"progress"' "$work/enforce.jsonl") progress events)"
# The dashboard's book holds what the agent reported: the copy's estimate
# from slurm-$a and its progress, the ECC job's failure with its located lines.
curl -s "$serve_url/v1/jobs" >"$work/jobs.json"
python3 - "$work/jobs.json" "$c" "$a" "$e2" <<'EOF2' || fail "the dashboard does not show the agent's jobs: $(head -c 600 "$work/jobs.json")"
import json, sys
jobs = {j["job_id"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
c, a, e2 = ("slurm-" + x for x in sys.argv[2:5])
advice = jobs[c]["advice"]
assert advice["estimate"]["method"] == "history" and any(m["id"] == a for m in advice["estimate"]["matches"]), advice
assert (jobs[c]["progress"] or {}).get("step", 0) > 0, jobs[c]["progress"]
failure = jobs[e2]["failure"]
assert failure["error_type"] == "infrastructure" and "ECC" in failure["root_cause_line"], failure
assert any(l["root"] for l in failure["context"]), failure["context"]
EOF2
ok "dashboard: $(python3 -c "import json; print(len(json.load(open('$work/jobs.json'))['jobs']))") jobs reported by the agent to $serve_url (copy $c estimated from slurm-$a with progress; ECC job $e2's failure with its located lines)"
ok "audit: $(grep -c . "$work/audit.jsonl") records; all done in $(($(date +%s) - t0)) s"
