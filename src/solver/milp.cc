#include "solver/milp.h"

#include <cmath>
#include <string>

namespace schedmate {

int MilpProblem::AddColumn(double cost, double lower, double upper, bool is_integer) {
  objective.push_back(cost);
  col_lower.push_back(lower);
  col_upper.push_back(upper);
  integer.push_back(is_integer);
  return static_cast<int>(objective.size()) - 1;
}

namespace {

Status ValidateRow(const MilpRow& r, size_t index, int num_cols) {
  std::string where = "milp row " + std::to_string(index) + ": ";
  if (r.cols.size() != r.coefs.size()) return InvalidArgument(where + "cols and coefs differ in length");
  if (r.lower > r.upper) return InvalidArgument(where + "lower bound above upper bound");
  for (size_t k = 0; k < r.cols.size(); ++k) {
    if (r.cols[k] < 0 || r.cols[k] >= num_cols) return InvalidArgument(where + "column index out of range");
    if (!std::isfinite(r.coefs[k])) return InvalidArgument(where + "coefficient is not finite");
  }
  return Status::Ok();
}

}  // namespace

Status ValidateMilp(const MilpProblem& p) {
  size_t n = p.objective.size();
  if (p.col_lower.size() != n || p.col_upper.size() != n || p.integer.size() != n)
    return InvalidArgument("milp: objective, bounds and integer flags differ in length");
  for (size_t j = 0; j < n; ++j) {
    if (!std::isfinite(p.objective[j]))
      return InvalidArgument("milp column " + std::to_string(j) + ": objective is not finite");
    if (p.col_lower[j] > p.col_upper[j])
      return InvalidArgument("milp column " + std::to_string(j) + ": lower bound above upper bound");
  }
  if (!p.start.empty() && p.start.size() != n)
    return InvalidArgument("milp: start has " + std::to_string(p.start.size()) + " values for " + std::to_string(n) +
                           " columns");
  for (size_t i = 0; i < p.rows.size(); ++i) RETURN_IF_ERROR(ValidateRow(p.rows[i], i, static_cast<int>(n)));
  return Status::Ok();
}

}  // namespace schedmate
