#include "text/hashed_ngram_embedder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace schedmate {
namespace {

constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;

inline uint64_t Mix(uint64_t h) {
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  return h;
}

inline uint64_t HashBytes(std::string_view s, uint64_t seed) {
  uint64_t h = seed ^ (s.size() * kMul);
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
  return Mix(h);
}

// 1 + ln(n) for small counts: the sublinear tf without a log call per
// bucket (most buckets hold a count of 1).
const float* SublinearTable() {
  static const auto* table = [] {
    auto* t = new float[64];
    t[0] = 0;
    for (int n = 1; n < 64; ++n) t[n] = 1.0f + std::log(static_cast<float>(n));
    return t;
  }();
  return table;
}

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || c == '0' || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

}  // namespace

double Cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / std::sqrt(na * nb) : 0.0;
}

HashedNgramEmbedder::HashedNgramEmbedder(HashedNgramOptions options)
    : options_(options) {
  if (options_.dimension < 16) options_.dimension = 16;
}

std::string HashedNgramEmbedder::Normalize(std::string_view text,
                                           size_t max_chars) {
  std::string out;
  NormalizeInto(text, max_chars, &out);
  return out;
}

void HashedNgramEmbedder::NormalizeInto(std::string_view text, size_t max_chars,
                                        std::string* out_ptr) {
  std::string& out = *out_ptr;
  size_t n = std::min(text.size(), max_chars);
  out.resize(n);  // never grows past n
  char* w = out.data();
  char* begin = w;
  for (size_t i = 0; i < n; ++i) {
    char c = text[i];
    if (c >= '0' && c <= '9') {
      if (w == begin || w[-1] != '0') *w++ = '0';
      continue;
    }
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == '\t' || c == '\r' || c == '\n') c = ' ';
    if (c == ' ' && w != begin && w[-1] == ' ') continue;
    *w++ = c;
  }
  out.resize(static_cast<size_t>(w - begin));
}

void HashedNgramEmbedder::EmbedSparse(std::string_view text, SparseVector* out,
                                      std::vector<float>* scratch) const {
  out->clear();
  thread_local std::string norm;
  NormalizeInto(text, options_.max_chars, &norm);
  const uint64_t dim = static_cast<uint64_t>(options_.dimension);
  // scratch[0, dim): signed counts (zero between calls); a bucket is new
  // when its count is zero and it is not yet listed — `listed` marks that.
  float* acc = scratch->data();
  thread_local std::vector<uint8_t> listed;
  if (listed.size() < dim) listed.assign(dim, 0);
  uint8_t* mark = listed.data();
  auto add = [&](uint64_t h) {
    // Multiply-shift range reduction of the high 32 bits (no division); the
    // sign comes from bit 31, independent of the bucket bits.
    uint32_t bucket = static_cast<uint32_t>(((h >> 32) * dim) >> 32);
    if (!mark[bucket]) {
      mark[bucket] = 1;
      out->emplace_back(bucket, 0.0f);
    }
    acc[bucket] += ((h >> 31) & 1) ? -1.0f : 1.0f;
  };
  // Word n-grams over word tokens and single punctuation marks.
  if (options_.max_word_ngram > 0) {
    uint64_t window[8] = {0};
    int n_tokens = 0;
    size_t i = 0;
    while (i < norm.size()) {
      char c = norm[i];
      size_t start = i;
      if (IsWordChar(c)) {
        while (i < norm.size() && IsWordChar(norm[i])) ++i;
      } else if (c == ' ') {
        ++i;
        continue;
      } else {
        ++i;
      }
      uint64_t h = HashBytes(std::string_view(norm).substr(start, i - start), 0x51);
      for (int k = 7; k > 0; --k) window[k] = window[k - 1];
      window[0] = h;
      ++n_tokens;
      uint64_t g = 0;
      for (int n = 1; n <= options_.max_word_ngram && n <= n_tokens && n <= 8; ++n) {
        g = Mix(g * kMul + window[n - 1] + n);
        add(g);
      }
    }
  }
  // Character n-grams (n <= 7): a rolling window of the last n bytes,
  // hashed by one multiplication (its high bits pick the bucket).
  const int cn = std::min(options_.char_ngram, 7);
  if (cn > 0 && norm.size() >= static_cast<size_t>(cn)) {
    const uint64_t mask = (uint64_t{1} << (8 * cn)) - 1;
    uint64_t g = 0;
    for (size_t i = 0; i < norm.size(); ++i) {
      g = ((g << 8) | static_cast<unsigned char>(norm[i])) & mask;
      if (i + 1 >= static_cast<size_t>(cn)) add(Mix((g ^ 0xC4A2000000000000ull) * kMul));
    }
  }
  // Sublinear tf with the bucket's net sign, then L2 normalisation.
  const float* table = SublinearTable();
  float norm2 = 0;
  for (auto& [bucket, w] : *out) {
    float v = acc[bucket];
    acc[bucket] = 0.0f;
    mark[bucket] = 0;
    float mag = std::fabs(v);
    float tf = mag < 64 ? table[static_cast<int>(mag)] : 1.0f + std::log(mag);
    w = std::copysign(tf, v);
    norm2 += w * w;
  }
  if (norm2 > 0) {
    float inv = 1.0f / std::sqrt(norm2);
    for (auto& [bucket, w] : *out) w *= inv;
  }
}

Result<std::vector<float>> HashedNgramEmbedder::Embed(std::string_view text) const {
  std::vector<float> scratch(2 * options_.dimension, 0.0f);
  SparseVector sparse;
  EmbedSparse(text, &sparse, &scratch);
  std::vector<float> dense(options_.dimension, 0.0f);
  for (auto [bucket, w] : sparse) dense[bucket] = w;
  return dense;
}

}  // namespace schedmate
