// Stage 1 of the Metric Tracker (DESIGN §1.2): classify a log line into
// init, progress, eval, warning, info or error by cosine similarity of its
// hashed n-gram embedding to each category's centroid — the normalised mean
// of exemplar lines (data/line_exemplars.tsv, compiled in). A margin keeps
// the filter recall-first: a line whose progress score is within `margin`
// of the best score stays a progress candidate.
#ifndef SCHEDMATE_TEXT_LINE_CLASSIFIER_H_
#define SCHEDMATE_TEXT_LINE_CLASSIFIER_H_

#include <array>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "text/hashed_ngram_embedder.h"

namespace schedmate {

enum class LineCategory { kInit, kProgress, kEval, kWarning, kInfo, kError };
inline constexpr int kNumLineCategories = 6;
std::string_view LineCategoryName(LineCategory c);
Result<LineCategory> ParseLineCategory(std::string_view name);

struct LineScores {
  std::array<float, kNumLineCategories> score{};  // cosine per category
  LineCategory best = LineCategory::kInfo;
  float margin = 0;  // best minus second best
};

class LineClassifier {
 public:
  // `tsv`: "category<TAB>line" rows; '#' lines and blank lines ignored.
  static Result<LineClassifier> FromExemplars(std::string_view tsv,
                                              std::string_view source,
                                              HashedNgramOptions options = {});
  // Built from the compiled-in data/line_exemplars.tsv.
  static const LineClassifier& Default();

  // Reusable per-thread buffers.
  struct Scratch {
    SparseVector sparse;
    std::vector<float> dense;
  };
  Scratch MakeScratch() const;

  LineScores Classify(std::string_view line, Scratch& scratch) const;
  // True when progress is best or within `margin` of the best.
  bool MaybeProgress(std::string_view line, Scratch& scratch,
                     float margin = 0.05f) const;
  // The same decision from scores already computed.
  static bool IsProgressCandidate(const LineScores& scores, float margin = 0.05f);

 private:
  explicit LineClassifier(HashedNgramOptions o) : embedder_(o) {}
  HashedNgramEmbedder embedder_;
  static constexpr int kStride = 8;  // floats per bucket row (6 used)
  // centroids_[bucket * kStride + category]
  std::vector<float> centroids_;
};

// The compiled-in exemplar file.
std::string_view DefaultLineExemplars();

}  // namespace schedmate

#endif  // SCHEDMATE_TEXT_LINE_CLASSIFIER_H_
