#include "policies/estimators/duration_estimator.h"

#include "core/random.h"
#include "policies/estimators/job_name_estimator.h"

namespace schedmate {

double HeliosErrorModelEstimator::Estimate(const JobSpec& job, int64_t) {
  Rng rng(seed_ ^ StableHash(job.id));
  double x = static_cast<double>(job.duration_s);
  double level = rng.Uniform();
  if (level <= 0.1) return x + x * rng.Uniform(-1, 1) * 0.1;
  double lo, hi;
  if (level <= 0.5) { lo = 0.1; hi = 0.5; }
  else if (level <= 0.7) { lo = 0.5; hi = 1; }
  else if (level <= 0.9) { lo = 1; hi = 10; }
  else { lo = 10; hi = 100; }
  double magnitude = rng.Uniform(lo, hi);
  return x + x * magnitude * rng.Sign();
}

Result<std::unique_ptr<DurationEstimator>> MakeEstimator(std::string_view name,
                                                         uint64_t seed) {
  if (name == "oracle")
    return std::unique_ptr<DurationEstimator>(new OracleEstimator);
  if (name == "helios-error-model")
    return std::unique_ptr<DurationEstimator>(new HeliosErrorModelEstimator(seed));
  if (name == "history")
    return std::unique_ptr<DurationEstimator>(new JobNameEstimator);
  return InvalidArgument("unknown estimator '" + std::string(name) +
                         "' (oracle, helios-error-model, history)");
}

}  // namespace schedmate
