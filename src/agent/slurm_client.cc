#include "agent/slurm_client.h"

#include <algorithm>

#include "failure/node_health.h"

namespace schedmate {
namespace {

// squeue/sinfo print whole documents: cap what is read far above a real queue's size.
constexpr size_t kMaxListingBytes = 256u << 20;

// A value is one argv word "key=value" (no shell is involved); a newline is
// flattened so the value stays one line in SLURM's records and in our audit.
std::string OneLine(std::string value) {
  std::replace(value.begin(), value.end(), '\n', ' ');
  return value;
}

bool ValidJobId(const std::string& id) {
  return !id.empty() && id.size() < 20 && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

CommandSlurmClient::CommandSlurmClient(int64_t timeout_ms, CommandRunner runner)
    : timeout_ms_(timeout_ms), runner_(std::move(runner)) {
  if (!runner_)
    runner_ = [](const std::vector<std::string>& argv, int64_t timeout) {
      return RunCommand(argv, timeout, kMaxListingBytes);
    };
}

Result<std::string> CommandSlurmClient::Run(const std::vector<std::string>& argv) {
  std::string shown;
  for (const auto& a : argv) shown += (shown.empty() ? "" : " ") + a;
  auto r = runner_(argv, timeout_ms_);
  if (!r.ok()) return Unavailable("'" + shown + "' could not start: " + r.status().message());
  if (r->timed_out) return Status(StatusCode::kDeadlineExceeded, "'" + shown + "' timed out");
  if (r->exit_code != 0)
    return Unavailable("'" + shown + "' exited " + std::to_string(r->exit_code) + ": " + r->output.substr(0, 300));
  return std::move(r->output);
}

Result<std::vector<SlurmJob>> CommandSlurmClient::Jobs() {
  ASSIGN_OR_RETURN(std::string text, Run({"squeue", "--all", "--states=all", "--json"}));
  return ParseSqueueJson(text, "squeue --json");
}

Result<std::vector<SlurmNode>> CommandSlurmClient::Nodes() {
  ASSIGN_OR_RETURN(std::string text, Run({"sinfo", "--json"}));
  return ParseSinfoJson(text, "sinfo --json");
}

Status CommandSlurmClient::UpdateJob(const std::string& job_id, const std::string& key, const std::string& value) {
  if (!ValidJobId(job_id)) return InvalidArgument("job id '" + job_id + "' is not a SLURM job id");
  return Run({"scontrol", "update", "jobid=" + job_id, key + "=" + OneLine(value)}).status();
}

Status CommandSlurmClient::DrainNode(const std::string& node, const std::string& reason) {
  if (!ValidNodeName(node)) return InvalidArgument("node '" + node + "' is not a plain host name");
  return Run({"scontrol", "update", "nodename=" + node, "state=drain", "reason=" + OneLine(reason)}).status();
}

Status CommandSlurmClient::Requeue(const std::string& job_id) {
  if (!ValidJobId(job_id)) return InvalidArgument("job id '" + job_id + "' is not a SLURM job id");
  RETURN_IF_ERROR(Run({"scontrol", "requeue", job_id}).status());
  return UpdateJob(job_id, "starttime", "now");
}

}  // namespace schedmate
