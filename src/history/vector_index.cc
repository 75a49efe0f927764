#include "history/vector_index.h"

#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <cmath>
#include <queue>

namespace schedmate {

class HnswGraph {
 public:
  HnswGraph(int dim, size_t capacity, int m, int ef_construction)
      : space(dim), index(&space, capacity, static_cast<size_t>(m), static_cast<size_t>(ef_construction)) {}
  hnswlib::InnerProductSpace space;
  hnswlib::HierarchicalNSW<float> index;
};

namespace {

// Eight independent partial sums: the compiler vectorises this without
// reassociating (no -ffast-math): 7x faster than one running sum over
// 20,000 fingerprints (bench/bench_vector_scan.cc).
float Dot(const float* a, const float* b, size_t n) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  size_t d = 0;
  for (; d + 8 <= n; d += 8)
    for (size_t u = 0; u < 8; ++u) acc[u] += a[d + u] * b[d + u];
  float sum = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  for (; d < n; ++d) sum += a[d] * b[d];
  return sum;
}


void Normalize(std::vector<float>* v) {
  double n = 0;
  for (float x : *v) n += static_cast<double>(x) * x;
  if (n <= 0) return;
  float inv = static_cast<float>(1.0 / std::sqrt(n));
  for (float& x : *v) x *= inv;
}

}  // namespace

VectorIndex::VectorIndex(VectorIndexOptions options) : options_(options) {}
VectorIndex::~VectorIndex() = default;
VectorIndex::VectorIndex(VectorIndex&&) noexcept = default;
VectorIndex& VectorIndex::operator=(VectorIndex&&) noexcept = default;

Status VectorIndex::Add(const std::string& job_id, const std::vector<float>& vector, int64_t completed_at_s) {
  const size_t dim = static_cast<size_t>(options_.dimension);
  if (vector.size() != dim)
    return InvalidArgument(job_id + ": fingerprint has " + std::to_string(vector.size()) + " dimensions, the index " +
                           std::to_string(dim));
  std::vector<float> v = vector;
  Normalize(&v);
  auto it = slot_.find(job_id);
  if (it != slot_.end()) {  // replace: the graph is rebuilt lazily
    std::copy(v.begin(), v.end(), vectors_.begin() + static_cast<long>(it->second * dim));
    completed_[it->second] = completed_at_s;
    graph_stale_ = true;
    return Status::Ok();
  }
  size_t slot = ids_.size();
  slot_[job_id] = slot;
  ids_.push_back(job_id);
  completed_.push_back(completed_at_s);
  vectors_.insert(vectors_.end(), v.begin(), v.end());
  if (graph_ && !graph_stale_) {
    try {
      // hnswlib 0.6 exposes its size as public members.
      if (graph_->index.cur_element_count >= graph_->index.max_elements_)
        graph_->index.resizeIndex(graph_->index.max_elements_ * 2);
      graph_->index.addPoint(vectors_.data() + slot * dim, slot);
    } catch (const std::exception& e) {
      graph_.reset();  // exact search still answers
      return ResourceExhausted(std::string("hnsw index: ") + e.what());
    }
  }
  return Status::Ok();
}

Status VectorIndex::BuildGraph() const {
  const size_t dim = static_cast<size_t>(options_.dimension);
  try {
    auto g = std::make_unique<HnswGraph>(options_.dimension, std::max<size_t>(ids_.size() * 2, 1024), options_.hnsw_m,
                                         options_.ef_construction);
    for (size_t i = 0; i < ids_.size(); ++i) g->index.addPoint(vectors_.data() + i * dim, i);
    graph_ = std::move(g);
    graph_stale_ = false;
  } catch (const std::exception& e) {
    graph_.reset();
    return ResourceExhausted(std::string("hnsw index: ") + e.what());
  }
  return Status::Ok();
}

std::vector<IndexHit> VectorIndex::SearchExact(const std::vector<float>& query, size_t k, int64_t as_of_s,
                                               float min_score) const {
  const size_t dim = static_cast<size_t>(options_.dimension);
  std::vector<IndexHit> out;
  if (query.size() != dim || k == 0) return out;
  std::vector<float> q = query;
  Normalize(&q);
  using Item = std::pair<float, size_t>;  // min-heap of the best k
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  for (size_t i = 0; i < ids_.size(); ++i) {
    if (completed_[i] >= as_of_s) continue;
    const float dot = Dot(q.data(), vectors_.data() + i * dim, dim);
    if (dot < min_score) continue;
    if (heap.size() < k) heap.push({dot, i});
    else if (dot > heap.top().first) {
      heap.pop();
      heap.push({dot, i});
    }
  }
  while (!heap.empty()) {
    out.push_back({ids_[heap.top().second], heap.top().first, completed_[heap.top().second]});
    heap.pop();
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<IndexHit> VectorIndex::Search(const std::vector<float>& query, size_t k, int64_t as_of_s,
                                          float min_score) const {
  const size_t dim = static_cast<size_t>(options_.dimension);
  if (ids_.size() <= options_.hnsw_threshold || query.size() != dim || k == 0)
    return SearchExact(query, k, as_of_s, min_score);
  if ((!graph_ || graph_stale_) && !BuildGraph().ok()) return SearchExact(query, k, as_of_s, min_score);
  std::vector<float> q = query;
  Normalize(&q);
  size_t want = std::min(ids_.size(), std::max<size_t>(k * 4, 32));
  std::vector<IndexHit> out;
  bool filtered = false;
  try {
    graph_->index.setEf(std::max<size_t>(static_cast<size_t>(options_.ef_search), want));
    auto result = graph_->index.searchKnn(q.data(), want);
    std::vector<std::pair<float, size_t>> items;
    while (!result.empty()) {
      items.push_back({1.0f - result.top().first, result.top().second});
      result.pop();
    }
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [score, slot] : items) {
      if (completed_[slot] >= as_of_s) {
        filtered = true;
        continue;
      }
      if (score < min_score || out.size() >= k) continue;
      out.push_back({ids_[slot], score, completed_[slot]});
    }
  } catch (const std::exception&) {
    return SearchExact(query, k, as_of_s, min_score);
  }
  // Future records crowded the candidates out: answer exactly instead.
  if (filtered && out.size() < k) return SearchExact(query, k, as_of_s, min_score);
  return out;
}

Result<VectorIndex> VectorIndex::Rebuild(HistoryStore& store, VectorIndexOptions options) {
  VectorIndex index(options);
  RETURN_IF_ERROR(store.ForEach([&](const HistoryRecord& r) -> Status {
    if (static_cast<int>(r.fingerprint.size()) != options.dimension) return Status::Ok();  // other embedder: skip
    return index.Add(r.job_id, r.fingerprint, r.completed_at_s);
  }));
  return index;
}

}  // namespace schedmate
