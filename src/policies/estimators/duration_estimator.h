// Duration estimators for SJF and QSSF. An estimator answers at submit time
// and may learn from jobs as they end; it must never see a job's future
// (history is only what ended before the question was asked).
#ifndef SCHEDMATE_POLICIES_ESTIMATORS_DURATION_ESTIMATOR_H_
#define SCHEDMATE_POLICIES_ESTIMATORS_DURATION_ESTIMATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/job_spec.h"
#include "core/status.h"

namespace schedmate {

class DurationEstimator {
 public:
  virtual ~DurationEstimator() = default;
  virtual std::string_view Name() const = 0;
  // Estimated run time in seconds of `job`, asked at time `now`.
  virtual double Estimate(const JobSpec& job, int64_t now) = 0;
  // `job` ended at `end_s` after running `ran_s` seconds.
  virtual void Observe(const JobSpec& job, int64_t ran_s, int64_t end_s) {}
};

// The trace's own duration (an upper bound on what estimates can do).
class OracleEstimator final : public DurationEstimator {
 public:
  std::string_view Name() const override { return "oracle"; }
  double Estimate(const JobSpec& job, int64_t) override {
    return static_cast<double>(job.duration_s);
  }
};

// The error model HeliosArtifact uses for Philly, which has no job names
// (estimators/philly_estimate.py priority_generater): relative error drawn
//   10 % of jobs within +-10 %, 40 % 10-50 %, 20 % 50-100 %,
//   20 % 100-1000 %, 10 % 1000-10000 %, random sign.
// Like the artifact, a negative draw gives a negative estimate (such a job
// sorts first). Deterministic: seeded by (seed, job id), independent of the
// order of questions.
class HeliosErrorModelEstimator final : public DurationEstimator {
 public:
  explicit HeliosErrorModelEstimator(uint64_t seed) : seed_(seed) {}
  std::string_view Name() const override { return "helios-error-model"; }
  double Estimate(const JobSpec& job, int64_t now) override;

 private:
  uint64_t seed_;
};

// "oracle", "helios-error-model", "history" (see job_name_estimator.h).
Result<std::unique_ptr<DurationEstimator>> MakeEstimator(std::string_view name,
                                                         uint64_t seed);

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_ESTIMATORS_DURATION_ESTIMATOR_H_
