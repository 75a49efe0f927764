// Feature hashing of word and character n-grams (Weinberger et al.):
// each n-gram hashes to a bucket and a sign; a bucket's weight is the
// sublinear term frequency 1 + ln(tf) times the sign; the vector is
// L2-normalised. Before n-grams are taken the text is lower-cased and every
// run of digits becomes one "0", so "iter 120: loss 2.31" and
// "iter 130: loss 2.29" look alike — what a log-line classifier needs.
// Deterministic, no model files, no allocation per call beyond the output.
#ifndef SCHEDMATE_TEXT_HASHED_NGRAM_EMBEDDER_H_
#define SCHEDMATE_TEXT_HASHED_NGRAM_EMBEDDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/embedder.h"

namespace schedmate {

struct HashedNgramOptions {
  int dimension = 1024;      // buckets; any value >= 16
  int max_word_ngram = 2;    // word unigrams .. n-grams (0 = none)
  int char_ngram = 3;        // character n-gram length (0 = none)
  size_t max_chars = 256;    // only the first max_chars bytes are read
};

// A sparse, normalised embedding: (bucket, weight) pairs.
using SparseVector = std::vector<std::pair<uint32_t, float>>;

class HashedNgramEmbedder final : public Embedder {
 public:
  explicit HashedNgramEmbedder(HashedNgramOptions options = {});
  int Dimension() const override { return options_.dimension; }
  Result<std::vector<float>> Embed(std::string_view text) const override;

  // The same embedding in sparse form (the fast path). `scratch` must hold
  // 2 * Dimension() zeros; it is all zeros again on return.
  void EmbedSparse(std::string_view text, SparseVector* out,
                   std::vector<float>* scratch) const;

  // Lower-cases and folds digit runs to '0' (exposed for tests).
  static std::string Normalize(std::string_view text, size_t max_chars);
  static void NormalizeInto(std::string_view text, size_t max_chars,
                            std::string* out);

 private:
  HashedNgramOptions options_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_TEXT_HASHED_NGRAM_EMBEDDER_H_
