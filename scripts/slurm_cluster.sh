#!/usr/bin/env bash
# A real SLURM cluster on this one machine: munge, slurmctld and N slurmd
# (one per fake node, `slurmd -N nodeK`) with G fake GPUs each, for the SLURM
# agent's end-to-end test and for trying `schedmate agent slurm` by hand.
#
#   scripts/slurm_cluster.sh start  [--nodes N] [--gpus G] [--dir DIR] [--port P] [--partitions A,B]
#   scripts/slurm_cluster.sh status [--dir DIR]
#   scripts/slurm_cluster.sh stop   [--dir DIR]
#
# Installs nothing (scripts/install_deps.sh does: slurmctld slurmd
# slurm-client munge). Needs root. Everything it writes lives under DIR
# (default /tmp/schedmate-slurm): slurm.conf, gres.conf, the fake GPU
# devices, spool, logs and pids.txt. slurmctld listens on 127.0.0.1:P
# (default 17000) and nodeK's slurmd on P+K, so two clusters need two --port
# values. Client commands find the cluster through SLURM_CONF, which `start`
# prints (`eval "$(… start)"` sets it). `stop` kills only the PIDs `start`
# recorded. Both are idempotent. --partitions splits the nodes evenly, in
# order, into these partitions (the first is the default; the rest of an
# uneven split goes to the last); without it there is one, "debug".
# Verified facts this follows: ../shared/notes/slurm-on-one-machine.md.
set -euo pipefail

action=${1:-}
[[ $# -gt 0 ]] && shift
nodes=4
gpus=2
dir=/tmp/schedmate-slurm
port=17000
partitions=debug
while [[ $# -gt 0 ]]; do
  case $1 in
    --nodes) nodes=${2:?--nodes needs a number}; shift 2 ;;
    --gpus) gpus=${2:?--gpus needs a number}; shift 2 ;;
    --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
    --port) port=${2:?--port needs a number}; shift 2 ;;
    --partitions) partitions=${2:?--partitions needs names}; shift 2 ;;
    *) echo "slurm_cluster: unknown option '$1'" >&2; exit 2 ;;
  esac
done

die() { echo "slurm_cluster: $*" >&2; exit 1; }
log() { echo "slurm_cluster: $*" >&2; }

[[ $nodes =~ ^[1-9][0-9]*$ && $nodes -le 64 ]] || die "--nodes must be 1..64, got '$nodes'"
[[ $partitions =~ ^[A-Za-z][A-Za-z0-9_]*(,[A-Za-z][A-Za-z0-9_]*)*$ ]] ||
  die "--partitions must be comma-separated names, got '$partitions'"
n_partitions=$(tr ',' '\n' <<<"$partitions" | wc -l)
((n_partitions <= nodes)) || die "--partitions: $n_partitions partitions for $nodes nodes"
[[ $gpus =~ ^[0-9]+$ && $gpus -le 16 ]] || die "--gpus must be 0..16, got '$gpus'"
[[ $port =~ ^[0-9]+$ && $port -ge 1024 && $port -le 65000 ]] || die "--port must be 1024..65000, got '$port'"
dir=$(realpath -m "$dir")
pids_file=$dir/pids.txt
conf=$dir/slurm.conf

# True when the PID in `pids.txt` line "NAME PID" is alive and is still that program.
alive() {
  local pid=$1 prog=$2
  [[ -d /proc/$pid ]] && grep -q "$prog" "/proc/$pid/cmdline" 2>/dev/null
}

running_pids() {
  [[ -f $pids_file ]] || return 0
  while read -r prog pid; do
    if alive "$pid" "$prog"; then echo "$prog $pid"; fi
  done <"$pids_file"
}

require_tools() {
  [[ $(id -u) -eq 0 ]] || die "must run as root (slurmd and munged need it)"
  local t
  for t in munged slurmctld slurmd sinfo scontrol; do
    command -v "$t" >/dev/null || [[ -x /usr/sbin/$t ]] ||
      die "'$t' is not installed: run scripts/install_deps.sh (slurmctld slurmd slurm-client munge)"
  done
}

ensure_munge() {
  if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  mkdir -p /run/munge
  chown munge:munge /run/munge
  # Clusters started or stopped at the same moment (tests side by side) take
  # turns: the first starts munged, the others find it answering; the lock is
  # held until this cluster's slurmctld runs, so a stop beside it sees that
  # slurmctld and hands munged over instead of killing it.
  exec {munge_lock}>/run/munge/.schedmate-start.lock
  flock "$munge_lock"
  if [[ -S /run/munge/munge.socket.2 ]] && munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    return 0  # a munged already answers (ours from an earlier start, another cluster's, or the system's)
  fi
  runuser -u munge -- /usr/sbin/munged || true  # lost a race with a munged not started here: the check below says
  local pid
  for _ in $(seq 50); do
    pid=$(cat /run/munge/munged.pid 2>/dev/null || true)
    if [[ -n $pid ]] && munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
      echo "munged $pid" >>"$pids_file"
      return 0
    fi
    sleep 0.1
  done
  die "munged did not start (see /var/log/munge/munged.log)"
}

write_config() {
  local host
  host=$(hostname -s)
  mkdir -p "$dir/spool" "$dir/log" "$dir/dev"
  local node_gres="" gres_line=""
  if [[ $gpus -gt 0 ]]; then
    node_gres=" Gres=gpu:$gpus"
    gres_line="GresTypes=gpu"
    local i
    # Fake GPUs: gres.conf File= must name device-like files; symlinks to /dev/null work.
    for ((i = 0; i < gpus; i++)); do ln -sfn /dev/null "$dir/dev/nvidia$i"; done
    echo "NodeName=node[1-$nodes] Name=gpu File=$dir/dev/nvidia[0-$((gpus - 1))]" >"$dir/gres.conf"
  else
    : >"$dir/gres.conf"
  fi
  local last_port=$((port + nodes))
  cat >"$conf" <<EOF
# Written by scripts/slurm_cluster.sh: $nodes fake nodes on $host, $gpus fake GPUs each.
ClusterName=schedmate
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.%n.log
SlurmdParameters=config_overrides
ReturnToService=1
SlurmdTimeout=30
MinJobAge=600
$gres_line
NodeName=node[1-$nodes] NodeHostname=$host NodeAddr=127.0.0.1 Port=[$((port + 1))-$last_port] CPUs=1$node_gres State=UNKNOWN
$(partition_lines)
EOF
  mkdir -p "$dir/spool/ctld"
}

# One PartitionName line per --partitions name, the nodes split evenly in order.
partition_lines() {
  local names count each first=1 k
  IFS=, read -ra names <<<"$partitions"
  count=${#names[@]}
  each=$((nodes / count))
  for ((k = 0; k < count; k++)); do
    local last=$(((k + 1) * each))
    ((k == count - 1)) && last=$nodes
    echo "PartitionName=${names[k]} Nodes=node[$((k * each + 1))-$last] Default=$([[ $k -eq 0 ]] && echo YES || echo NO) MaxTime=INFINITE State=UP"
  done
}

wait_idle() {
  local want=$1 n
  for _ in $(seq 150); do
    n=$(SLURM_CONF=$conf sinfo -h -N -o '%N %t' 2>/dev/null | awk '$2 == "idle" {c++} END {print c + 0}')
    [[ $n -ge $want ]] && return 0
    sleep 0.2
  done
  SLURM_CONF=$conf sinfo -N >&2 || true
  die "only ${n:-0} of $want nodes became idle within 30 s (logs in $dir/log)"
}

start() {
  require_tools
  if [[ -n $(running_pids) ]]; then
    log "already running in $dir (stop it first to change --nodes/--gpus)"
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  mkdir -p "$dir"
  : >"$pids_file"
  ensure_munge
  write_config
  setsid /usr/sbin/slurmctld -D -f "$conf" -i >>"$dir/log/slurmctld.stdout" 2>&1 </dev/null &
  echo "slurmctld $!" >>"$pids_file"
  flock -u "$munge_lock"  # taken by ensure_munge
  local k
  for ((k = 1; k <= nodes; k++)); do
    setsid /usr/sbin/slurmd -D -f "$conf" -N "node$k" >>"$dir/log/slurmd.node$k.stdout" 2>&1 </dev/null &
    echo "slurmd $!" >>"$pids_file"
  done
  wait_idle "$nodes"
  log "$nodes nodes idle ($gpus fake GPUs each); config $conf"
  echo "export SLURM_CONF=$conf"
}

stop() {
  local prog pid stopped=0
  while read -r prog pid; do
    # munged is shared by every SLURM on the machine: only ours, and last.
    [[ $prog == munged ]] && continue
    kill "$pid" 2>/dev/null && stopped=$((stopped + 1))
  done < <(running_pids)
  for _ in $(seq 50); do
    [[ -z $(running_pids | grep -v '^munged ' || true) ]] && break
    sleep 0.1
  done
  local left
  left=$(running_pids)
  while read -r prog pid; do
    [[ -n $pid && $prog != munged ]] && kill -9 "$pid" 2>/dev/null
  done <<<"$left"
  # Another cluster on this machine (a test running beside this one) may be
  # using the munged this one started: then it is handed over to that
  # cluster's pids.txt (its stop ends it), or left running. Not while a
  # cluster is starting (ensure_munge's lock).
  mkdir -p /run/munge
  local stop_lock
  exec {stop_lock}>/run/munge/.schedmate-start.lock
  flock "$stop_lock"
  local ours other=""
  ours=$(awk '$1 == "slurmctld" {print $2}' "$pids_file" 2>/dev/null)
  for p in $(ps -C slurmctld -o pid=,stat= | awk -v ours="${ours:-none}" '$2 !~ /^Z/ && $1 != ours {print $1}'); do
    other=$p  # a live one (exited daemons stay as zombies where nothing reaps them)
    break
  done
  while read -r prog pid; do
    [[ $prog != munged ]] && continue
    if [[ -z $other ]]; then kill "$pid" 2>/dev/null; continue; fi
    local conf_of heir
    conf_of=$(tr '\0' '\n' <"/proc/$other/cmdline" 2>/dev/null | sed -n '/^-f$/{n;p;q}')
    heir=$(dirname "${conf_of:-/nonexistent/x}")/pids.txt
    if [[ -f $heir ]]; then echo "munged $pid" >>"$heir"; log "munged $pid handed over to $heir (slurmctld $other uses it)"
    else log "munged $pid left running: slurmctld $other uses it"; fi
  done <<<"$left"
  flock -u "$stop_lock"
  rm -f "$pids_file"
  log "stopped $stopped daemons in $dir"
}

status() {
  local up
  up=$(running_pids)
  if [[ -z $up ]]; then
    echo "stopped ($dir)"
    return 3
  fi
  echo "running ($dir):"
  echo "$up" | sed 's/^/  /'
  SLURM_CONF=$conf sinfo -N -o '%N %t %G' 2>&1 | sed 's/^/  /'
}

case $action in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status [--nodes N] [--gpus G] [--dir DIR] [--port P] [--partitions A,B]" >&2; exit 2 ;;
esac
