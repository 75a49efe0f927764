#include "policies/lucid/workload_estimator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace schedmate {

void WorkloadEstimator::Observe(const LucidFeatures& f, double duration_s) {
  seen_.emplace_back(f, std::log(std::max(duration_s, 1.0)));
}

WorkloadEstimator::Row WorkloadEstimator::Encode(const LucidFeatures& f) const {
  auto enc = [&](const std::unordered_map<std::string, Encoding>& m, const std::string& k, double* n) {
    auto it = m.find(k);
    double sum = it == m.end() ? 0 : it->second.sum;
    double cnt = it == m.end() ? 0 : static_cast<double>(it->second.n);
    *n = cnt;
    return (sum + o_.prior_jobs * global_mean_) / (cnt + o_.prior_jobs);
  };
  double user_n = 0, vc_n = 0;
  double user_mean = enc(user_, f.user, &user_n), vc_mean = enc(vc_, f.vc, &vc_n);
  double hour = static_cast<double>((f.submit_s / 3600) % 24), day = static_cast<double>((f.submit_s / 86400) % 7);
  return {user_mean, std::log1p(user_n), vc_mean, std::log1p(vc_n), std::log2(std::max(f.gpus, 1)),
          hour, day, f.sm_util, f.gmem_mib};
}

int WorkloadEstimator::Grow(std::vector<size_t>& idx, size_t lo, size_t hi, int depth) {
  const double n = static_cast<double>(hi - lo);
  double sum = 0, sq = 0;
  for (size_t k = lo; k < hi; ++k) sum += targets_[idx[k]], sq += targets_[idx[k]] * targets_[idx[k]];
  int id = static_cast<int>(tree_.size());
  tree_.push_back({-1, 0, sum / n, -1, -1});
  if (depth >= o_.max_depth || hi - lo < static_cast<size_t>(2 * o_.min_leaf)) return id;
  double best_gain = 1e-9, best_threshold = 0;
  int best_feature = -1;
  const double base = sq - sum * sum / n;
  // Each feature's sort moves (value, target, row) triples rather than row
  // numbers that point into rows_: the comparisons, and so the order
  // std::sort leaves, are the same, and the scan reads memory in order.
  std::vector<Keyed>& keyed = scratch_;
  for (int f = 0; f < kNumFeatures; ++f) {
    keyed.clear();
    for (size_t k = lo; k < hi; ++k) keyed.push_back({rows_[idx[k]][f], targets_[idx[k]], idx[k]});
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) { return a.value < b.value; });
    for (size_t k = lo; k < hi; ++k) idx[k] = keyed[k - lo].row;
    double ls = 0, lq = 0;
    for (size_t k = 0; k + 1 < keyed.size(); ++k) {
      double y = keyed[k].target;
      ls += y, lq += y * y;
      size_t nl = k + 1, nr = keyed.size() - k - 1;
      if (nl < static_cast<size_t>(o_.min_leaf) || nr < static_cast<size_t>(o_.min_leaf)) continue;
      double x = keyed[k].value, next = keyed[k + 1].value;
      if (x == next) continue;
      double rs = sum - ls, rq = sq - lq;
      double sse = (lq - ls * ls / static_cast<double>(nl)) + (rq - rs * rs / static_cast<double>(nr));
      if (base - sse > best_gain) best_gain = base - sse, best_feature = f, best_threshold = (x + next) / 2;
    }
  }
  if (best_feature < 0) return id;
  auto mid = std::partition(idx.begin() + static_cast<long>(lo), idx.begin() + static_cast<long>(hi),
                            [&](size_t r) { return rows_[r][best_feature] < best_threshold; });
  size_t m = static_cast<size_t>(mid - idx.begin());
  // Two adjacent doubles can have a midpoint equal to one of them: then the
  // split separates nothing, and this node stays a leaf.
  if (m == lo || m == hi) return id;
  int left = Grow(idx, lo, m, depth + 1);
  int right = Grow(idx, m, hi, depth + 1);
  tree_[id].feature = best_feature;
  tree_[id].threshold = best_threshold;
  tree_[id].left = left;
  tree_[id].right = right;
  return id;
}

void WorkloadEstimator::Retrain() {
  if (seen_.empty()) return;
  size_t first = seen_.size() > o_.max_training_jobs ? seen_.size() - o_.max_training_jobs : 0;
  user_.clear();
  vc_.clear();
  global_mean_ = 0;
  for (size_t i = first; i < seen_.size(); ++i) {
    const auto& [f, y] = seen_[i];
    global_mean_ += y;
    user_[f.user].sum += y, ++user_[f.user].n;
    vc_[f.vc].sum += y, ++vc_[f.vc].n;
  }
  global_mean_ /= static_cast<double>(seen_.size() - first);
  rows_.clear();
  targets_.clear();
  for (size_t i = first; i < seen_.size(); ++i) {
    rows_.push_back(Encode(seen_[i].first));
    targets_.push_back(seen_[i].second);
  }
  tree_.clear();
  std::vector<size_t> idx(rows_.size());
  std::iota(idx.begin(), idx.end(), 0);
  Grow(idx, 0, idx.size(), 0);
  trained_on_ = rows_.size();
}

double WorkloadEstimator::Estimate(const LucidFeatures& f) const {
  if (tree_.empty()) return o_.cold_start_s;
  Row r = Encode(f);
  int n = 0;
  while (tree_[n].feature >= 0) n = r[tree_[n].feature] < tree_[n].threshold ? tree_[n].left : tree_[n].right;
  return std::exp(tree_[n].value);
}

}  // namespace schedmate
