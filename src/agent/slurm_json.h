// What the SLURM agent reads from the cluster manager: `squeue --json` and
// `sinfo --json` of Slurm 22.05 (data_parser v0.0.38), reduced to the fields
// the agent acts on. The output is outside input: every field is optional in
// the sense SLURM means it (null, "" or absent), every present field must
// have its type, and an error names the source, the record and the field.
#ifndef SCHEDMATE_AGENT_SLURM_JSON_H_
#define SCHEDMATE_AGENT_SLURM_JSON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"
#include "core/status.h"

namespace schedmate {

struct SlurmJob {
  std::string job_id;  // decimal, as scontrol takes it
  std::string partition;
  std::string name, user, state;  // state: "PENDING", "RUNNING", "COMPLETED", "FAILED", …
  std::string reason;             // state_reason ("None", "Resources", "NonZeroExitCode", …)
  std::string nodes;              // allocated nodes as SLURM lists them ("node[1-2]"; "" while pending)
  int node_count = 0;
  std::string batch_host;         // where the batch script runs
  int gpus = 0;                   // GPUs requested, over all nodes
  std::string command;            // the batch script's path ("" for --wrap jobs)
  std::string work_dir;
  std::string stdout_path, stderr_path;  // SLURM's patterns (%j, %x, …) expanded
  int64_t submit_time_s = 0, start_time_s = 0, end_time_s = 0;  // 0: not yet
  std::optional<int> exit_code;   // the script's exit status, once it ended
  std::optional<int> exit_signal;
  int restarts = 0;               // restart_cnt: how often it was requeued
  std::string comment;
  std::optional<int64_t> nice;
};

struct SlurmNode {
  std::string name, state, reason;
  std::vector<std::string> flags;  // state_flags: "DRAIN", …
  int gpus = 0;
  bool drained() const;
};

// `source` names where the text came from, for error messages.
Result<std::vector<SlurmJob>> ParseSqueueJson(std::string_view text, std::string_view source);
Result<std::vector<SlurmNode>> ParseSinfoJson(std::string_view text, std::string_view source);

// The job ended (a final state: it runs no more unless requeued).
bool JobEnded(const SlurmJob& job);
// How an ended job ended, from SLURM's state alone; failures are refined by
// the Failure Handler's diagnosis of the log.
EndReason EndReasonOfState(const SlurmJob& job);
// SLURM's filename pattern (%j, %x, %u, %N, %A, %a, %%) for this job.
std::string ExpandOutputPattern(std::string_view pattern, const SlurmJob& job);
// The single node an ended job ran on, or "" for a multi-node or unplaced job.
std::string SingleNode(const SlurmJob& job);

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_SLURM_JSON_H_
