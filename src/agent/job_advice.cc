#include "agent/job_advice.h"

#include <nlohmann/json.hpp>

#include "advisor/metadata_extractor.h"
#include "agent/slurm_artefacts.h"
#include "core/facts_json.h"

namespace schedmate {

Result<std::string> LaunchCommand(const SlurmJob& job) {
  if (job.command.empty()) return NotFound("no batch script (an --wrap or interactive job)");
  if (job.work_dir.empty()) return NotFound("SLURM reports no working directory");
  const std::string prefix = job.work_dir.back() == '/' ? job.work_dir : job.work_dir + "/";
  if (job.command.rfind(prefix, 0) != 0)
    return NotFound("the batch script " + job.command + " is outside the working directory " + job.work_dir);
  return "bash " + job.command.substr(prefix.size());
}

Result<WorkloadMetadata> ReadJobMetadata(const SlurmJob& job) {
  ASSIGN_OR_RETURN(JobRepository repo, SlurmJobRepository(job));
  auto md = ExtractMetadata(*repo.snapshot, repo.command);
  if (!md.ok()) return InvalidArgument("metadata extraction failed: " + md.status().message());
  return std::move(*md);
}

JobAdvice AdviseJob(const SlurmJob& job, const AdvisorHistory& history, const EstimateOptions& options) {
  JobAdvice advice;
  if (auto launch = LaunchCommand(job); launch.ok()) advice.launch = *launch;
  auto md = ReadJobMetadata(job);
  if (!md.ok()) {
    advice.estimate.fallback_reason = md.status().message();
    return advice;
  }
  advice.metadata = *md;
  advice.estimate = history.Estimate(*md, job.submit_time_s, options);
  return advice;
}

Json ToJson(const JobAdvice& advice) {
  return {{"launch", advice.launch},
          {"metadata", advice.metadata ? ToJson(*advice.metadata) : Json(nullptr)},
          {"estimate", ToJson(advice.estimate)}};
}

}  // namespace schedmate
