// What enforce mode may change in SLURM, each action enabled on its own
// (`--enforce comment,priority,drain,requeue`), and the Failure Handler's
// ClusterActions carried out through scontrol. Without any, the agent runs in
// shadow mode: everything it would do is audited, nothing is changed.
#ifndef SCHEDMATE_AGENT_SLURM_ACTIONS_H_
#define SCHEDMATE_AGENT_SLURM_ACTIONS_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "agent/slurm_client.h"
#include "core/status.h"
#include "failure/recovery.h"

namespace schedmate {

enum class AgentAction { kComment, kPriority, kDrain, kRequeue };
std::string_view AgentActionName(AgentAction a);

// "comment,priority,drain,requeue" (or "" for shadow mode). An unknown name
// is an error naming it. Requeue needs drain: a job requeued while its faulty
// node stays in service can land on that node again.
Result<std::set<AgentAction>> ParseEnforceList(std::string_view list);

// IsolateNode drains the node with the reason; RestartJob requeues the job
// (from scratch: SLURM restarts the batch script); an action not enabled is
// refused (PermissionDenied), which the RecoveryExecutor audits as refused.
// Reports are collected for the agent's output.
class SlurmClusterActions final : public ClusterActions {
 public:
  SlurmClusterActions(SlurmClient* client, std::set<AgentAction> enabled)
      : client_(client), enabled_(std::move(enabled)) {}
  Status IsolateNode(const std::string& node, const std::string& reason) override;
  // SLURM keeps no spare pool to ask for: the drained node's work goes to the
  // nodes left in service when the job is requeued, so there is nothing to call.
  Status RequestReplacement(const std::string& node) override;
  Status RestartJob(const std::string& job_id, const std::string& checkpoint) override;
  Status Report(const std::string& job_id, const std::string& message) override;
  const std::vector<std::string>& reports() const { return reports_; }

 private:
  Status Enabled(AgentAction a) const;

  SlurmClient* client_;
  std::set<AgentAction> enabled_;
  std::vector<std::string> reports_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_SLURM_ACTIONS_H_
