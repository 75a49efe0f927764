// The Scheduling Advisor on a SLURM job: its batch script, read inside its
// working directory (the repository the script runs in), and an estimate
// from the history of jobs that ended before it was submitted. The job's
// name plays no part, so a renamed copy of a finished job matches it.
#ifndef SCHEDMATE_AGENT_JOB_ADVICE_H_
#define SCHEDMATE_AGENT_JOB_ADVICE_H_

#include <optional>
#include <string>

#include "advisor/advisor.h"
#include "advisor/advisor_history.h"
#include "agent/slurm_json.h"
#include "core/facts.h"
#include "core/json.h"

namespace schedmate {

struct JobAdvice {
  std::string launch;  // the command given to the Advisor ("bash job.sh")
  std::optional<WorkloadMetadata> metadata;
  DurationEstimate estimate;  // a fallback names why when there is no metadata
};

// The launch command the Advisor reads: the batch script relative to the
// work dir, or an error saying why the job's code cannot be read there.
Result<std::string> LaunchCommand(const SlurmJob& job);

// What the job's code says it trains (the Advisor's metadata), or why it
// cannot be read.
Result<WorkloadMetadata> ReadJobMetadata(const SlurmJob& job);

JobAdvice AdviseJob(const SlurmJob& job, const AdvisorHistory& history, const EstimateOptions& options = {});
Json ToJson(const JobAdvice& advice);

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_JOB_ADVICE_H_
