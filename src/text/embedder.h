// Text embedders: text -> dense, L2-normalised vector, compared by cosine.
// The default is a deterministic hashed n-gram embedder (no model files);
// an HTTP embedder for OpenAI-compatible /v1/embeddings comes with llm/.
#ifndef SCHEDMATE_TEXT_EMBEDDER_H_
#define SCHEDMATE_TEXT_EMBEDDER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace schedmate {

class Embedder {
 public:
  virtual ~Embedder() = default;
  virtual int Dimension() const = 0;
  // Thread safety: implementations must allow concurrent Embed calls.
  virtual Result<std::vector<float>> Embed(std::string_view text) const = 0;
};

double Cosine(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace schedmate

#endif  // SCHEDMATE_TEXT_EMBEDDER_H_
