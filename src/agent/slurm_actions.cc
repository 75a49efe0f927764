#include "agent/slurm_actions.h"

namespace schedmate {

std::string_view AgentActionName(AgentAction a) {
  switch (a) {
    case AgentAction::kComment: return "comment";
    case AgentAction::kPriority: return "priority";
    case AgentAction::kDrain: return "drain";
    case AgentAction::kRequeue: return "requeue";
  }
  return "unknown";
}

Result<std::set<AgentAction>> ParseEnforceList(std::string_view list) {
  std::set<AgentAction> out;
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    bool known = false;
    for (AgentAction a : {AgentAction::kComment, AgentAction::kPriority, AgentAction::kDrain, AgentAction::kRequeue})
      if (AgentActionName(a) == name) {
        out.insert(a);
        known = true;
      }
    if (!known)
      return InvalidArgument("--enforce: '" + std::string(name) + "' is not one of comment, priority, drain, requeue");
  }
  if (out.count(AgentAction::kRequeue) && !out.count(AgentAction::kDrain))
    return InvalidArgument("--enforce: requeue needs drain (a requeued job could land on the faulty node again)");
  return out;
}

Status SlurmClusterActions::Enabled(AgentAction a) const {
  if (enabled_.count(a)) return Status::Ok();
  return PermissionDenied(std::string(AgentActionName(a)) + " is not enabled (--enforce " +
                          std::string(AgentActionName(a)) + ")");
}

Status SlurmClusterActions::IsolateNode(const std::string& node, const std::string& reason) {
  RETURN_IF_ERROR(Enabled(AgentAction::kDrain));
  return client_->DrainNode(node, "schedmate: " + reason);
}

Status SlurmClusterActions::RequestReplacement(const std::string&) { return Status::Ok(); }

Status SlurmClusterActions::RestartJob(const std::string& job_id, const std::string&) {
  RETURN_IF_ERROR(Enabled(AgentAction::kRequeue));
  return client_->Requeue(job_id);
}

Status SlurmClusterActions::Report(const std::string& job_id, const std::string& message) {
  reports_.push_back(job_id + ": " + message);
  return Status::Ok();
}

}  // namespace schedmate
