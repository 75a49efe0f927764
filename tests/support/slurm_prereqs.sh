# Sourced by the SLURM end-to-end tests: `skip` (exit 77, CTest's SKIP), and
# `require_slurm [MORE_COMMANDS…]`, which skips unless this runs as root
# (munged and slurmd do) and SLURM, munge and the named commands are installed.
skip() { echo "SKIP: $*"; exit 77; }
require_slurm() {
  [[ $(id -u) -eq 0 ]] || skip "needs root (munged and slurmd run as root)"
  local t
  for t in slurmctld slurmd munged sbatch squeue scontrol "$@"; do
    command -v "$t" >/dev/null || [[ -x /usr/sbin/$t ]] ||
      skip "'$t' is not installed (scripts/install_deps.sh installs slurmctld slurmd slurm-client munge redis-server)"
  done
}
