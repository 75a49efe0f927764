// The agent's one door to SLURM: read the queue and the nodes, and the four
// changes enforce mode may make. The real client runs squeue/sinfo/scontrol
// through core/subprocess (a deadline on every call, no shell); tests pass a
// fake runner and see the exact argv.
#ifndef SCHEDMATE_AGENT_SLURM_CLIENT_H_
#define SCHEDMATE_AGENT_SLURM_CLIENT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "agent/slurm_json.h"
#include "core/status.h"
#include "core/subprocess.h"

namespace schedmate {

class SlurmClient {
 public:
  virtual ~SlurmClient() = default;
  // Every job SLURM still remembers, finished ones included (MinJobAge).
  virtual Result<std::vector<SlurmJob>> Jobs() = 0;
  virtual Result<std::vector<SlurmNode>> Nodes() = 0;
  // `scontrol update jobid=J key=value` (comment, nice, priority, starttime).
  virtual Status UpdateJob(const std::string& job_id, const std::string& key, const std::string& value) = 0;
  virtual Status DrainNode(const std::string& node, const std::string& reason) = 0;
  // Back to the queue, eligible at once (scontrol requeue, then starttime=now:
  // a requeued job otherwise waits out SLURM's requeue delay).
  virtual Status Requeue(const std::string& job_id) = 0;
};

using CommandRunner = std::function<Result<CommandOutcome>(const std::vector<std::string>& argv, int64_t timeout_ms)>;

class CommandSlurmClient final : public SlurmClient {
 public:
  // `runner` defaults to RunCommand; each call may take `timeout_ms`.
  explicit CommandSlurmClient(int64_t timeout_ms = 30'000, CommandRunner runner = {});
  Result<std::vector<SlurmJob>> Jobs() override;
  Result<std::vector<SlurmNode>> Nodes() override;
  Status UpdateJob(const std::string& job_id, const std::string& key, const std::string& value) override;
  Status DrainNode(const std::string& node, const std::string& reason) override;
  Status Requeue(const std::string& job_id) override;

 private:
  // The program's output when it exits 0; an error naming the command otherwise.
  Result<std::string> Run(const std::vector<std::string>& argv);

  int64_t timeout_ms_;
  CommandRunner runner_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_SLURM_CLIENT_H_
