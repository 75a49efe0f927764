#include "advisor/advisor.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/facts_json.h"
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

std::optional<std::string> Field(const Json& j, const char* field) {
  auto it = j.find(field);
  if (it == j.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::optional<std::string> NormField(const Json& j, const char* field) {
  auto v = Field(j, field);
  if (v) *v = Norm(*v);
  return v;
}

// The fields that say what is trained, as ToJson(WorkloadMetadata) names them.
constexpr const char* kInformativeFields[] = {"model_name",          "model_type", "dataset",
                                              "training_iterations", "batch_size", "d_model",
                                              "num_layers",          "num_params", "seq_len"};

bool Stated(const Json& j, const char* field) {
  auto it = j.find(field);
  if (it == j.end() || it->is_null()) return false;
  return !it->is_string() || !it->get_ref<const std::string&>().empty();
}

// The budget ratio query/match when both state one of the same kind.
double BudgetScale(const WorkloadMetadata& md, const MetadataFacts& f) {
  if (!md.training_iterations || *md.training_iterations <= 0) return 1.0;
  if (!f.iterations || *f.iterations <= 0) return 1.0;
  if (f.iteration_type != md.iteration_type) return 1.0;
  return static_cast<double>(*md.training_iterations) / *f.iterations;
}

struct Used {
  const std::string* job_id;
  MatchCandidate record;
  double score, scale;
};

// The hits that may stand for the query: completed before `as_of_s`, stated
// informatively, with the same model and dataset where both state them, and
// within the tie margin of the best. Empty → `why` says what excluded them.
std::vector<Used> SelectMatches(const WorkloadMetadata& md, const std::vector<IndexHit>& hits,
                                const CandidateLookup& lookup, int64_t as_of_s, const EstimateOptions& o,
                                std::string* why) {
  std::vector<Used> used;
  int sparse = 0, differ = 0;
  const std::optional<std::string> model = md.model_name ? std::optional(Norm(*md.model_name)) : std::nullopt;
  const std::optional<std::string> data = md.dataset ? std::optional(Norm(*md.dataset)) : std::nullopt;
  for (const auto& h : hits) {
    if (used.size() >= o.k) break;
    if (!used.empty() && h.score < used.front().score - o.tie_margin) break;  // hits are best first
    const MatchCandidate* rec = lookup(h.job_id);
    if (!rec) continue;
    if (rec->completed_at_s >= as_of_s) continue;  // belt and braces: never the future
    const MetadataFacts& f = *rec->facts;
    if (!f.informative) {
      ++sparse;
      continue;
    }
    bool same_model = !model || !f.model || *model == *f.model;
    bool same_data = !data || !f.dataset || *data == *f.dataset;
    if (!same_model || !same_data) {
      ++differ;
      continue;
    }
    used.push_back({&h.job_id, *rec, h.score, BudgetScale(md, f)});
  }
  if (!used.empty()) return used;
  if (hits.empty())
    *why = "no history match above the score threshold";
  else if (sparse > 0 && differ == 0)
    *why = "the similar jobs' metadata is too sparse to match";
  else
    *why = "similar jobs differ in model or dataset";
  return used;
}

}  // namespace

std::string SparseMetadataReason(const Json& metadata) {
  if (!metadata.is_object()) return "no metadata";
  int stated = 0;
  for (const char* field : kInformativeFields) stated += Stated(metadata, field);
  bool names_it = Stated(metadata, "model_name") || Stated(metadata, "dataset");
  if (stated >= kMinInformativeFields && names_it) return "";
  return std::to_string(stated) + " of the fields that say what is trained are known; a match needs " +
         std::to_string(kMinInformativeFields) + ", one of them the model or the dataset";
}

MetadataFacts FactsOfMetadata(const Json& metadata) {
  MetadataFacts f;
  if (!metadata.is_object() || !SparseMetadataReason(metadata).empty()) return f;
  f.informative = true;
  f.model = NormField(metadata, "model_name");
  f.dataset = NormField(metadata, "dataset");
  if (auto it = metadata.find("training_iterations"); it != metadata.end() && it->is_number())
    f.iterations = it->get<double>();
  f.iteration_type = Field(metadata, "iteration_type");
  return f;
}

MetadataFacts FactsOfMetadataJson(const std::string& metadata_json) {
  if (metadata_json.empty()) return {};
  auto j = ParseJson(metadata_json, "metadata");
  if (!j.ok()) return {};
  return FactsOfMetadata(*j);
}

MatchCandidate CandidateOf(const HistoryRecord& r, std::shared_ptr<const MetadataFacts> facts) {
  MatchCandidate c;
  c.completed_at_s = r.completed_at_s;
  c.duration_s = r.duration_s;
  c.end_reason = r.end_reason;
  c.sm_util = r.sm_util;
  c.mem_util = r.mem_util;
  c.facts = facts ? std::move(facts) : std::make_shared<const MetadataFacts>(FactsOfMetadataJson(r.metadata_json));
  return c;
}

EstimateQuery PrepareQuery(const WorkloadMetadata& md) {
  return {md, Fingerprint(md), SparseMetadataReason(ToJson(md))};
}

double EndReasonWeight(EndReason r) {
  switch (r) {
    case EndReason::kCompleted: return 1.0;
    case EndReason::kTimeout: return 0.8;
    case EndReason::kCancelled: return 0.3;
    case EndReason::kUnknown: return 0.5;
    default: return 0.1;  // failed: an early stop, not a normal duration
  }
}

// The embedder folds digits (so "step 1200" and "step 1300" look alike in
// logs); a fingerprint must tell budgets apart, so numbers are spelled in
// letters, exactly, plus a coarse log2 bucket that keeps near budgets close.
std::string SpellNumber(int64_t v) {
  static const char kLetters[] = "zotrfvsehn";
  std::string digits = std::to_string(v), out;
  for (char c : digits) out += c >= '0' && c <= '9' ? kLetters[c - '0'] : 'x';
  int bucket = v > 0 ? static_cast<int>(std::lround(std::log2(static_cast<double>(v)))) : 0;
  return out + " mag" + std::string(1, static_cast<char>('a' + std::clamp(bucket, 0, 25)));
}

std::string CanonicalRendering(const WorkloadMetadata& md) {
  std::string s;
  auto add = [&](const char* key, const std::string& v, int repeat = 1) {
    for (int i = 0; i < repeat; ++i) s += std::string(key) + " " + v + " ; ";
  };
  auto num = [](auto v) { return SpellNumber(static_cast<int64_t>(v)); };
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
  MatchCandidate scratch;
  auto lookup = [&](const std::string& job_id) -> const MatchCandidate* {
    auto r = store.Get(job_id);
    if (!r.ok() || !r->has_value()) return nullptr;
    scratch = CandidateOf(**r);
    return &scratch;
  };
  return EstimateFromHistory(PrepareQuery(md), index, lookup, as_of_s, o);
}

DurationEstimate EstimateFromHistory(const EstimateQuery& query, const VectorIndex& index,
                                     const CandidateLookup& lookup, int64_t as_of_s, const EstimateOptions& o) {
  DurationEstimate e;
  if (!query.sparse_reason.empty()) {
    e.fallback_reason = "metadata too sparse to match: " + query.sparse_reason;
    return e;
  }
  auto hits = index.Search(query.fingerprint, o.k * 3, as_of_s, o.min_score);  // room for the identity check
  std::vector<Used> used = SelectMatches(query.md, hits, lookup, as_of_s, o, &e.fallback_reason);
  if (used.empty()) return e;
  double wsum = 0, dur = 0, util_w = 0, util = 0, lo = 1e300, hi = 0, mem = 0;
  int mem_n = 0;
  for (const auto& [job_id, rec, score, scale] : used) {
    double w = EndReasonWeight(rec.end_reason) * score;
    if (o.half_life_s > 0) w *= std::pow(0.5, static_cast<double>(as_of_s - rec.completed_at_s) / o.half_life_s);
    double d = static_cast<double>(rec.duration_s) * scale;
    wsum += w;
    dur += w * d;
    if (rec.sm_util) {
      util += w * *rec.sm_util;
      util_w += w;
    }
    if (rec.mem_util) mem += *rec.mem_util, ++mem_n;
    lo = std::min(lo, d);
    hi = std::max(hi, d);
    e.matches.push_back({*job_id, score});
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
  if (mem_n > 0) e.mem_util = mem / mem_n;
  return e;
}

}  // namespace schedmate
