// A SLURM job's artefacts (artefacts/job_artefact_source.h), read live: its
// repository is the batch script's working directory (a read-only snapshot;
// nothing is executed), its log is its StdOut file read through the Env, and
// its outcome is SLURM's end state.
//
// Not answered here (Unimplemented, so a caller falls back): the log's
// cadence and an excerpt around a mark. In a live cluster both come from the
// Tracker reading the real file — the step the log shows at a pack, and the
// lines written since its byte offset (agent/log_reader.h keeps that offset)
// — which the agent does not wire to a packing policy yet. Utilisation in an
// outcome needs GPU monitoring (DCGM), which SLURM does not report: nullopt.
#ifndef SCHEDMATE_AGENT_SLURM_ARTEFACTS_H_
#define SCHEDMATE_AGENT_SLURM_ARTEFACTS_H_

#include <map>
#include <string>

#include "agent/slurm_json.h"
#include "artefacts/job_artefact_source.h"
#include "core/env.h"

namespace schedmate {

// The job's working directory as a snapshot and the command that runs its
// batch script there; NotFound saying why when its code cannot be read.
Result<JobRepository> SlurmJobRepository(const SlurmJob& job);

class SlurmArtefactSource final : public JobArtefactSource {
 public:
  // `jobs` (by job id, as squeue/sacct last listed them) and `env` outlive this.
  SlurmArtefactSource(const std::map<std::string, SlurmJob>& jobs, Env& env) : jobs_(jobs), env_(env) {}

  // 0: a working directory can change between two jobs, so it has no content key.
  Result<uint64_t> RepositoryKey(const ArtefactJob& job) override;
  Result<JobRepository> Repository(const ArtefactJob& job) override;
  Result<std::string> LogTail(const ArtefactJob& job, int64_t max_bytes) override;
  Result<LogCadence> Cadence(const ArtefactJob& job) override;
  Result<LogExcerpt> LogAround(const ArtefactJob& job, const LogExcerptQuery& q) override;
  Result<JobOutcome> Outcome(const ArtefactJob& job) override;

 private:
  Result<const SlurmJob*> Find(const ArtefactJob& job) const;

  const std::map<std::string, SlurmJob>& jobs_;
  Env& env_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_SLURM_ARTEFACTS_H_
