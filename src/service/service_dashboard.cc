// The dashboard's read endpoints (GET /v1/jobs, GET /v1/audit): what this
// process answered, joined with the history records its estimates matched,
// and the audit trail of the guard ledger. docs/service.md, "Dashboard".
#include <nlohmann/json.hpp>

#include "history/record.h"
#include "service/requests.h"
#include "service/service.h"

namespace schedmate {
namespace {

Reply JsonOk(const Json& body) { return {200, DumpJson(body), "application/json", 0, {}}; }

// What the jobs panel says about a matched record: when it ended, how long it
// ran, why it ended, what it was, and where its metadata came from.
Json MatchedRecordSummary(const HistoryRecord& r) {
  Json j = RecordToJson(r);
  Json out = {{"job_id", r.job_id},
              {"name", r.name},
              {"user", r.user},
              {"completed_at_s", r.completed_at_s},
              {"duration_s", r.duration_s},
              {"end_reason", j.value("end_reason", "")},
              {"num_gpus", r.num_gpus},
              {"snapshot_hash", r.snapshot_hash}};
  const Json md = j.contains("metadata") && j["metadata"].is_object() ? j["metadata"] : Json::object();
  for (const char* f : {"model_name", "dataset", "model_type"}) out[f] = md.contains(f) ? md[f] : Json();
  if (md.contains("provenance") && md["provenance"].is_object()) {
    const Json& p = md["provenance"];
    out["provenance"] = {{"extractor", p.value("extractor", "")},
                         {"files_read", p.contains("files_read") ? p["files_read"] : Json::array()}};
  }
  TruncateStrings(&out, RecentJobs::kMaxStringBytes);
  return out;
}

}  // namespace

void Service::AddMatchedRecords(std::vector<Json>* jobs) {
  const bool open = EnsureStore().ok();
  std::lock_guard<std::mutex> lock(store_mu_);
  for (Json& job : *jobs) {
    if (!job["advice"].is_object() || !job["advice"].contains("estimate")) continue;
    Json& matches = job["advice"]["estimate"]["matches"];
    if (!matches.is_array()) continue;
    for (Json& m : matches) {
      m["record"] = nullptr;
      if (!open || !m.contains("id") || !m["id"].is_string()) continue;
      auto r = store_->Get(m["id"].get<std::string>());
      if (!r.ok()) metrics_.CountStoreError();
      if (r.ok() && r->has_value()) m["record"] = MatchedRecordSummary(**r);
    }
  }
}

Reply Service::Jobs(const std::map<std::string, std::string>& query) {
  std::string bad_field;
  auto limit = ParseQueryLimit(query, {"limit"}, 100, &bad_field);
  if (!limit.ok()) return ErrorReply(InvalidRequest(bad_field, limit.status().message()));
  std::vector<Json> jobs = jobs_.Newest(static_cast<size_t>(*limit));
  AddMatchedRecords(&jobs);
  return JsonOk(Json{{"jobs", std::move(jobs)}, {"capacity", jobs_.capacity()}, {"now_ms", options_.clock->NowMs()}});
}

Reply Service::RecordJobEvents(const std::string& body) {
  auto json = ParseRequestBody(body);
  if (!json.ok()) return ErrorReply(InvalidJson(json.status().message()));
  std::string bad_field;
  auto request = ParseJobEventsRequest(*json, &bad_field);
  if (!request.ok()) return ErrorReply(InvalidRequest(bad_field, request.status().message()));
  const int64_t now = options_.clock->NowMs();
  for (const JobEvent& e : request->events) {
    const JobRef ref{e.job_id, ""};
    switch (e.kind) {
      case JobEvent::Kind::kAdvice: jobs_.RecordAdvice(ref, e.request, e.body, now); break;
      case JobEvent::Kind::kProgress: jobs_.RecordProgress(ref, e.body, now); break;
      case JobEvent::Kind::kFailure: jobs_.RecordFailure(ref, e.body, e.located, now); break;
    }
  }
  return {202, DumpJson(Json{{"recorded", request->events.size()}}), "application/json", 0, {}};
}

Reply Service::Audit(const std::map<std::string, std::string>& query) {
  std::string bad_field;
  auto limit = ParseQueryLimit(query, {"limit"}, 100, &bad_field);
  if (!limit.ok()) return ErrorReply(InvalidRequest(bad_field, limit.status().message()));
  auto trail = audit_.Newest(static_cast<size_t>(*limit));
  if (!trail.ok()) {
    metrics_.CountStoreError();
    return ErrorReply({503, "store_unavailable", "audit trail: " + trail.status().message(), "", 1});
  }
  std::string ledger = audit_.Describe();
  return JsonOk(Json{{"ledger", ledger.empty() ? Json() : Json(ledger)}, {"records", std::move(*trail)}});
}

}  // namespace schedmate
