// How a failure handler enters the simulation (issue 18): one small hook the
// engine calls when a job fails. The engine knows nothing of logs or
// diagnoses; a higher layer (integrations/) implements the hook with the real
// Failure Handler, tests with fakes. Without a hook the job simply failed and
// the user-resubmission model of FailureParams applies.
#ifndef SCHEDMATE_SIM_RECOVERY_HOOK_H_
#define SCHEDMATE_SIM_RECOVERY_HOOK_H_

#include <cstdint>
#include <string>

#include "core/ids.h"
#include "sim/failures.h"

namespace schedmate {

// One failed job, as the simulator's truth knows it.
struct JobFailureEvent {
  JobIndex job;
  std::string job_id;
  int64_t now_s = 0;
  int32_t gpus = 0;
  // The root cause the job's generated log carries (the handler must
  // diagnose it from the log, not read it from here).
  FailureCategory category = FailureCategory::kUserScript;
  std::string component;  // infrastructure only
  // Where the failing rank ran: the broken node for infrastructure faults,
  // else the job's first node; its name as a cluster manager writes it.
  NodeIndex node;
  std::string node_name;
  // Ground truth for node-side health checks only (the job's log never
  // says it): is the node broken right now?
  bool node_broken = false;
  int64_t work_done_s = 0;   // seconds of work the job had done
  int64_t checkpoint_s = 0;  // of which saved in its latest checkpoint
};

struct RecoveryDecision {
  bool drain_node = false;               // take JobFailureEvent::node out of service, replace it
  bool restart_from_checkpoint = false;  // requeue at once, from the latest checkpoint
};

class RecoveryHook {
 public:
  virtual ~RecoveryHook() = default;
  // Called once per failure, at the failure's instant, after the job left
  // its GPUs. Must be deterministic for a deterministic simulation.
  virtual RecoveryDecision OnJobFailure(const JobFailureEvent& failure) = 0;
};

// "node-0007": the simulator's node names (stable, valid host names).
std::string SimNodeName(NodeIndex node);

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_RECOVERY_HOOK_H_
