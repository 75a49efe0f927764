// An Embedder backed by an OpenAI-compatible `POST /v1/embeddings` (vLLM,
// TEI, llama.cpp server, Ollama). Texts are sent in batches; timeouts and
// retries follow the endpoint settings; the vectors are L2-normalised and
// must all have the dimension the first answer established.
// Thread safe.
#ifndef SCHEDMATE_LLM_HTTP_EMBEDDER_H_
#define SCHEDMATE_LLM_HTTP_EMBEDDER_H_

#include <atomic>
#include <string_view>
#include <vector>

#include "llm/chat_client.h"
#include "text/embedder.h"

namespace schedmate {

class HttpEmbedder : public Embedder {
 public:
  explicit HttpEmbedder(LlmEndpoint endpoint, size_t batch_size = 32);
  // 0 until the first successful request.
  int Dimension() const override { return dimension_.load(); }
  Result<std::vector<float>> Embed(std::string_view text) const override;
  Result<std::vector<std::vector<float>>> EmbedBatch(const std::vector<std::string_view>& texts) const;

 private:
  Result<std::vector<std::vector<float>>> Request(const std::vector<std::string_view>& texts) const;
  LlmEndpoint endpoint_;
  size_t batch_size_;
  mutable std::atomic<int> dimension_{0};
};

}  // namespace schedmate

#endif  // SCHEDMATE_LLM_HTTP_EMBEDDER_H_
