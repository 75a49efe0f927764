// What the agent remembers between polls, and between processes (`--once`
// runs, restarts): per job, whether it was advised, how far its log was read
// (the byte after the last complete line, so a restart never loses or
// repeats a line), the newest lines for the Tracker, and whether its end was
// handled for the current run. A requeued job (SLURM's restart count grew) is
// a new run: its end is handled again, its log read on from the same offset
// (jobs are submitted with --open-mode=append).
#ifndef SCHEDMATE_AGENT_AGENT_STATE_H_
#define SCHEDMATE_AGENT_AGENT_STATE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>

#include "core/env.h"
#include "core/status.h"

namespace schedmate {

struct JobMemory {
  int run = 0;  // SLURM's restart count when last seen
  bool advised = false;
  bool end_handled = false;
  int64_t log_offset = 0;
  std::deque<std::string> tail;  // newest lines of the log, oldest first
};

class AgentState {
 public:
  // An absent file is an empty state; a corrupt one is an error naming the
  // file. The file is read and later saved through `env`, which outlives this.
  static Result<AgentState> Load(const std::string& path, Env& env = Env::Default());
  // Atomically replaces the file (Env::WriteFileAtomic): a failed or short
  // write is an error and the previous state stays as it was on disk.
  Status Save() const;

  // The job's memory; a new run of a known job keeps its log offset and
  // tail but is advised-once and has an unhandled end again.
  JobMemory& For(const std::string& job_id, int run);
  // Forgets jobs SLURM no longer lists; returns those whose end was never handled.
  std::set<std::string> Forget(const std::set<std::string>& listed);
  const std::map<std::string, JobMemory>& jobs() const { return jobs_; }

 private:
  std::string path_;
  Env* env_ = &Env::Default();
  std::map<std::string, JobMemory> jobs_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_AGENT_STATE_H_
