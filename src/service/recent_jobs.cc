#include "service/recent_jobs.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

// The fields of an answer a panel shows (absent ones are left out).
Json Pick(const Json& answer, std::initializer_list<const char*> fields) {
  Json out = Json::object();
  for (const char* f : fields)
    if (answer.contains(f)) out[f] = answer[f];
  return out;
}

bool IsUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

void TruncateStrings(Json* value, size_t max_bytes) {
  if (value->is_string()) {
    std::string& s = value->get_ref<std::string&>();
    if (s.size() <= max_bytes) return;
    size_t cut = max_bytes;
    while (cut > 0 && IsUtf8Continuation(s[cut])) --cut;
    s.resize(cut);
    s += "\xE2\x80\xA6";  // …
    return;
  }
  if (value->is_structured())
    for (auto& child : *value) TruncateStrings(&child, max_bytes);
}

Json& RecentJobs::Touch(const JobRef& ref, int64_t now_ms) {
  std::string key = !ref.job_id.empty()         ? "job:" + ref.job_id
                    : !ref.fallback_key.empty() ? ref.fallback_key
                                                : "inline:" + std::to_string(anonymous_ + 1);
  if (auto it = by_key_.find(key); it != by_key_.end()) {
    entries_.splice(entries_.begin(), entries_, it->second);
    entries_.front().job["updated_ms"] = now_ms;
    return entries_.front().job;
  }
  if (entries_.size() >= capacity_) {
    by_key_.erase(entries_.back().key);
    entries_.pop_back();
  }
  std::string id = ref.job_id.empty() ? "anon-" + std::to_string(++anonymous_) : ref.job_id;
  Json job = {{"id", id},
              {"job_id", ref.job_id.empty() ? Json() : Json(ref.job_id)},
              {"first_seen_ms", now_ms},
              {"updated_ms", now_ms},
              {"advice", nullptr},
              {"progress", nullptr},
              {"failure", nullptr}};
  TruncateStrings(&job, kMaxStringBytes);
  entries_.push_front({key, std::move(job)});
  by_key_[key] = entries_.begin();
  return entries_.front().job;
}

void RecentJobs::RecordAdvice(const JobRef& ref, const Json& request, const Json& advice, int64_t now_ms) {
  Json part = Pick(request, {"repo", "rev", "cmd", "workdir"});
  part.update(Pick(advice, {"metadata", "estimate", "latency_ms", "snapshot", "backend"}));
  part["answered_ms"] = now_ms;
  TruncateStrings(&part, kMaxStringBytes);
  std::lock_guard<std::mutex> lock(mu_);
  Touch(ref, now_ms)["advice"] = std::move(part);
}

void RecentJobs::RecordProgress(const JobRef& ref, const Json& progress, int64_t now_ms) {
  Json part = Pick(progress, {"status", "step", "total_steps", "step_time_s", "steady_step_time_s", "throughput",
                              "steady_throughput", "throughput_unit", "loss", "progress_fraction", "eta_s",
                              "confidence", "backend", "log"});
  part["answered_ms"] = now_ms;
  TruncateStrings(&part, kMaxStringBytes);
  std::lock_guard<std::mutex> lock(mu_);
  Touch(ref, now_ms)["progress"] = std::move(part);
}

void RecentJobs::RecordFailure(const JobRef& ref, const Json& diagnosis, const LineWindow& window, int64_t now_ms) {
  Json part = Pick(diagnosis, {"error_type", "faulty_component", "root_cause_line", "root_cause_line_index",
                               "confidence", "evidence", "signature", "backend", "recovery", "log"});
  const Json& index = diagnosis.contains("root_cause_line_index") ? diagnosis["root_cause_line_index"] : Json();
  part["context"] = ContextAround(window, index.is_number_integer() ? index.get<int64_t>() : -1);
  part["context_are_offsets"] = diagnosis.contains("locate") && diagnosis["locate"].value("lines_are_offsets", false);
  part["answered_ms"] = now_ms;
  TruncateStrings(&part, kMaxStringBytes);
  std::lock_guard<std::mutex> lock(mu_);
  Touch(ref, now_ms)["failure"] = std::move(part);
}

std::vector<Json> RecentJobs::Newest(size_t limit) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Json> out;
  for (auto it = entries_.begin(); it != entries_.end() && out.size() < limit; ++it) out.push_back(it->job);
  return out;
}

}  // namespace schedmate
