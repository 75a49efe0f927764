// The semantic world as a job-artefact source (artefacts/job_artefact_source.h):
// a mapped job's generated repository (once per content key, in a bounded
// cache), its log rendered in its framework's format at its catalog step
// time — slower from a mark on when the simulation says it ran slower — and
// its outcome (the trace's end state, the catalog family's steady
// utilisation, which is what monitoring a finished run would show).
#ifndef SCHEDMATE_WORLD_WORLD_ARTEFACTS_H_
#define SCHEDMATE_WORLD_WORLD_ARTEFACTS_H_

#include <cstdint>
#include <string>
#include <unordered_map>

#include "artefacts/job_artefact_source.h"
#include "world/job_artifacts.h"
#include "world/trace_mapping.h"
#include "world/workload_catalog.h"

namespace schedmate {

class WorldArtefactSource final : public JobArtefactSource {
 public:
  // Jobs are found by ArtefactJob::index in `world` (parallel to the trace),
  // or by id in `by_id` when it is given. `log_seed` seeds each job's log
  // (with its id). `catalog` may be null (no utilisation in outcomes).
  // Everything passed outlives this.
  WorldArtefactSource(const WorldMap& world, const WorkloadCatalog* catalog, uint64_t log_seed,
                      const std::unordered_map<std::string, size_t>* by_id = nullptr)
      : world_(world), catalog_(catalog), log_seed_(log_seed), by_id_(by_id) {}

  Result<uint64_t> RepositoryKey(const ArtefactJob& job) override;
  Result<JobRepository> Repository(const ArtefactJob& job) override;
  Result<std::string> LogTail(const ArtefactJob& job, int64_t max_bytes) override;
  Result<LogCadence> Cadence(const ArtefactJob& job) override;
  Result<LogExcerpt> LogAround(const ArtefactJob& job, const LogExcerptQuery& q) override;
  Result<JobOutcome> Outcome(const ArtefactJob& job) override;

  size_t repositories_generated() const { return repos_.generated(); }

 private:
  Result<const MappedJob*> Find(const ArtefactJob& job) const;
  uint64_t LogSeed(const ArtefactJob& job) const;

  const WorldMap& world_;
  const WorkloadCatalog* catalog_;
  uint64_t log_seed_;
  const std::unordered_map<std::string, size_t>* by_id_;
  RepoCache repos_{1024};
};

}  // namespace schedmate

#endif  // SCHEDMATE_WORLD_WORLD_ARTEFACTS_H_
