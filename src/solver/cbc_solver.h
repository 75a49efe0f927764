// MilpSolver backed by COIN-OR CBC through its C interface (Debian's
// coinor-libcbc-dev). Each Solve builds a fresh CBC model; nothing is shared
// between calls, so one CbcSolver may be used from one thread at a time.
#ifndef SCHEDMATE_SOLVER_CBC_SOLVER_H_
#define SCHEDMATE_SOLVER_CBC_SOLVER_H_

#include "solver/milp.h"

namespace schedmate {

class CbcSolver : public MilpSolver {
 public:
  Result<MilpSolution> Solve(const MilpProblem& p, const MilpOptions& o) override;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SOLVER_CBC_SOLVER_H_
