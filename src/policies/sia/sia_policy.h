// Sia's per-round decision (SOSP'23 §3; sia-simulator/sia.py): a goodput
// row per job over every allocation option, normalised to the row minimum,
// scaled by the restart factor away from the current option, raised to p,
// clipped, and one integer program choosing at most one option per job
// within each type's GPU count (λ for every unallocated job).
#ifndef SCHEDMATE_POLICIES_SIA_SIA_POLICY_H_
#define SCHEDMATE_POLICIES_SIA_SIA_POLICY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "policies/sia/sia_cluster.h"
#include "policies/sia/sia_job.h"
#include "solver/milp.h"

namespace schedmate::sia {

struct SiaParams {
  double p = -0.5;            // fairness exponent (simulator_config.py sia_default_p_val)
  double lambda_n = 1.1;      // penalty per unallocated job (sia_default_lambda_n)
  double clip = 3000.0;       // cap of G^p (sia_goodput_clip_val)
  double zero_gain = 1e-4;    // utility of an invalid option (sia.py ZERO_ALLOC_GAIN)
  int doubling = 2;           // at most this × the largest replica count observed
  // CBC limits (sia_solver_thresh = relative gap 1e-4); CBC's integer
  // preprocessing off: on these assignment problems it was most of a
  // 2,048-GPU round and tightened nothing (bench_sia_round, README).
  MilpOptions milp{.preprocess = false};
  // Equivalent formulations that only make a round cheaper (the set of
  // optimal allocations is the same; which optimum the solver returns among
  // equal ones may differ). Off only to measure them (bench_sia_round).
  bool prune_dominated = true;  // drop an option that needs more GPUs of a type for a worse utility
  bool warm_start = true;       // start the solver from the previous round's allocation
  // Among allocations of equal rounded utility, keep each job's current one:
  // its option gains half the rounding step (0.005), less than any real
  // difference. Utilities are rounded to 2 decimals, so jobs of one
  // application with the same model tie exactly, and which of the equal
  // optima the solver returns decides who is suspended each round (Sia's
  // simulator leaves ties to its solver). Off by default: docs/results/sia
  // were measured without it (docs/results/sia/NOTES.md, "Ties").
  bool prefer_current = false;
};


// Per-job outcome of one round: an index into AllocationOptions, or -1.
struct RoundDecision {
  std::map<std::string, int> choice;
  bool solved = false;   // false: the solve failed, previous choices kept
  std::string note;      // why a solve failed
  double objective = 0;
};

class SiaPolicy {
 public:
  // `solver` must outlive the policy.
  SiaPolicy(SiaCluster cluster, SiaParams params, MilpSolver* solver);

  const std::vector<AllocOption>& options() const { return options_; }
  const SiaCluster& cluster() const { return cluster_; }

  // Row of normalised goodputs (before restart factor and p) of one job.
  std::vector<double> GoodputRow(const SiaJob& job) const;
  // (age - restarts × penalty) / (age + penalty), 1 for young jobs (Eq. 2).
  static double RestartFactor(const SiaJob& job, int64_t now_s);

  // Chooses options for `jobs` (all active, eligible jobs). `capacity[t]` is
  // the GPUs of type t the round may hand out. A job in its restart delay
  // keeps its option. On a failed solve the previous choices are returned.
  RoundDecision Decide(const std::vector<const SiaJob*>& jobs, const std::vector<int>& capacity, int64_t now_s);

  // A copy with the same history that solves with `solver`.
  SiaPolicy WithSolver(MilpSolver* solver) const {
    SiaPolicy copy = *this;
    copy.solver_ = solver;
    return copy;
  }

  // The option a job held after the last round, or -1.
  int PreviousChoice(const std::string& job) const;

 private:
  std::vector<double> RawRow(const SiaJob& job, std::vector<bool>& unknown_type) const;
  int MaxReplicas(const SiaJob& job) const;
  MilpProblem BuildProblem(const std::vector<const SiaJob*>& jobs, const std::vector<std::vector<double>>& utility,
                           const std::vector<int>& capacity,
                           std::vector<std::pair<int, int>>& owners) const;
  RoundDecision KeepPrevious(const std::vector<const SiaJob*>& jobs, std::string note) const;

  SiaCluster cluster_;
  SiaParams params_;
  MilpSolver* solver_;
  std::vector<AllocOption> options_;
  std::map<std::string, int> previous_;
};

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_SIA_POLICY_H_
