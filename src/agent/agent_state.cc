#include "agent/agent_state.h"

#include <nlohmann/json.hpp>

#include "core/json.h"

namespace schedmate {
namespace {

constexpr int kStateVersion = 1;
constexpr int64_t kMaxStateBytes = 64 << 20;

Result<JobMemory> MemoryFromJson(const Json& j, const std::string& where) {
  if (!j.is_object()) return InvalidArgument(where + ": not an object");
  JobMemory m;
  ASSIGN_OR_RETURN(int64_t run, GetIntInRange(j, "run", where, 0, 1'000'000));
  ASSIGN_OR_RETURN(m.advised, GetBool(j, "advised", where));
  ASSIGN_OR_RETURN(m.end_handled, GetBool(j, "end_handled", where));
  ASSIGN_OR_RETURN(m.log_offset, GetIntInRange(j, "log_offset", where, 0, INT64_MAX));
  m.run = static_cast<int>(run);
  auto tail = j.find("tail");
  if (tail == j.end() || !tail->is_array()) return InvalidArgument(where + ": field 'tail' is not an array");
  for (const Json& line : *tail) {
    if (!line.is_string()) return InvalidArgument(where + ": field 'tail' holds a non-string");
    m.tail.push_back(line.get<std::string>());
  }
  return m;
}

Json MemoryToJson(const JobMemory& m) {
  return {{"run", m.run}, {"advised", m.advised}, {"end_handled", m.end_handled},
          {"log_offset", m.log_offset}, {"tail", Json(std::vector<std::string>(m.tail.begin(), m.tail.end()))}};
}


}  // namespace

Result<AgentState> AgentState::Load(const std::string& path, Env& env) {
  AgentState s;
  s.path_ = path;
  s.env_ = &env;
  Result<FileInfo> info = env.Stat(path);
  if (!info.ok() && info.status().code() == StatusCode::kNotFound) return s;
  ASSIGN_OR_RETURN(std::string text, env.ReadWholeFile(path, kMaxStateBytes));
  ASSIGN_OR_RETURN(Json doc, ParseJson(text, path));
  ASSIGN_OR_RETURN(int64_t version, GetInt(doc, "version", path));
  if (version != kStateVersion)
    return InvalidArgument(path + ": field 'version': " + std::to_string(version) + " is not " +
                           std::to_string(kStateVersion));
  auto jobs = doc.find("jobs");
  if (jobs == doc.end() || !jobs->is_object()) return InvalidArgument(path + ": field 'jobs' is not an object");
  for (const auto& [id, j] : jobs->items()) {
    ASSIGN_OR_RETURN(JobMemory m, MemoryFromJson(j, path + ": jobs." + id));
    s.jobs_[id] = std::move(m);
  }
  return s;
}

Status AgentState::Save() const {
  Json jobs = Json::object();
  for (const auto& [id, m] : jobs_) jobs[id] = MemoryToJson(m);
  Status s = env_->WriteFileAtomic(path_, DumpJson({{"version", kStateVersion}, {"jobs", jobs}}));
  return s.ok() ? s : s.WithContext("cannot save the agent state");
}

JobMemory& AgentState::For(const std::string& job_id, int run) {
  JobMemory& m = jobs_[job_id];
  if (m.run != run) {
    m.run = run;
    m.end_handled = false;
  }
  return m;
}

std::set<std::string> AgentState::Forget(const std::set<std::string>& listed) {
  std::set<std::string> unhandled;
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    if (listed.count(it->first)) {
      ++it;
      continue;
    }
    if (!it->second.end_handled) unhandled.insert(it->first);
    it = jobs_.erase(it);
  }
  return unhandled;
}

}  // namespace schedmate
