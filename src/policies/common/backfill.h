// Backfilling on time estimates: a queue discipline any ordering policy can
// use (see README.md in this folder for the disciplines, the estimate
// sources and their literature).
//  - strict: head-of-line blocking (the policies' behaviour without backfill);
//  - easy (EASY, Lifka 1995; Mu'alem & Feitelson 2001): the first job that
//    cannot start gets a reservation at the earliest time enough GPUs free
//    up; later jobs may start now if they do not delay it;
//  - conservative: every waiting job, in queue order, gets a reservation; a
//    job may start now only if it delays no earlier reservation.
// The plan is rebuilt at every scheduling pass from the running jobs'
// estimated ends (reservations are not carried between passes, as in
// Slurm's backfill cycle), so a job ending early moves reservations forward.
//
// The future is modelled by GPU count per VC only: the Placer decides
// whether a job fits *now* (fragmentation included), but the profile assumes
// any N free GPUs of the VC can hold an N-GPU job later. A reservation can
// therefore be missed when the GPUs that free up are scattered over nodes;
// the guarantees below hold exactly for count placement.
#ifndef SCHEDMATE_POLICIES_COMMON_BACKFILL_H_
#define SCHEDMATE_POLICIES_COMMON_BACKFILL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "policies/common/user_limit_model.h"
#include "sim/sim_job.h"

namespace schedmate {

enum class BackfillMode { kStrict, kEasy, kConservative };
// Where the planner's job durations come from (separate from the ordering key).
enum class BackfillEstimate {
  kOracle,     // the trace's duration (the job's true remaining work)
  kUserLimit,  // a user-style time limit (user_limit_model.h), >= the duration
  kAdvisor,    // the ordering policy's own estimate
  // The policy's estimate widened by the spread of the history runs it came
  // from: estimate × (1 + spread), spread = (longest − shortest) / mean of
  // the matched durations (advisor/advisor.h); an estimate with no spread
  // (a fallback) is used as it is.
  kAdvisorSpread,
};
// What the planner assumes of a running job already past its planned end.
enum class OverdueRule {
  kSlack,  // it ends overdue_slack_s from now
  // It runs as long again as it has run so far (at least overdue_slack_s):
  // the median remaining life of a job whose lifetimes are heavy-tailed
  // (Harchol-Balter & Downey 1997; Tsafrir et al. 2007 extend a violated
  // prediction in steps for the same reason).
  kAge,
};

// "strict" | "easy" | "conservative"; the error names the accepted values.
Result<BackfillMode> ParseBackfillMode(std::string_view name);
// "oracle" | "user-limit" | "advisor" | "advisor-spread".
Result<BackfillEstimate> ParseBackfillEstimate(std::string_view name);
// "slack" | "age".
Result<OverdueRule> ParseOverdueRule(std::string_view name);
std::string_view BackfillModeName(BackfillMode mode);
std::string_view BackfillEstimateName(BackfillEstimate source);
std::string_view OverdueRuleName(OverdueRule rule);
// Whether the planner's durations are the ordering policy's own estimates.
inline bool UsesPolicyEstimate(BackfillEstimate source) {
  return source == BackfillEstimate::kAdvisor || source == BackfillEstimate::kAdvisorSpread;
}

struct BackfillOptions {
  BackfillMode mode = BackfillMode::kStrict;
  BackfillEstimate estimate = BackfillEstimate::kOracle;
  uint64_t seed = 1;  // the user-limit model's
  // A running job past its estimated end is assumed to end this soon: the
  // estimate has been proved wrong and nothing better is known, so the
  // planner keeps its GPUs out of the next minute only (Tsafrir et al. 2007
  // extend a violated prediction; a short constant keeps reservations
  // pessimistic for the head rather than optimistic for backfill).
  int64_t overdue_slack_s = 60;
  OverdueRule overdue = OverdueRule::kSlack;
  // Jobs looked at behind the first waiting one per pass (Slurm's
  // bf_max_job_test plays this role); later ones wait for the next pass.
  int32_t max_candidates = 100;
};

// GPUs a running job returns to the VC, and when (by its estimate).
struct GpuRelease {
  int64_t at_s = 0;
  int32_t gpus = 0;
};

// Free GPUs of one VC from `now` on: a step function over time.
class FreeGpuProfile {
 public:
  // A release before `now` counts from `now`.
  FreeGpuProfile(int64_t now, int32_t free_now, std::vector<GpuRelease> releases);

  int32_t FreeAt(int64_t t) const;
  // The earliest t >= not_before with at least `gpus` free throughout
  // [t, t + duration_s); nullopt when the GPUs never free up.
  std::optional<int64_t> EarliestStart(int32_t gpus, int64_t duration_s, int64_t not_before) const;
  bool Fits(int64_t start, int32_t gpus, int64_t duration_s) const {
    return EarliestStart(gpus, duration_s, start) == start;
  }
  // The first time after `t` at which the free count changes (nullopt: none).
  std::optional<int64_t> NextChangeAfter(int64_t t) const;
  // Takes `gpus` out of [start, start + duration_s).
  void Reserve(int64_t start, int32_t gpus, int64_t duration_s);

 private:
  void Split(int64_t t);
  std::map<int64_t, int32_t> free_;  // breakpoint -> free GPUs until the next one
};

// One scheduling pass over a VC's queue, fed in queue order: for each job
// the caller asks MayStart(); when it may and the Placer finds GPUs it calls
// Started(), otherwise Waits(). Once Over() no later job can start in this
// pass. Strict never looks at the profile.
class BackfillPass {
 public:
  BackfillPass(const BackfillOptions& options, int64_t now, int32_t free_now, std::vector<GpuRelease> running);

  bool Over() const;
  bool MayStart(int32_t gpus, int64_t duration_s) const;
  void Started(int32_t gpus, int64_t duration_s);
  void Waits(int32_t gpus, int64_t duration_s);

  // Jobs started while an earlier one in queue order waited.
  int64_t backfilled() const { return backfilled_; }
  // (job's position in this pass, reserved start) of each reservation made.
  const std::vector<std::pair<int32_t, int64_t>>& reservations() const { return reservations_; }

 private:
  void Reserve(int32_t gpus, int64_t duration_s);

  BackfillMode mode_;
  int32_t max_candidates_;
  int64_t now_;
  FreeGpuProfile profile_;
  int32_t seen_ = 0, waiting_ = 0;
  int32_t looked_behind_ = 0;  // jobs seen after the first waiting one
  bool blocked_ = false;  // strict: the head waits
  int64_t backfilled_ = 0;
  std::vector<std::pair<int32_t, int64_t>> reservations_;
};

// The planner's duration of each job, fixed at each (re)submission: its
// trace duration (oracle), its user-style limit, or the ordering policy's
// own estimate (advisor).
class BackfillEstimates {
 public:
  explicit BackfillEstimates(const BackfillOptions& options) : source_(options.estimate), limits_(options.seed) {}
  // `policy_estimate`: the policy's estimate of `job` (used for kAdvisor and
  // kAdvisorSpread); `spread`: the relative spread of the runs it came from
  // (kAdvisorSpread; 0 = none known).
  void AtSubmit(const SimJob& job, double policy_estimate, double spread = 0);
  double Of(JobIndex job) const { return by_job_[static_cast<size_t>(job.value)]; }

 private:
  BackfillEstimate source_;
  UserLimitModel limits_;
  std::vector<double> by_job_;
};

// Seconds a job is assumed to run when it starts now: the true remaining
// work for the oracle, else `estimate_s` less the work already done (a
// restarted job), at least 1. A NaN or negative estimate counts as 1 s.
int64_t PlannedRun(const SimJob& job, BackfillEstimate source, double estimate_s);
// When a running job is assumed to free its GPUs: its true end for the
// oracle (packing slowdown included), else its last start + PlannedRun; an
// end already passed becomes now + options.overdue_slack_s (kSlack), or now
// + max(slack, the work it has done) (kAge).
int64_t PlannedEnd(const SimJob& job, const BackfillOptions& options, double estimate_s, int64_t now);

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_COMMON_BACKFILL_H_
