#include "policies/estimators/job_name_estimator.h"

#include <algorithm>

namespace schedmate {
namespace {

// Longest common block of a[alo:ahi] and b[blo:bhi]; among the longest, the
// earliest in a, then in b (difflib's find_longest_match without junk).
// `prev` and `cur` are scratch rows of at least bhi - blo + 1 entries.
void LongestMatch(std::string_view a, std::string_view b, size_t alo,
                  size_t ahi, size_t blo, size_t bhi, size_t* i, size_t* j,
                  size_t* k, uint16_t* prev, uint16_t* cur) {
  *i = alo, *j = blo, *k = 0;
  const size_t w = bhi - blo + 1;
  std::fill(prev, prev + w, 0);
  cur[0] = 0;
  for (size_t x = alo; x < ahi; ++x) {
    const char ax = a[x];
    for (size_t y = blo; y < bhi; ++y) {
      size_t yy = y - blo + 1;
      uint16_t len = ax == b[y] ? prev[yy - 1] + 1 : 0;
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
               size_t blo, size_t bhi, uint16_t* prev, uint16_t* cur) {
  if (alo >= ahi || blo >= bhi) return 0;
  size_t i, j, k;
  LongestMatch(a, b, alo, ahi, blo, bhi, &i, &j, &k, prev, cur);
  if (k == 0) return 0;
  return k + Matched(a, b, alo, i, blo, j, prev, cur) +
         Matched(a, b, i + k, ahi, j + k, bhi, prev, cur);
}

}  // namespace

double SequenceRatio(std::string_view a, std::string_view b) {
  size_t total = a.size() + b.size();
  if (total == 0) return 1.0;
  // Names are capped at 4096 bytes for this comparison (ids, not essays).
  a = a.substr(0, 4096);
  b = b.substr(0, 4096);
  total = a.size() + b.size();
  uint16_t stack_rows[2][130];
  std::vector<uint16_t> heap_rows;
  uint16_t *prev = stack_rows[0], *cur = stack_rows[1];
  if (b.size() + 1 > 130) {
    heap_rows.resize(2 * (b.size() + 1));
    prev = heap_rows.data();
    cur = prev + b.size() + 1;
  }
  return 2.0 * static_cast<double>(Matched(a, b, 0, a.size(), 0, b.size(), prev, cur)) /
         static_cast<double>(total);
}

// difflib's quick_ratio: an upper bound on SequenceRatio from character
// counts alone.
double QuickRatio(std::string_view a, std::string_view b) {
  int counts[256] = {0};
  for (unsigned char c : b) ++counts[c];
  size_t matches = 0;
  for (unsigned char c : a)
    if (counts[c]-- > 0) ++matches;
  size_t total = a.size() + b.size();
  return total == 0 ? 1.0 : 2.0 * static_cast<double>(matches) / total;
}

namespace {

// Distinct character trigrams of "\x02name\x03" (so short names have some).
std::vector<uint32_t> Trigrams(std::string_view name) {
  std::string padded = "\x02" + std::string(name) + "\x03";
  std::vector<uint32_t> out;
  for (size_t i = 0; i + 3 <= padded.size(); ++i)
    out.push_back(static_cast<uint8_t>(padded[i]) << 16 |
                  static_cast<uint8_t>(padded[i + 1]) << 8 |
                  static_cast<uint8_t>(padded[i + 2]));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<const std::string*> JobNameEstimator::CloseMatches(
    const std::string& name) const {
  constexpr double kCutoff = 0.6;
  Cached& cached = match_cache_[name];
  const auto from = static_cast<int32_t>(cached.names_seen);
  std::vector<uint32_t> grams = Trigrams(name);
  shared_.resize(names_.size(), 0);
  std::vector<int32_t> touched;
  for (uint32_t g : grams) {
    auto it = trigram_index_.find(g);
    if (it == trigram_index_.end()) continue;
    const auto& post = it->second;  // ascending name indices
    for (auto p = std::lower_bound(post.begin(), post.end(), from); p != post.end(); ++p)
      if (shared_[*p]++ == 0) touched.push_back(*p);
  }
  std::sort(touched.begin(), touched.end());  // insertion order: stable ties
  std::vector<std::pair<double, int32_t>> scored = cached.best;
  for (int32_t idx : touched) {
    double dice = 2.0 * shared_[idx] / (grams.size() + name_trigrams_[idx]);
    shared_[idx] = 0;
    if (dice < kMinTrigramDice) continue;
    const std::string& known = names_[idx];
    if (QuickRatio(name, known) < kCutoff) continue;
    double r = SequenceRatio(name, known);
    if (r >= kCutoff) scored.emplace_back(r, idx);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  if (scored.size() > 2) scored.resize(2);
  cached.best = scored;
  cached.names_seen = names_.size();
  std::vector<const std::string*> out;
  for (const auto& [r, idx] : scored) out.push_back(&names_[idx]);
  return out;
}

double JobNameEstimator::MeanOf(const std::vector<const std::string*>& names,
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

double JobNameEstimator::Estimate(const JobSpec& job, int64_t) {
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

void JobNameEstimator::Observe(const JobSpec& job, int64_t ran_s, int64_t) {
  double d = static_cast<double>(ran_s);
  auto [it, inserted] = by_name_.try_emplace(job.name);
  if (inserted) {
    auto idx = static_cast<int32_t>(names_.size());
    names_.push_back(job.name);
    std::vector<uint32_t> grams = Trigrams(job.name);
    name_trigrams_.push_back(static_cast<int32_t>(grams.size()));
    for (uint32_t g : grams) trigram_index_[g].push_back(idx);
  }
  NameStats& ns = it->second;
  ns.all.Add(d);
  UserStats& us = ns.by_user[job.user];
  us.all.Add(d);
  us.by_gpus[job.gpus].Add(d);
  by_user_[job.user].Add(d);
  global_.Add(d);
}

}  // namespace schedmate
