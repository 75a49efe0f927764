#include "agent/event_report.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "llm/endpoint.h"
#include "llm/http_post.h"

namespace schedmate {
namespace {

std::string JobId(const Json& e) { return "slurm-" + e.value("job", std::string()); }

// The recovery the agent planned for a job, as the dashboard reads a plan:
// its steps and reason, whether anything was executed, in shadow mode or not.
Json RecoveryOf(const Json& recovery) {
  Json plan = recovery.value("plan", Json::object());
  const Json& executed = recovery.contains("executed") ? recovery["executed"] : Json();
  plan["executed"] = executed.is_array() && !executed.empty();
  plan["shadow"] = recovery.value("shadow", true);
  return plan;
}

}  // namespace

Json JobEventsBody(const std::vector<Json>& agent_events, const std::string& source) {
  std::map<std::string, const Json*> recovery;  // job id → its recovery event in this poll
  for (const Json& e : agent_events)
    if (e.is_object() && e.value("event", "") == "recovery") recovery[JobId(e)] = &e;
  Json events = Json::array();
  for (const Json& e : agent_events) {
    if (!e.is_object() || !e.contains("job")) continue;
    const std::string kind = e.value("event", "");
    Json out = {{"job_id", JobId(e)}};
    if (kind == "advise") {
      out["kind"] = "advice";
      out["command"] = e.value("launch", std::string());
      out["advice"] = {{"metadata", e.value("metadata", Json())}, {"estimate", e.value("estimate", Json())}};
    } else if (kind == "progress" && e.contains("progress") && e["progress"].is_object()) {
      out["kind"] = "progress";
      out["progress"] = e["progress"];
      out["progress"]["log"] = e.value("log", std::string());
    } else if (kind == "ended" && e.contains("diagnosis") && e["diagnosis"].is_object()) {
      out["kind"] = "failure";
      Json d = e["diagnosis"];
      if (d.contains("located")) {
        out["located"] = d["located"];
        d.erase("located");
      }
      if (auto r = recovery.find(JobId(e)); r != recovery.end()) d["recovery"] = RecoveryOf(*r->second);
      out["diagnosis"] = std::move(d);
    } else {
      continue;
    }
    events.push_back(std::move(out));
  }
  return {{"source", source}, {"events", std::move(events)}};
}

Status EventReporter::Report(const std::vector<Json>& agent_events, const std::string& source) const {
  Json body = JobEventsBody(agent_events, source);
  if (body["events"].empty()) return Status::Ok();
  LlmEndpoint endpoint;  // one bounded JSON POST (llm/http_post), no retries
  endpoint.base_url = options_.base_url;
  endpoint.api_key = options_.token;
  endpoint.deadline_s = options_.deadline_s;
  endpoint.connect_timeout_s = std::min(1.0, options_.deadline_s);
  endpoint.max_retries = 0;
  endpoint.max_response_bytes = 64 << 10;
  // The service takes at most 200 events per request (kMaxJobEvents): a long first poll goes in parts.
  const Json& all = body["events"];
  for (size_t start = 0; start < all.size(); start += 200) {
    Json part = {{"source", source}, {"events", Json::array()}};
    for (size_t i = start; i < all.size() && i < start + 200; ++i) part["events"].push_back(all[i]);
    int attempts = 0;
    PostResult r = PostJsonWithRetries(endpoint, "/jobs/events", DumpJson(part), &attempts);
    if (r.error) return Unavailable("reporting to " + options_.base_url + "/v1/jobs/events: " + r.error->message);
  }
  return Status::Ok();
}

}  // namespace schedmate
