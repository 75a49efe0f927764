// Node health, confirmed by checks the tenant cannot write (issue 16). A
// job's own stdout is the tenant's: a script can print "Xid 79" or an NCCL
// "NET/IB" error before its own ValueError. So a node is isolated only when a
// node-side check says it is faulty:
//   - a health command the operator configures (`nvidia-smi -q`, `dcgmi diag
//     -r 1`, an nccl-tests run, SLURM's HealthCheckProgram), "{node}" replaced
//     by the node's name: exit 0 healthy, exit 1–125 faulty, anything else
//     (timeout, cannot start, 126/127) unknown;
//   - a node-side log outside the job's output (kernel or driver log, "{node}"
//     in its path) that only root or this service can write: faulty when a
//     GPU, NVLink or node signature of the knowledge base appears in its tail.
// With no check configured, infrastructure verdicts are advice only.
#ifndef SCHEDMATE_FAILURE_NODE_HEALTH_H_
#define SCHEDMATE_FAILURE_NODE_HEALTH_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

enum class NodeHealth { kHealthy, kFaulty, kUnknown };
std::string_view NodeHealthName(NodeHealth h);

struct HealthReport {
  NodeHealth health = NodeHealth::kUnknown;
  std::string check;     // which check answered
  std::string evidence;  // what it saw, capped
};

class NodeHealthCheck {
 public:
  virtual ~NodeHealthCheck() = default;
  virtual HealthReport Check(const std::string& node) = 0;
};

// A node name as cluster managers write them: letters, digits, '.', '-',
// '_', at most 255 bytes. Anything else is refused before a check runs, so a
// name can never smuggle shell syntax into a health command.
bool ValidNodeName(std::string_view node);

class CommandHealthCheck final : public NodeHealthCheck {
 public:
  // `command` runs through /bin/sh -c with every "{node}" replaced.
  CommandHealthCheck(std::string command, int64_t timeout_ms) : command_(std::move(command)), timeout_ms_(timeout_ms) {}
  HealthReport Check(const std::string& node) override;

 private:
  std::string command_;
  int64_t timeout_ms_;
};

class NodeLogHealthCheck final : public NodeHealthCheck {
 public:
  // `path` with every "{node}" replaced; the last `tail_bytes` are read.
  explicit NodeLogHealthCheck(std::string path, size_t tail_bytes = 1 << 20) : path_(std::move(path)), tail_bytes_(tail_bytes) {}
  HealthReport Check(const std::string& node) override;

 private:
  std::string path_;
  size_t tail_bytes_;
};

// Every configured check in turn. Faulty only when at least one check says
// faulty and none says healthy: checks that contradict each other go to a
// human, never to an isolation. With no check at all: unknown.
class NodeHealthChecks final : public NodeHealthCheck {
 public:
  void Add(std::unique_ptr<NodeHealthCheck> check) { checks_.push_back(std::move(check)); }
  bool empty() const { return checks_.empty(); }
  HealthReport Check(const std::string& node) override;

 private:
  std::vector<std::unique_ptr<NodeHealthCheck>> checks_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_NODE_HEALTH_H_
