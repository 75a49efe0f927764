// Is the mapped world as hard for the Advisor as the paper's? The real
// Advisor (embedded extractor, fingerprint, history retrieval and estimate)
// runs over a whole mapped trace in submit order. Each job's history holds
// exactly the jobs that finished before it was submitted (submit + trace
// duration), written back with their end reason to a real SQLite file.
// Measured: the hit rate and the duration-error distribution, beside a
// name-free baseline from the same history (the median duration of the
// owner's earlier jobs with the same GPU count).
#ifndef SCHEDMATE_EXPERIMENTS_ADVISOR_CALIBRATION_H_
#define SCHEDMATE_EXPERIMENTS_ADVISOR_CALIBRATION_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/status.h"
#include "experiments/world_setup.h"

namespace schedmate {

// Relative errors of one estimator and its share within a bound.
struct ErrorDist {
  std::vector<double> errors;
  void Add(double estimate, double truth);
  double Within(double bound) const;
  double Quantile(double q) const;  // nearest rank
};

struct AdvisorCalibration {
  size_t queries = 0, extracted = 0;  // queries drawn; distinct repositories extracted
  int64_t asked = 0, hits = 0, extraction_failures = 0;
  double seconds = 0, estimate_ms = 0;
  ErrorDist advisor, advisor_completed, combined, baseline;  // combined: the Advisor, else the baseline
  double HitRate() const { return asked ? static_cast<double>(hits) / static_cast<double>(asked) : 0; }
  double EstimateMsMean() const { return asked ? estimate_ms / static_cast<double>(asked) : 0; }
};

// (jobs done, jobs, jobs in history, seconds), every 5,000 jobs.
using CalibrationProgress = std::function<void(size_t, size_t, size_t, double)>;

// `queries` jobs drawn with `seed` ask the Advisor (0 = every job).
Result<AdvisorCalibration> CalibrateAdvisor(const MappedTrace& m, int64_t queries, uint64_t seed,
                                            const CalibrationProgress& progress = {});

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_ADVISOR_CALIBRATION_H_
