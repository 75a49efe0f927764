#include "agent/slurm_artefacts.h"

#include "agent/job_advice.h"
#include "artefacts/log_tail.h"
#include "repo/snapshot.h"

namespace schedmate {

Result<JobRepository> SlurmJobRepository(const SlurmJob& job) {
  ASSIGN_OR_RETURN(std::string launch, LaunchCommand(job));
  auto snapshot = OpenSnapshot(job.work_dir);
  if (!snapshot.ok()) return NotFound("cannot read the working directory: " + snapshot.status().message());
  return JobRepository{std::move(*snapshot), std::move(launch)};
}

Result<const SlurmJob*> SlurmArtefactSource::Find(const ArtefactJob& job) const {
  auto it = jobs_.find(std::string(job.id));
  if (it == jobs_.end()) return NotFound("job " + std::string(job.id) + ": SLURM does not list it");
  return &it->second;
}

Result<uint64_t> SlurmArtefactSource::RepositoryKey(const ArtefactJob& job) {
  RETURN_IF_ERROR(Find(job).status());
  return uint64_t{0};
}

Result<JobRepository> SlurmArtefactSource::Repository(const ArtefactJob& job) {
  ASSIGN_OR_RETURN(const SlurmJob* j, Find(job));
  return SlurmJobRepository(*j);
}

Result<std::string> SlurmArtefactSource::LogTail(const ArtefactJob& job, int64_t max_bytes) {
  ASSIGN_OR_RETURN(const SlurmJob* j, Find(job));
  if (j->stdout_path.empty()) return NotFound("job " + j->job_id + ": SLURM reports no StdOut path");
  return ReadLogTail(env_, j->stdout_path, max_bytes);
}

Result<LogCadence> SlurmArtefactSource::Cadence(const ArtefactJob& job) {
  RETURN_IF_ERROR(Find(job).status());
  return Unimplemented("a live job's log cadence comes from the Tracker's reading of its StdOut (not wired yet)");
}

Result<LogExcerpt> SlurmArtefactSource::LogAround(const ArtefactJob& job, const LogExcerptQuery&) {
  RETURN_IF_ERROR(Find(job).status());
  return Unimplemented("a live job's log around a pack needs the byte offset at the pack (not wired yet)");
}

Result<JobOutcome> SlurmArtefactSource::Outcome(const ArtefactJob& job) {
  ASSIGN_OR_RETURN(const SlurmJob* j, Find(job));
  JobOutcome o;
  o.name = j->name;
  o.end_reason = EndReasonOfState(*j);
  return o;
}

}  // namespace schedmate
