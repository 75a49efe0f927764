// Sia + schedmate (issue 17): a history match skips Sia's cold-start
// profiling. At submit the Advisor reads the job's repository from a
// job-artefact source (in a simulation the semantic world's, by job id:
// world/sia_world.h; embedded extractor, fingerprint) and retrieves the runs
// that completed before the job's submit time; the best match whose record
// carries per-configuration throughputs (GPU type × count × batch) becomes
// the job's starting performance model, so it trains from its first round
// and Sia keeps refitting online. No match, or no throughputs → Sia's own
// 1-GPU profile on every type. Each completed job writes what it observed
// to the history (any HistoryStore: SQLite, Redis) with its end reason.
//
// Gradient statistics: Sia's efficiency term needs the gradient noise at the
// initial batch, which a record does not carry (HistoryRecord has no field
// for it). A seeded job takes them as the bootstrap profile does: the
// application's statistics at its initial batch, what its first step measures.
#ifndef SCHEDMATE_INTEGRATIONS_SIA_SCHEDMATE_H_
#define SCHEDMATE_INTEGRATIONS_SIA_SCHEDMATE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "advisor/advisor_history.h"
#include "artefacts/job_artefact_source.h"
#include "history/cached_store.h"
#include "history/store.h"
#include "integrations/repo_metadata.h"
#include "policies/sia/sia_simulator.h"

namespace schedmate {

struct SiaSchedmateStats {
  int64_t advised = 0, hits = 0;
  // Why the others profile: no repository for the application, the extractor
  // found no entry point, no match before the submit time, matches without throughputs.
  int64_t no_code = 0, extraction_failures = 0, no_match = 0, no_throughputs = 0;
  double advisor_ms = 0;  // wall time of extraction + retrieval
  int64_t written_back = 0;
  double write_back_ms = 0;
};

class SiaSchedmate {
 public:
  // `artefacts` (jobs by id), `cluster` and `store` outlive this; `store` should be empty.
  SiaSchedmate(JobArtefactSource& artefacts, const sia::SiaCluster& cluster, HistoryStore& store);

  // Sets the run's known_model and on_end hooks to this object's.
  void Attach(sia::SiaSimOptions& options);

  // The starting model for a job being admitted; nullopt → Sia profiles it.
  std::optional<sia::PerfSeed> AtSubmit(const sia::SiaJob& job);
  // Writes a completed job's per-configuration throughputs to the history.
  void AtEnd(const sia::SiaJob& job);

  const SiaSchedmateStats& stats() const { return stats_; }
  // The first store error; write-back and retrieval stop after it.
  const Status& store_error() const { return store_error_; }

 private:
  // The per-configuration rows of the best-scored match that has them.
  std::optional<std::vector<ConfigThroughput>> MatchedThroughputs(const DurationEstimate& est);

  JobArtefactSource& artefacts_;
  const sia::SiaCluster& cluster_;
  CachedHistoryStore store_;  // reads of records this run wrote come from memory
  AdvisorHistory history_;    // over store_
  RepoMetadataCache metadata_;
  SiaSchedmateStats stats_;
  Status store_error_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_INTEGRATIONS_SIA_SCHEDMATE_H_
