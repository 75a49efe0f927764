#include "advisor/advisor.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "text/hashed_ngram_embedder.h"

namespace schedmate {
namespace {

std::string Norm(std::string s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<std::string> StoredField(const HistoryRecord& r, const char* field) {
  if (r.metadata_json.empty()) return std::nullopt;
  auto j = ParseJson(r.metadata_json, "metadata");
  if (!j.ok() || !j->is_object()) return std::nullopt;
  auto it = j->find(field);
  if (it == j->end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace

double EndReasonWeight(EndReason r) {
  switch (r) {
    case EndReason::kCompleted: return 1.0;
    case EndReason::kTimeout: return 0.8;
    case EndReason::kCancelled: return 0.3;
    case EndReason::kUnknown: return 0.5;
    default: return 0.1;  // failed: an early stop, not a normal duration
  }
}

std::string CanonicalRendering(const WorkloadMetadata& md) {
  std::string s;
  auto add = [&](const char* key, const std::string& v, int repeat = 1) {
    for (int i = 0; i < repeat; ++i) s += std::string(key) + " " + v + " ; ";
  };
  auto num = [](auto v) { return std::to_string(v); };
  if (md.model_name) add("model", *md.model_name, 3);
  if (md.model_type) add("task", *md.model_type);
  if (md.dataset) add("dataset", *md.dataset, 3);
  if (md.training_iterations) add("iterations", num(*md.training_iterations) + " " + md.iteration_type.value_or(""));
  if (md.batch_size) add("batch", num(*md.batch_size));
  if (md.hardware.num_gpus) add("gpus", num(*md.hardware.num_gpus));
  if (md.d_model) add("d_model", num(*md.d_model));
  if (md.num_layers) add("layers", num(*md.num_layers));
  if (md.seq_len) add("seq_len", num(*md.seq_len));
  if (md.precision) add("precision", *md.precision);
  if (md.framework) add("framework", *md.framework);
  if (md.launcher) add("launcher", *md.launcher);
  return s;
}

std::vector<float> Fingerprint(const WorkloadMetadata& md) {
  static const HashedNgramEmbedder embedder([] {
    HashedNgramOptions o;
    o.dimension = kFingerprintDimension;
    o.max_chars = 2048;
    return o;
  }());
  auto v = embedder.Embed(CanonicalRendering(md));
  return v.ok() ? *v : std::vector<float>(kFingerprintDimension, 0.0f);
}

DurationEstimate EstimateFromHistory(const WorkloadMetadata& md, const VectorIndex& index, HistoryStore& store,
                                     int64_t as_of_s, const EstimateOptions& o) {
  DurationEstimate e;
  auto hits = index.Search(Fingerprint(md), o.k * 3, as_of_s, o.min_score);  // room for the identity check
  std::vector<std::pair<HistoryRecord, double>> used;  // record, score
  for (const auto& h : hits) {
    if (used.size() >= o.k) break;
    auto r = store.Get(h.job_id);
    if (!r.ok() || !r->has_value()) continue;
    const HistoryRecord& rec = **r;
    if (rec.completed_at_s >= as_of_s) continue;  // belt and braces: never the future
    auto model = StoredField(rec, "model_name");
    auto data = StoredField(rec, "dataset");
    if (md.model_name && model && Norm(*md.model_name) != Norm(*model)) continue;
    if (md.dataset && data && Norm(*md.dataset) != Norm(*data)) continue;
    used.push_back({rec, h.score});
  }
  if (used.empty()) {
    e.fallback_reason = hits.empty() ? "no history match above the score threshold"
                                     : "similar jobs differ in model or dataset";
    return e;
  }
  double wsum = 0, dur = 0, util_w = 0, util = 0, lo = 1e300, hi = 0;
  for (const auto& [rec, score] : used) {
    double w = EndReasonWeight(rec.end_reason) * score;
    if (o.half_life_s > 0) w *= std::pow(0.5, static_cast<double>(as_of_s - rec.completed_at_s) / o.half_life_s);
    wsum += w;
    dur += w * static_cast<double>(rec.duration_s);
    if (rec.sm_util) {
      util += w * *rec.sm_util;
      util_w += w;
    }
    lo = std::min(lo, static_cast<double>(rec.duration_s));
    hi = std::max(hi, static_cast<double>(rec.duration_s));
    e.matches.push_back({rec.job_id, score});
  }
  double mean = dur / wsum;
  e.spread = mean > 0 ? (hi - lo) / mean : 0.0;
  if (*e.spread > o.max_spread) {
    e.fallback_reason = "matched durations spread too wide";
    return e;
  }
  e.method = DurationEstimate::Method::kHistory;
  e.duration_s = mean;
  if (util_w > 0) e.sm_util = util / util_w;
  return e;
}

}  // namespace schedmate
