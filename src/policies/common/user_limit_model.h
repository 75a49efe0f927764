// User-style time limits (Slurm's --time): what a user would have asked
// for a job, from the job's true duration. The literature (README.md in
// this folder) finds limits modal — a few round values cover most jobs —
// overstated by a large factor, and the site maximum a popular choice. The
// model draws, per job and deterministically from (seed, job id):
//  - with probability max_limit_share, the site's maximal limit;
//  - otherwise the smallest popular round value >= duration x f, f uniform
//    in [1, max_factor] (Mu'alem & Feitelson's multiplicative model);
//    above the largest popular value, the maximal limit.
// A limit is never below the duration: a job longer than the maximal limit
// gets its duration rounded up to whole days (the site granted an
// exception). So the simulator never kills a job at its limit (Slurm would);
// the limits only feed the backfill planner.
#ifndef SCHEDMATE_POLICIES_COMMON_USER_LIMIT_MODEL_H_
#define SCHEDMATE_POLICIES_COMMON_USER_LIMIT_MODEL_H_

#include <cstdint>
#include <vector>

#include "core/job_spec.h"

namespace schedmate {

struct UserLimitParams {
  double max_limit_share = 0.15;
  int64_t max_limit_s = 7 * 86400;
  double max_factor = 2.0;
  // 20 round values, ascending (Tsafrir et al.: ~20 values cover ~90 % of jobs).
  std::vector<int64_t> popular_s = {300,   600,   900,   1200,  1800,  2700,  3600,   5400,   7200,   10800,
                                    14400, 18000, 21600, 28800, 36000, 43200, 64800, 86400, 172800, 259200};
};

class UserLimitModel {
 public:
  explicit UserLimitModel(uint64_t seed, UserLimitParams params = {}) : seed_(seed), p_(std::move(params)) {}
  // Seconds; >= max(job.duration_s, 1); the same for the same (seed, id).
  int64_t LimitFor(const JobSpec& job) const;

 private:
  int64_t RoundUpToPopular(double seconds) const;

  uint64_t seed_;
  UserLimitParams p_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_COMMON_USER_LIMIT_MODEL_H_
