// Runs another MilpSolver in a forked child process, so that a solver library
// that aborts (Clp/CBC assertions fire on some degenerate problems: seen on a
// Sia round of the saturn workload) or hangs past its time limit fails that
// one solve — reported as an error the policy handles (Sia keeps the previous
// allocation) — instead of killing the whole simulation or service.
//
// Costs one fork per solve (copy-on-write; a few ms for a large parent).
// REQUIRES: the calling process has no other threads holding locks the child
// needs (malloc's are fork-safe in glibc; a policy loop is single-threaded).
#ifndef SCHEDMATE_SOLVER_ISOLATED_SOLVER_H_
#define SCHEDMATE_SOLVER_ISOLATED_SOLVER_H_

#include "solver/milp.h"

namespace schedmate {

class IsolatedSolver final : public MilpSolver {
 public:
  // `inner` runs in the child; `grace_s` is added to the time limit before
  // the child is killed.
  explicit IsolatedSolver(MilpSolver* inner, double grace_s = 5) : inner_(inner), grace_s_(grace_s) {}
  // The inner solver's answer; kInternal when the child died (naming the
  // signal), kDeadlineExceeded when it outlived time limit + grace.
  Result<MilpSolution> Solve(const MilpProblem& p, const MilpOptions& o) override;

 private:
  MilpSolver* inner_;
  double grace_s_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SOLVER_ISOLATED_SOLVER_H_
