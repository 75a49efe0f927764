#include "agent/slurm_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <nlohmann/json.hpp>

#include "core/json.h"

namespace schedmate {
namespace {

// A string field: "" when absent or null.
Result<std::string> Str(const Json& obj, std::string_view field, const std::string& where) {
  ASSIGN_OR_RETURN(auto v, GetOptString(obj, field, where));
  return v.value_or("");
}

// An integer field: `fallback` when absent or null.
Result<int64_t> Int(const Json& obj, std::string_view field, const std::string& where, int64_t fallback = 0) {
  ASSIGN_OR_RETURN(auto v, GetOptInt(obj, field, where));
  return v.value_or(fallback);
}

// The top-level array `key` of a squeue/sinfo document, after its "errors".
Result<const Json*> RecordArray(const Json& doc, std::string_view key, std::string_view source) {
  const std::string where(source);
  if (!doc.is_object()) return InvalidArgument(where + ": not a JSON object");
  if (auto errors = doc.find("errors"); errors != doc.end() && errors->is_array() && !errors->empty())
    return Unavailable(where + ": SLURM reported errors: " + DumpJson(*errors).substr(0, 300));
  auto it = doc.find(std::string(key));
  if (it == doc.end()) return InvalidArgument(where + ": field '" + std::string(key) + "' is missing");
  if (!it->is_array()) return InvalidArgument(where + ": field '" + std::string(key) + "' is not an array");
  return &*it;
}

// GPUs in a TRES list such as "gres:gpu:2,gres:nic:1" or "gres:gpu:a100:4";
// a GPU entry without a count means one.
Result<int> GpusIn(std::string_view tres, const std::string& where) {
  int gpus = 0;
  while (!tres.empty()) {
    size_t comma = tres.find(',');
    std::string_view item = tres.substr(0, comma);
    tres = comma == std::string_view::npos ? std::string_view() : tres.substr(comma + 1);
    if (item.rfind("gres:", 0) == 0) item.remove_prefix(5);
    if (item != "gpu" && item.rfind("gpu:", 0) != 0) continue;
    std::string_view last = item.substr(item.rfind(':') + 1);
    int n = 1;
    if (item.find(':') != std::string_view::npos && !last.empty() && std::isdigit(static_cast<unsigned char>(last[0]))) {
      auto [end, ec] = std::from_chars(last.data(), last.data() + last.size(), n);
      if (ec != std::errc() || end != last.data() + last.size() || n < 0 || n > 1'000'000)
        return InvalidArgument(where + ": GPU count '" + std::string(last) + "' is not a count");
    }
    gpus += n;
  }
  return gpus;
}

Status ReadGpus(const Json& j, const std::string& where, SlurmJob* job) {
  ASSIGN_OR_RETURN(std::string per_node, Str(j, "tres_per_node", where));
  ASSIGN_OR_RETURN(std::string per_job, Str(j, "tres_per_job", where));
  ASSIGN_OR_RETURN(int node_gpus, GpusIn(per_node, where + ": field 'tres_per_node'"));
  ASSIGN_OR_RETURN(int job_gpus, GpusIn(per_job, where + ": field 'tres_per_job'"));
  job->gpus = node_gpus * std::max(job->node_count, 1) + job_gpus;
  return Status::Ok();
}

// exit_code is the wait status: the exit code in bits 8-15, a signal in 0-6.
Status ReadExit(const Json& j, const std::string& where, SlurmJob* job) {
  ASSIGN_OR_RETURN(auto raw, GetOptIntInRange(j, "exit_code", where, 0, 0xffff));
  if (!raw || !JobEnded(*job)) return Status::Ok();
  job->exit_code = static_cast<int>((*raw >> 8) & 0xff);
  if ((*raw & 0x7f) != 0) job->exit_signal = static_cast<int>(*raw & 0x7f);
  return Status::Ok();
}

// Where SLURM writes an output stream: the pattern expanded, relative to the
// work dir; stdout defaults to slurm-%j.out, stderr to stdout.
std::string OutputPath(const std::string& pattern, const SlurmJob& job) {
  std::string p = ExpandOutputPattern(pattern.empty() ? "slurm-%j.out" : pattern, job);
  if (p.front() != '/' && !job.work_dir.empty()) p = job.work_dir + "/" + p;
  return p;
}

Status ReadPaths(const Json& j, const std::string& where, SlurmJob* job) {
  ASSIGN_OR_RETURN(job->command, Str(j, "command", where));
  ASSIGN_OR_RETURN(job->work_dir, Str(j, "current_working_directory", where));
  ASSIGN_OR_RETURN(std::string out, Str(j, "standard_output", where));
  ASSIGN_OR_RETURN(std::string err, Str(j, "standard_error", where));
  job->stdout_path = OutputPath(out, *job);
  job->stderr_path = err.empty() ? job->stdout_path : OutputPath(err, *job);
  return Status::Ok();
}

Status ReadTimes(const Json& j, const std::string& where, SlurmJob* job) {
  ASSIGN_OR_RETURN(job->submit_time_s, Int(j, "submit_time", where));
  ASSIGN_OR_RETURN(job->start_time_s, Int(j, "start_time", where));
  ASSIGN_OR_RETURN(job->end_time_s, Int(j, "end_time", where));
  if (!JobEnded(*job)) job->end_time_s = 0;  // a running job's end_time is its time limit
  if (job->state == "PENDING") job->start_time_s = 0;  // the expected start, not a start
  return Status::Ok();
}

Result<SlurmJob> ParseJob(const Json& j, const std::string& where_index) {
  if (!j.is_object()) return InvalidArgument(where_index + ": not an object");
  SlurmJob job;
  ASSIGN_OR_RETURN(int64_t id, GetIntInRange(j, "job_id", where_index, 1, INT64_MAX));
  job.job_id = std::to_string(id);
  const std::string where = where_index + " (job " + job.job_id + ")";
  ASSIGN_OR_RETURN(job.state, GetString(j, "job_state", where));
  ASSIGN_OR_RETURN(job.name, Str(j, "name", where));
  ASSIGN_OR_RETURN(job.partition, Str(j, "partition", where));
  ASSIGN_OR_RETURN(job.user, Str(j, "user_name", where));
  ASSIGN_OR_RETURN(job.reason, Str(j, "state_reason", where));
  ASSIGN_OR_RETURN(job.nodes, Str(j, "nodes", where));
  ASSIGN_OR_RETURN(job.batch_host, Str(j, "batch_host", where));
  ASSIGN_OR_RETURN(job.comment, Str(j, "comment", where));
  ASSIGN_OR_RETURN(int64_t count, Int(j, "node_count", where));
  ASSIGN_OR_RETURN(int64_t restarts, Int(j, "restart_cnt", where));
  ASSIGN_OR_RETURN(job.nice, GetOptInt(j, "nice", where));
  if (count < 0 || count > 1'000'000) return InvalidArgument(where + ": field 'node_count' out of range");
  if (restarts < 0 || restarts > 1'000'000) return InvalidArgument(where + ": field 'restart_cnt' out of range");
  job.node_count = static_cast<int>(count);
  job.restarts = static_cast<int>(restarts);
  RETURN_IF_ERROR(ReadGpus(j, where, &job));
  RETURN_IF_ERROR(ReadTimes(j, where, &job));
  RETURN_IF_ERROR(ReadExit(j, where, &job));
  RETURN_IF_ERROR(ReadPaths(j, where, &job));
  return job;
}

Result<SlurmNode> ParseNode(const Json& j, const std::string& where_index) {
  if (!j.is_object()) return InvalidArgument(where_index + ": not an object");
  SlurmNode node;
  ASSIGN_OR_RETURN(node.name, GetString(j, "name", where_index));
  const std::string where = where_index + " (node " + node.name + ")";
  ASSIGN_OR_RETURN(node.state, GetString(j, "state", where));
  ASSIGN_OR_RETURN(node.reason, Str(j, "reason", where));
  ASSIGN_OR_RETURN(std::string gres, Str(j, "gres", where));
  ASSIGN_OR_RETURN(node.gpus, GpusIn(gres, where + ": field 'gres'"));
  if (auto flags = j.find("state_flags"); flags != j.end() && !flags->is_null()) {
    if (!flags->is_array()) return InvalidArgument(where + ": field 'state_flags' is not an array");
    for (const Json& f : *flags) {
      if (!f.is_string()) return InvalidArgument(where + ": field 'state_flags' holds a non-string");
      node.flags.push_back(f.get<std::string>());
    }
  }
  return node;
}

template <typename T>
Result<std::vector<T>> ParseAll(std::string_view text, std::string_view source, std::string_view key,
                                Result<T> (*parse)(const Json&, const std::string&)) {
  ASSIGN_OR_RETURN(Json doc, ParseJson(text, source));
  ASSIGN_OR_RETURN(const Json* records, RecordArray(doc, key, source));
  std::vector<T> out;
  for (size_t i = 0; i < records->size(); ++i) {
    ASSIGN_OR_RETURN(T item, parse((*records)[i], std::string(source) + ": " + std::string(key) + "[" +
                                                      std::to_string(i) + "]"));
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace

bool SlurmNode::drained() const {
  return std::find(flags.begin(), flags.end(), "DRAIN") != flags.end() || state == "drained" ||
         state == "draining";
}

Result<std::vector<SlurmJob>> ParseSqueueJson(std::string_view text, std::string_view source) {
  return ParseAll<SlurmJob>(text, source, "jobs", &ParseJob);
}

Result<std::vector<SlurmNode>> ParseSinfoJson(std::string_view text, std::string_view source) {
  return ParseAll<SlurmNode>(text, source, "nodes", &ParseNode);
}

bool JobEnded(const SlurmJob& job) {
  static constexpr std::string_view kFinal[] = {"COMPLETED", "FAILED",        "TIMEOUT",   "CANCELLED",
                                                "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL",
                                                "DEADLINE"};
  return std::find(std::begin(kFinal), std::end(kFinal), job.state) != std::end(kFinal);
}

EndReason EndReasonOfState(const SlurmJob& job) {
  if (job.state == "COMPLETED") return EndReason::kCompleted;
  if (job.state == "TIMEOUT" || job.state == "DEADLINE") return EndReason::kTimeout;
  if (job.state == "CANCELLED" || job.state == "PREEMPTED") return EndReason::kCancelled;
  if (job.state == "NODE_FAIL" || job.state == "BOOT_FAIL") return EndReason::kFailedInfra;
  if (job.state == "OUT_OF_MEMORY") return EndReason::kFailedUser;
  return EndReason::kUnknown;  // FAILED: the log says why
}

std::string ExpandOutputPattern(std::string_view pattern, const SlurmJob& job) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    switch (pattern[++i]) {
      case 'j': case 'A': out += job.job_id; break;
      case 'x': out += job.name; break;
      case 'u': out += job.user; break;
      case 'N': out += job.batch_host.empty() ? SingleNode(job) : job.batch_host; break;
      case 'a': out += "4294967294"; break;  // SLURM's NO_VAL for a job outside an array
      case '%': out += '%'; break;
      default: out += '%'; out += pattern[i];
    }
  }
  return out;
}

std::string SingleNode(const SlurmJob& job) {
  if (job.node_count != 1 || job.nodes.find_first_of("[,") != std::string::npos) return "";
  return job.nodes;
}

}  // namespace schedmate
