#include "text/line_classifier.h"

#include <cmath>
#include <string>

namespace schedmate {
namespace {

constexpr std::string_view kNames[kNumLineCategories] = {
    "init", "progress", "eval", "warning", "info", "error"};

}  // namespace

std::string_view LineCategoryName(LineCategory c) {
  return kNames[static_cast<int>(c)];
}

Result<LineCategory> ParseLineCategory(std::string_view name) {
  for (int i = 0; i < kNumLineCategories; ++i)
    if (kNames[i] == name) return static_cast<LineCategory>(i);
  return InvalidArgument("unknown line category '" + std::string(name) +
                         "' (init, progress, eval, warning, info, error)");
}

Result<LineClassifier> LineClassifier::FromExemplars(std::string_view tsv,
                                                     std::string_view source,
                                                     HashedNgramOptions options) {
  LineClassifier c(options);
  const int dim = c.embedder_.Dimension();
  std::vector<double> sums(static_cast<size_t>(dim) * kNumLineCategories, 0.0);
  std::array<int, kNumLineCategories> counts{};
  Scratch s = c.MakeScratch();
  int line_no = 0;
  while (!tsv.empty()) {
    size_t nl = tsv.find('\n');
    std::string_view row = tsv.substr(0, nl);
    tsv = nl == std::string_view::npos ? "" : tsv.substr(nl + 1);
    ++line_no;
    if (row.empty() || row[0] == '#') continue;
    size_t tab = row.find('\t');
    if (tab == std::string_view::npos)
      return InvalidArgument(std::string(source) + ":" + std::to_string(line_no) +
                             ": expected category<TAB>line");
    auto cat = ParseLineCategory(row.substr(0, tab));
    if (!cat.ok())
      return cat.status().WithContext(std::string(source) + ":" + std::to_string(line_no));
    c.embedder_.EmbedSparse(row.substr(tab + 1), &s.sparse, &s.dense);
    int k = static_cast<int>(*cat);
    for (auto [bucket, w] : s.sparse) sums[bucket * kNumLineCategories + k] += w;
    ++counts[k];
  }
  for (int k = 0; k < kNumLineCategories; ++k)
    if (counts[k] == 0)
      return InvalidArgument(std::string(source) + ": no exemplars for '" +
                             std::string(kNames[k]) + "'");
  c.centroids_.assign(static_cast<size_t>(dim) * kStride, 0.0f);
  for (int k = 0; k < kNumLineCategories; ++k) {
    double norm2 = 0;
    for (int b = 0; b < dim; ++b) norm2 += sums[b * kNumLineCategories + k] * sums[b * kNumLineCategories + k];
    double inv = norm2 > 0 ? 1.0 / std::sqrt(norm2) : 0.0;
    for (int b = 0; b < dim; ++b)
      c.centroids_[b * kStride + k] =
          static_cast<float>(sums[b * kNumLineCategories + k] * inv);
  }
  return c;
}

const LineClassifier& LineClassifier::Default() {
  static const LineClassifier kDefault = [] {
    auto c = FromExemplars(DefaultLineExemplars(), "data/line_exemplars.tsv");
    // The file is compiled in and tested; failing here is a build defect.
    if (!c.ok()) __builtin_trap();
    return std::move(c).value();
  }();
  return kDefault;
}

LineClassifier::Scratch LineClassifier::MakeScratch() const {
  Scratch s;
  s.dense.assign(2 * embedder_.Dimension(), 0.0f);
  return s;
}

LineScores LineClassifier::Classify(std::string_view line, Scratch& s) const {
  embedder_.EmbedSparse(line, &s.sparse, &s.dense);
  LineScores out;
  // Rows padded to kStride floats so this loop vectorises.
  alignas(32) float acc[kStride] = {};
  for (auto [bucket, w] : s.sparse) {
    const float* c = &centroids_[bucket * kStride];
    for (int k = 0; k < kStride; ++k) acc[k] += w * c[k];
  }
  for (int k = 0; k < kNumLineCategories; ++k) out.score[k] = acc[k];
  int best = 0, second = -1;
  for (int k = 1; k < kNumLineCategories; ++k) {
    if (out.score[k] > out.score[best]) {
      second = best;
      best = k;
    } else if (second < 0 || out.score[k] > out.score[second]) {
      second = k;
    }
  }
  out.best = static_cast<LineCategory>(best);
  out.margin = out.score[best] - out.score[second];
  return out;
}

bool LineClassifier::IsProgressCandidate(const LineScores& r, float margin) {
  const int p = static_cast<int>(LineCategory::kProgress);
  return r.score[p] >= r.score[static_cast<int>(r.best)] - margin;
}

bool LineClassifier::MaybeProgress(std::string_view line, Scratch& s,
                                   float margin) const {
  return IsProgressCandidate(Classify(line, s), margin);
}

}  // namespace schedmate
