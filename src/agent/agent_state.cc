#include "agent/agent_state.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/json.h"

namespace schedmate {
namespace {

constexpr int kStateVersion = 1;

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

Status WriteDurably(const std::string& path, const std::string& text) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Unavailable(path + ": cannot write the agent state: " + std::strerror(errno));
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && fsync(fd) == 0;
  int err = errno;
  close(fd);
  if (!ok) return Unavailable(path + ": cannot write the agent state: " + std::strerror(err));
  return Status::Ok();
}

}  // namespace

Result<AgentState> AgentState::Load(const std::string& path) {
  AgentState s;
  s.path_ = path;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return s;
  ASSIGN_OR_RETURN(Json doc, ReadJsonFile(path));
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
  const std::string tmp = path_ + ".tmp";
  RETURN_IF_ERROR(WriteDurably(tmp, DumpJson({{"version", kStateVersion}, {"jobs", jobs}})));
  if (std::rename(tmp.c_str(), path_.c_str()) != 0)
    return Unavailable(path_ + ": cannot replace the agent state: " + std::strerror(errno));
  return Status::Ok();
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
