#include "solver/cbc_solver.h"

#include <coin/Cbc_C_Interface.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

namespace schedmate {
namespace {

// Compressed sparse column form of the constraint rows, as CBC loads it.
struct ColumnMajor {
  std::vector<CoinBigIndex> start;
  std::vector<int> index;
  std::vector<double> value;
  std::vector<double> row_lower, row_upper;
};

// CBC reads +-DBL_MAX as "no bound"; infinities are mapped onto it.
double ToCbcBound(double v) {
  constexpr double kMax = std::numeric_limits<double>::max();
  return std::clamp(v, -kMax, kMax);
}

ColumnMajor ToColumnMajor(const MilpProblem& p) {
  size_t n = p.objective.size();
  std::vector<std::vector<std::pair<int, double>>> by_col(n);
  ColumnMajor m;
  for (size_t i = 0; i < p.rows.size(); ++i) {
    const MilpRow& r = p.rows[i];
    for (size_t k = 0; k < r.cols.size(); ++k) by_col[r.cols[k]].push_back({static_cast<int>(i), r.coefs[k]});
    m.row_lower.push_back(ToCbcBound(r.lower));
    m.row_upper.push_back(ToCbcBound(r.upper));
  }
  m.start.push_back(0);
  for (const auto& col : by_col) {
    for (const auto& [row, coef] : col) {
      m.index.push_back(row);
      m.value.push_back(coef);
    }
    m.start.push_back(static_cast<CoinBigIndex>(m.index.size()));
  }
  return m;
}

using CbcModelPtr = std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)>;

CbcModelPtr LoadModel(const MilpProblem& p, const MilpOptions& o) {
  CbcModelPtr model(Cbc_newModel(), Cbc_deleteModel);
  ColumnMajor m = ToColumnMajor(p);
  std::vector<double> lower(p.col_lower.size()), upper(p.col_upper.size());
  std::transform(p.col_lower.begin(), p.col_lower.end(), lower.begin(), ToCbcBound);
  std::transform(p.col_upper.begin(), p.col_upper.end(), upper.begin(), ToCbcBound);
  Cbc_loadProblem(model.get(), static_cast<int>(p.objective.size()), static_cast<int>(p.rows.size()),
                  m.start.data(), m.index.data(), m.value.data(), lower.data(), upper.data(),
                  p.objective.data(), m.row_lower.data(), m.row_upper.data());
  for (size_t j = 0; j < p.integer.size(); ++j)
    if (p.integer[j]) Cbc_setInteger(model.get(), static_cast<int>(j));
  Cbc_setObjSense(model.get(), p.maximize ? -1 : 1);
  Cbc_setLogLevel(model.get(), 0);
  Cbc_setMaximumSeconds(model.get(), o.time_limit_s);
  Cbc_setAllowablePercentageGap(model.get(), o.relative_gap * 100);
  Cbc_setParameter(model.get(), "threads", std::to_string(std::max(1, o.threads)).c_str());
  if (!o.preprocess) Cbc_setParameter(model.get(), "preprocess", "off");
  if (!p.start.empty()) {
    // Only the nonzero entries: CBC completes the rest with zeros (and drops
    // a start that is infeasible).
    std::vector<int> cols;
    std::vector<double> values;
    for (size_t j = 0; j < p.start.size(); ++j)
      if (p.start[j] != 0) cols.push_back(static_cast<int>(j)), values.push_back(p.start[j]);
    Cbc_setMIPStartI(model.get(), static_cast<int>(cols.size()), cols.data(), values.data());
  }
  return model;
}

}  // namespace

Result<MilpSolution> CbcSolver::Solve(const MilpProblem& p, const MilpOptions& o) {
  RETURN_IF_ERROR(ValidateMilp(p));
  if (p.objective.empty()) return MilpSolution{{}, 0, true};
  CbcModelPtr model = LoadModel(p, o);
  Cbc_solve(model.get());
  if (Cbc_isProvenInfeasible(model.get()) || Cbc_isContinuousUnbounded(model.get()))
    return FailedPrecondition("cbc: the problem is infeasible or unbounded");
  const double* best = Cbc_bestSolution(model.get());
  if (best == nullptr) {
    if (Cbc_isSecondsLimitReached(model.get()))
      return Status(StatusCode::kDeadlineExceeded,
                    "cbc: no feasible solution within " + std::to_string(o.time_limit_s) + " s");
    return Internal("cbc: stopped without a solution (status " + std::to_string(Cbc_status(model.get())) + ")");
  }
  MilpSolution s;
  s.values.assign(best, best + p.objective.size());
  s.objective = Cbc_getObjValue(model.get());
  s.proven_optimal = Cbc_isProvenOptimal(model.get()) != 0;
  return s;
}

}  // namespace schedmate
