#include "text/linear_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>

#include "core/random.h"

namespace schedmate {

int LinearModel::ClassIndex(std::string_view name) const {
  for (size_t k = 0; k < classes_.size(); ++k)
    if (classes_[k] == name) return static_cast<int>(k);
  return -1;
}

Result<LinearModel> LinearModel::Parse(std::string_view tsv, std::vector<std::string> classes, std::string_view what) {
  LinearModel m(std::move(classes));
  size_t start = 0;
  int line_no = 0;
  while (start < tsv.size()) {
    size_t nl = tsv.find('\n', start);
    std::string_view row = tsv.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? tsv.size() : nl + 1;
    ++line_no;
    if (row.empty() || row[0] == '#') continue;
    auto where = [&] { return std::string(what) + " line " + std::to_string(line_no); };
    size_t a = row.find('\t');
    size_t b = a == std::string_view::npos ? a : row.find('\t', a + 1);
    if (b == std::string_view::npos) return InvalidArgument(where() + ": expected feature<TAB>class<TAB>weight");
    int k = m.ClassIndex(row.substr(a + 1, b - a - 1));
    if (k < 0) return InvalidArgument(where() + ": unknown class '" + std::string(row.substr(a + 1, b - a - 1)) + "'");
    std::string w(row.substr(b + 1));
    char* end = nullptr;
    double v = std::strtod(w.c_str(), &end);
    if (end == w.c_str() || !std::isfinite(v)) return InvalidArgument(where() + ": bad weight '" + w + "'");
    auto& slot = m.weights_[std::string(row.substr(0, a))];
    slot.resize(m.classes_.size(), 0.0f);
    slot[k] = static_cast<float>(v);
  }
  return m;
}

std::vector<double> LinearModel::Probabilities(const std::vector<std::string>& features) const {
  std::vector<double> z(classes_.size(), 0.0);
  if (z.empty()) return z;
  for (const auto& f : features)
    if (auto it = weights_.find(f); it != weights_.end())
      for (size_t k = 0; k < z.size(); ++k) z[k] += it->second[k];
  double m = *std::max_element(z.begin(), z.end());
  double sum = 0;
  for (double& x : z) sum += (x = std::exp(x - m));
  for (double& x : z) x /= sum;
  return z;
}

int LinearModel::Best(const std::vector<std::string>& features) const {
  auto p = Probabilities(features);
  return p.empty() ? -1 : static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
}

LinearModel LinearModel::Train(std::vector<std::string> classes, const std::vector<Example>& examples,
                               const TrainOptions& o) {
  LinearModel m(std::move(classes));
  const size_t k_count = m.classes_.size();
  std::vector<size_t> order(examples.size());
  std::iota(order.begin(), order.end(), 0);
  Rng rng(o.seed);
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.Below(i)]);
    double rate = o.rate / (1 + epoch * 0.2);
    for (size_t idx : order) {
      const Example& ex = examples[idx];
      std::vector<double> p = m.Probabilities(ex.features);
      for (const auto& f : ex.features) {
        auto& w = m.weights_[f];
        w.resize(k_count, 0.0f);
        for (size_t k = 0; k < k_count; ++k) {
          double grad = p[k] - (static_cast<int>(k) == ex.label ? 1.0 : 0.0);
          w[k] -= static_cast<float>(rate * (ex.weight * grad + o.l2 * w[k]));
        }
      }
    }
  }
  return m;
}

LinearModel LinearModel::Average(const std::vector<LinearModel>& models) {
  LinearModel out(models.front().classes_);
  const float share = 1.0f / static_cast<float>(models.size());
  for (const LinearModel& m : models)
    for (const auto& [f, w] : m.weights_) {
      auto& slot = out.weights_[f];
      slot.resize(out.classes_.size(), 0.0f);
      for (size_t k = 0; k < w.size() && k < slot.size(); ++k) slot[k] += share * w[k];
    }
  return out;
}

std::string LinearModel::Dump(double min_weight) const {
  std::map<std::string, std::vector<float>> sorted(weights_.begin(), weights_.end());
  std::string out;
  char buf[32];
  for (const auto& [f, w] : sorted)
    for (size_t k = 0; k < w.size(); ++k) {
      if (std::fabs(w[k]) < min_weight) continue;
      std::snprintf(buf, sizeof buf, "%.4g", w[k]);
      out += f + '\t' + classes_[k] + '\t' + buf + '\n';
    }
  return out;
}

}  // namespace schedmate
