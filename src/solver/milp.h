// A mixed-integer linear program and the interface of a solver for it.
// Policies build a MilpProblem and hand it to whatever MilpSolver the
// composition root picked (CBC today), so a policy never names a library.
#ifndef SCHEDMATE_SOLVER_MILP_H_
#define SCHEDMATE_SOLVER_MILP_H_

#include <limits>
#include <memory>
#include <vector>

#include "core/status.h"

namespace schedmate {

inline constexpr double kMilpInfinity = std::numeric_limits<double>::infinity();

// lower <= sum(coefs[k] * x[cols[k]]) <= upper.
struct MilpRow {
  std::vector<int> cols;
  std::vector<double> coefs;
  double lower = -kMilpInfinity;
  double upper = kMilpInfinity;
};

struct MilpProblem {
  bool maximize = false;
  // One entry per column.
  std::vector<double> objective, col_lower, col_upper;
  std::vector<bool> integer;
  std::vector<MilpRow> rows;
  // Optional: a point to start the search from (one value per column; empty
  // = none), e.g. the previous round's allocation. A solver may ignore it,
  // and ignores it when it is infeasible; it never changes what is optimal.
  std::vector<double> start;

  // Appends a column and returns its index.
  int AddColumn(double cost, double lower, double upper, bool is_integer);
};

struct MilpOptions {
  double time_limit_s = 10;      // Wall-clock cap of one solve.
  double relative_gap = 1e-4;    // Stop once the incumbent is this close to the bound.
  int threads = 1;
  // CBC's integer preprocessing (CglPreProcess: probing, implied-free
  // columns, clique merging) before branch and bound. CBC's driver runs it by
  // default (so does the artifact's cvxpy call); on Sia's assignment
  // problems it is most of the solve and finds nothing to tighten, so Sia
  // turns it off (src/policies/sia/README.md).
  bool preprocess = true;
};

struct MilpSolution {
  std::vector<double> values;  // One per column.
  double objective = 0;
  // False when the time limit stopped the search with a feasible incumbent.
  bool proven_optimal = false;
};

// Checks sizes and bounds; names the first bad column or row.
Status ValidateMilp(const MilpProblem& p);

class MilpSolver {
 public:
  virtual ~MilpSolver() = default;
  // Returns the best solution found. Errors:
  //   kInvalidArgument   the problem is malformed (ValidateMilp);
  //   kFailedPrecondition the problem is infeasible (or unbounded);
  //   kDeadlineExceeded  the time limit passed before any feasible point.
  // The caller decides what a failed solve means (Sia keeps the previous
  // allocation for that round).
  virtual Result<MilpSolution> Solve(const MilpProblem& p, const MilpOptions& o) = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SOLVER_MILP_H_
