#include "policies/common/user_limit_model.h"

#include <algorithm>
#include <cmath>

#include "core/random.h"

namespace schedmate {

int64_t UserLimitModel::LimitFor(const JobSpec& job) const {
  const int64_t duration = std::max<int64_t>(1, job.duration_s);
  if (duration > p_.max_limit_s) return (duration + 86399) / 86400 * 86400;
  Rng rng(seed_ ^ (StableHash(job.id) * 0x9E3779B97F4A7C15ull));
  if (rng.Uniform() < p_.max_limit_share) return p_.max_limit_s;
  const double feared = static_cast<double>(duration) * rng.Uniform(1.0, p_.max_factor);
  return std::max(duration, RoundUpToPopular(feared));
}

int64_t UserLimitModel::RoundUpToPopular(double seconds) const {
  for (int64_t v : p_.popular_s)
    if (static_cast<double>(v) >= seconds) return v;
  return p_.max_limit_s;
}

}  // namespace schedmate
