// In-process similarity search over history fingerprints (DESIGN §4):
// exact cosine top-k by default; an HNSW graph (hnswlib) once the index
// holds more than `hnsw_threshold` vectors. Queries are "as of" a time:
// records completed at or after it are invisible, so a job never learns from
// its future. Vectors are L2-normalised on insert; cosine = dot product.
// Rebuilt from the store at start. Not thread safe: even Search may build
// the graph lazily (the first search above the threshold, or after a replace).
#ifndef SCHEDMATE_HISTORY_VECTOR_INDEX_H_
#define SCHEDMATE_HISTORY_VECTOR_INDEX_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/status.h"
#include "history/store.h"

namespace schedmate {

struct VectorIndexOptions {
  int dimension = 256;
  size_t hnsw_threshold = 20000;
  int hnsw_m = 16;
  int ef_construction = 100;
  int ef_search = 128;
};

struct IndexHit {
  std::string job_id;
  float score = 0;
  int64_t completed_at_s = 0;
};

class HnswGraph;  // hides hnswlib

class VectorIndex {
 public:
  explicit VectorIndex(VectorIndexOptions options = {});
  ~VectorIndex();
  VectorIndex(VectorIndex&&) noexcept;
  VectorIndex& operator=(VectorIndex&&) noexcept;

  // Inserts or replaces `job_id`. InvalidArgument on a wrong dimension.
  Status Add(const std::string& job_id, const std::vector<float>& vector, int64_t completed_at_s);
  // Top-k by cosine among records with completed_at_s < as_of_s and score
  // >= min_score, best first.
  std::vector<IndexHit> Search(const std::vector<float>& query, size_t k, int64_t as_of_s, float min_score) const;
  // The same by a full scan (the reference the HNSW answers are checked against).
  std::vector<IndexHit> SearchExact(const std::vector<float>& query, size_t k, int64_t as_of_s, float min_score) const;

  size_t size() const { return ids_.size(); }
  bool Contains(const std::string& job_id) const { return slot_.count(job_id) > 0; }
  const VectorIndexOptions& options() const { return options_; }
  bool uses_hnsw() const { return graph_ != nullptr; }

  // Loads every record with a fingerprint of the right dimension.
  static Result<VectorIndex> Rebuild(HistoryStore& store, VectorIndexOptions options = {});

 private:
  Status BuildGraph() const;

  VectorIndexOptions options_;
  std::vector<float> vectors_;  // size() × dimension, normalised
  std::vector<std::string> ids_;
  std::vector<int64_t> completed_;
  std::unordered_map<std::string, size_t> slot_;
  mutable std::unique_ptr<HnswGraph> graph_;
  mutable bool graph_stale_ = false;
};

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_VECTOR_INDEX_H_
