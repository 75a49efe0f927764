#include "policies/common/backfill.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace schedmate {
namespace {

constexpr int64_t kForever = std::numeric_limits<int64_t>::max();

// start + duration without overflow.
int64_t EndOf(int64_t start, int64_t duration_s) {
  return duration_s >= kForever - start ? kForever : start + duration_s;
}

}  // namespace

Result<BackfillMode> ParseBackfillMode(std::string_view name) {
  if (name == "strict") return BackfillMode::kStrict;
  if (name == "easy") return BackfillMode::kEasy;
  if (name == "conservative") return BackfillMode::kConservative;
  return InvalidArgument("unknown backfill '" + std::string(name) + "' (strict, easy, conservative)");
}

Result<BackfillEstimate> ParseBackfillEstimate(std::string_view name) {
  if (name == "oracle") return BackfillEstimate::kOracle;
  if (name == "user-limit") return BackfillEstimate::kUserLimit;
  if (name == "advisor") return BackfillEstimate::kAdvisor;
  if (name == "advisor-spread") return BackfillEstimate::kAdvisorSpread;
  return InvalidArgument("unknown backfill estimate '" + std::string(name) +
                         "' (oracle, user-limit, advisor, advisor-spread)");
}

Result<OverdueRule> ParseOverdueRule(std::string_view name) {
  if (name == "slack") return OverdueRule::kSlack;
  if (name == "age") return OverdueRule::kAge;
  return InvalidArgument("unknown overdue rule '" + std::string(name) + "' (slack, age)");
}

std::string_view OverdueRuleName(OverdueRule rule) { return rule == OverdueRule::kAge ? "age" : "slack"; }

std::string_view BackfillModeName(BackfillMode mode) {
  switch (mode) {
    case BackfillMode::kStrict: return "strict";
    case BackfillMode::kEasy: return "easy";
    case BackfillMode::kConservative: return "conservative";
  }
  return "strict";
}

std::string_view BackfillEstimateName(BackfillEstimate source) {
  switch (source) {
    case BackfillEstimate::kOracle: return "oracle";
    case BackfillEstimate::kUserLimit: return "user-limit";
    case BackfillEstimate::kAdvisor: return "advisor";
    case BackfillEstimate::kAdvisorSpread: return "advisor-spread";
  }
  return "oracle";
}

FreeGpuProfile::FreeGpuProfile(int64_t now, int32_t free_now, std::vector<GpuRelease> releases) {
  std::sort(releases.begin(), releases.end(), [](const GpuRelease& a, const GpuRelease& b) { return a.at_s < b.at_s; });
  free_[now] = free_now;
  int32_t free = free_now;
  for (const GpuRelease& r : releases) {
    free += r.gpus;
    free_[std::max(r.at_s, now)] = free;
  }
}

int32_t FreeGpuProfile::FreeAt(int64_t t) const {
  auto it = free_.upper_bound(t);
  return it == free_.begin() ? 0 : std::prev(it)->second;
}

// One sweep: `start` moves past every segment with too few GPUs; a run of
// segments with enough that lasts duration_s from `start` is the answer.
std::optional<int64_t> FreeGpuProfile::EarliestStart(int32_t gpus, int64_t duration_s, int64_t not_before) const {
  auto it = free_.upper_bound(not_before);
  if (it == free_.begin()) return std::nullopt;  // before the profile's origin
  --it;
  int64_t start = not_before;
  for (;;) {
    auto next = std::next(it);
    const int64_t segment_end = next == free_.end() ? kForever : next->first;
    if (it->second < gpus) {
      if (next == free_.end()) return std::nullopt;
      start = segment_end;
    } else if (segment_end >= EndOf(start, duration_s)) {
      return start;
    }
    it = next;
  }
}

std::optional<int64_t> FreeGpuProfile::NextChangeAfter(int64_t t) const {
  auto it = free_.upper_bound(t);
  if (it == free_.end()) return std::nullopt;
  return it->first;
}

void FreeGpuProfile::Split(int64_t t) {
  if (t == kForever || free_.count(t)) return;
  free_[t] = FreeAt(t);
}

void FreeGpuProfile::Reserve(int64_t start, int32_t gpus, int64_t duration_s) {
  const int64_t end = EndOf(start, duration_s);
  Split(start);
  Split(end);
  for (auto it = free_.find(start); it != free_.end() && it->first < end; ++it) it->second -= gpus;
}

BackfillPass::BackfillPass(const BackfillOptions& options, int64_t now, int32_t free_now,
                           std::vector<GpuRelease> running)
    : mode_(options.mode),
      max_candidates_(options.max_candidates),
      now_(now),
      profile_(now, free_now, std::move(running)) {}

bool BackfillPass::Over() const {
  if (mode_ == BackfillMode::kStrict) return blocked_;
  return profile_.FreeAt(now_) <= 0 || looked_behind_ >= max_candidates_;
}

bool BackfillPass::MayStart(int32_t gpus, int64_t duration_s) const {
  if (mode_ == BackfillMode::kStrict) return !blocked_;
  return profile_.Fits(now_, gpus, duration_s);
}

void BackfillPass::Started(int32_t gpus, int64_t duration_s) {
  ++seen_;
  if (waiting_ > 0) ++backfilled_, ++looked_behind_;
  if (mode_ != BackfillMode::kStrict) profile_.Reserve(now_, gpus, duration_s);
}

void BackfillPass::Waits(int32_t gpus, int64_t duration_s) {
  ++seen_;
  if (waiting_ > 0) ++looked_behind_;
  ++waiting_;
  switch (mode_) {
    case BackfillMode::kStrict: blocked_ = true; break;
    case BackfillMode::kEasy:
      if (waiting_ == 1) Reserve(gpus, duration_s);
      break;
    case BackfillMode::kConservative: Reserve(gpus, duration_s); break;
  }
}

// A job that fits by count now but did not start (the Placer found the free
// GPUs scattered) cannot start before the next release.
void BackfillPass::Reserve(int32_t gpus, int64_t duration_s) {
  std::optional<int64_t> from(now_);
  if (profile_.Fits(now_, gpus, duration_s)) from = profile_.NextChangeAfter(now_);
  std::optional<int64_t> at = from ? profile_.EarliestStart(gpus, duration_s, *from) : std::nullopt;
  if (!at) return;  // its GPUs never free up: it holds no reservation
  profile_.Reserve(*at, gpus, duration_s);
  reservations_.emplace_back(seen_ - 1, *at);
}

void BackfillEstimates::AtSubmit(const SimJob& job, double policy_estimate, double spread) {
  const size_t i = static_cast<size_t>(job.index.value);
  if (by_job_.size() <= i) by_job_.resize(i + 1, 0.0);
  switch (source_) {
    case BackfillEstimate::kOracle: by_job_[i] = static_cast<double>(job.spec->duration_s); break;
    case BackfillEstimate::kUserLimit: by_job_[i] = static_cast<double>(limits_.LimitFor(*job.spec)); break;
    case BackfillEstimate::kAdvisor: by_job_[i] = policy_estimate; break;
    case BackfillEstimate::kAdvisorSpread:
      by_job_[i] = policy_estimate * (1.0 + (spread > 0 && std::isfinite(spread) ? spread : 0.0));
      break;
  }
}

int64_t PlannedRun(const SimJob& job, BackfillEstimate source, double estimate_s) {
  if (source == BackfillEstimate::kOracle) return std::max<int64_t>(1, job.remaining_s);
  if (!(estimate_s >= 1)) return 1;
  // Work already done: seconds run less the restart overheads added back.
  const int64_t done = std::max<int64_t>(0, job.executed_s - job.overhead_s);
  const double left = estimate_s - static_cast<double>(done);
  return left >= static_cast<double>(kForever / 4) ? kForever / 4 : std::max<int64_t>(1, std::llround(left));
}

int64_t PlannedEnd(const SimJob& job, const BackfillOptions& options, double estimate_s, int64_t now) {
  const int64_t end = options.estimate == BackfillEstimate::kOracle
                          ? job.ExpectedEnd()
                          : EndOf(job.last_start_s, PlannedRun(job, options.estimate, estimate_s));
  if (end > now) return end;
  if (options.overdue == OverdueRule::kSlack) return now + options.overdue_slack_s;
  const int64_t done = std::max<int64_t>(0, job.ExecutedSeconds(now) - job.overhead_s);
  return now + std::max(options.overdue_slack_s, done);
}

}  // namespace schedmate
