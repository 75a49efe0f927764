#include "llm/http_embedder.h"

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace schedmate {

HttpEmbedder::HttpEmbedder(LlmEndpoint endpoint, size_t batch_size)
    : endpoint_(std::move(endpoint)), batch_size_(batch_size == 0 ? 1 : batch_size) {}

Result<std::vector<float>> HttpEmbedder::Embed(std::string_view text) const {
  ASSIGN_OR_RETURN(auto v, Request({text}));
  return std::move(v[0]);
}

Result<std::vector<std::vector<float>>> HttpEmbedder::EmbedBatch(const std::vector<std::string_view>& texts) const {
  std::vector<std::vector<float>> out;
  for (size_t i = 0; i < texts.size(); i += batch_size_) {
    std::vector<std::string_view> part(texts.begin() + static_cast<long>(i),
                                       texts.begin() + static_cast<long>(std::min(texts.size(), i + batch_size_)));
    ASSIGN_OR_RETURN(auto vecs, Request(part));
    for (auto& v : vecs) out.push_back(std::move(v));
  }
  return out;
}

Result<std::vector<std::vector<float>>> HttpEmbedder::Request(const std::vector<std::string_view>& texts) const {
  Json input = Json::array();
  for (auto t : texts) input.push_back(std::string(t));
  Json body = {{"model", endpoint_.model}, {"input", input}};
  int attempts = 0;
  PostResult r = PostJsonWithRetries(endpoint_, "/embeddings", DumpJson(body), &attempts);
  if (!r.body) return r.error->ToStatus();
  auto data = r.body->find("data");
  if (data == r.body->end() || !data->is_array() || data->size() != texts.size())
    return LlmError{LlmErrorKind::kSchemaViolation, 0, "embeddings: 'data' must hold one item per input"}.ToStatus();
  std::vector<std::vector<float>> out(texts.size());
  for (size_t i = 0; i < data->size(); ++i) {
    const Json& item = (*data)[i];
    size_t index = i;
    if (auto idx = item.find("index"); idx != item.end() && idx->is_number_unsigned() && idx->get<size_t>() < out.size())
      index = idx->get<size_t>();
    auto emb = item.find("embedding");
    if (emb == item.end() || !emb->is_array() || emb->empty())
      return LlmError{LlmErrorKind::kSchemaViolation, 0, "embeddings: item " + std::to_string(i) + " has no vector"}.ToStatus();
    std::vector<float> v;
    double norm = 0;
    for (const auto& x : *emb) {
      if (!x.is_number()) return LlmError{LlmErrorKind::kSchemaViolation, 0, "embeddings: non-numeric value"}.ToStatus();
      v.push_back(x.get<float>());
      norm += static_cast<double>(v.back()) * v.back();
    }
    int expected = dimension_.load();
    if (expected == 0) dimension_.compare_exchange_strong(expected, static_cast<int>(v.size()));
    if (dimension_.load() != static_cast<int>(v.size()))
      return LlmError{LlmErrorKind::kSchemaViolation, 0, "embeddings: dimension changed to " + std::to_string(v.size())}.ToStatus();
    if (norm > 0)
      for (float& x : v) x = static_cast<float>(x / std::sqrt(norm));
    out[index] = std::move(v);
  }
  return out;
}

}  // namespace schedmate
