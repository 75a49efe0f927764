#include "policies/estimators/history_estimator.h"

#include <algorithm>

namespace schedmate {
namespace {

// Longest common block of a[alo:ahi] and b[blo:bhi]; among the longest, the
// earliest in a, then in b (difflib's find_longest_match without junk).
void LongestMatch(std::string_view a, std::string_view b, size_t alo,
                  size_t ahi, size_t blo, size_t bhi, size_t* i, size_t* j,
                  size_t* k) {
  *i = alo, *j = blo, *k = 0;
  const size_t w = bhi - blo + 1;
  std::vector<size_t> prev(w, 0), cur(w, 0);
  for (size_t x = alo; x < ahi; ++x) {
    for (size_t y = blo; y < bhi; ++y) {
      size_t yy = y - blo + 1;
      size_t len = a[x] == b[y] ? prev[yy - 1] + 1 : 0;
      cur[yy] = len;
      if (len > *k) {
        *k = len;
        *i = x + 1 - len;
        *j = y + 1 - len;
      }
    }
    std::swap(prev, cur);
  }
}

size_t Matched(std::string_view a, std::string_view b, size_t alo, size_t ahi,
               size_t blo, size_t bhi) {
  if (alo >= ahi || blo >= bhi) return 0;
  size_t i, j, k;
  LongestMatch(a, b, alo, ahi, blo, bhi, &i, &j, &k);
  if (k == 0) return 0;
  return k + Matched(a, b, alo, i, blo, j) +
         Matched(a, b, i + k, ahi, j + k, bhi);
}

}  // namespace

double SequenceRatio(std::string_view a, std::string_view b) {
  size_t total = a.size() + b.size();
  if (total == 0) return 1.0;
  return 2.0 * static_cast<double>(Matched(a, b, 0, a.size(), 0, b.size())) /
         static_cast<double>(total);
}

std::vector<const std::string*> HistoryEstimator::CloseMatches(
    const std::string& name) const {
  constexpr double kCutoff = 0.6;
  std::vector<std::pair<double, const std::string*>> scored;
  for (const auto& known : names_) {
    double la = static_cast<double>(name.size()),
           lb = static_cast<double>(known.size());
    if (la + lb > 0 && 2 * std::min(la, lb) / (la + lb) < kCutoff) continue;
    double r = known == name ? 1.0 : SequenceRatio(name, known);
    if (r >= kCutoff) scored.emplace_back(r, &known);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<const std::string*> out;
  for (size_t i = 0; i < scored.size() && i < 2; ++i) out.push_back(scored[i].second);
  return out;
}

double HistoryEstimator::MeanOf(const std::vector<const std::string*>& names,
                                const JobSpec& job) const {
  Mean all, user, same_gpus;
  for (const std::string* n : names) {
    const NameStats& ns = by_name_.at(*n);
    all.sum += ns.all.sum, all.n += ns.all.n;
    auto u = ns.by_user.find(job.user);
    if (u == ns.by_user.end()) continue;
    user.sum += u->second.all.sum, user.n += u->second.all.n;
    auto g = u->second.by_gpus.find(job.gpus);
    if (g != u->second.by_gpus.end())
      same_gpus.sum += g->second.sum, same_gpus.n += g->second.n;
  }
  if (same_gpus.n > 0) return same_gpus.sum / same_gpus.n;
  if (user.n > 0) return user.sum / user.n;
  return all.sum / std::max<int64_t>(all.n, 1);
}

double HistoryEstimator::Estimate(const JobSpec& job, int64_t) {
  if (global_.n == 0) return prior_s_;
  std::vector<const std::string*> matches;
  auto exact = by_name_.find(job.name);
  if (exact != by_name_.end()) {
    matches.push_back(&exact->first);  // an exact name is the best match
  } else if (!job.name.empty()) {
    matches = CloseMatches(job.name);
  }
  if (!matches.empty()) return MeanOf(matches, job);
  auto user = by_user_.find(job.user);
  if (user != by_user_.end() && user->second.n > 0)
    return user->second.sum / user->second.n;
  return global_.sum / global_.n;
}

void HistoryEstimator::Observe(const JobSpec& job, int64_t ran_s, int64_t) {
  double d = static_cast<double>(ran_s);
  auto [it, inserted] = by_name_.try_emplace(job.name);
  if (inserted) names_.push_back(job.name);
  NameStats& ns = it->second;
  ns.all.Add(d);
  UserStats& us = ns.by_user[job.user];
  us.all.Add(d);
  us.by_gpus[job.gpus].Add(d);
  by_user_[job.user].Add(d);
  global_.Add(d);
}

}  // namespace schedmate
