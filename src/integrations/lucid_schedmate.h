// Lucid + schedmate (DESIGN §3.2, issue 7): the semantic layer's three
// consumption points for Lucid, running the real components on what a
// job-artefact source gives (in a simulation, the semantic world's code and
// logs: world/world_artefacts.h).
//  1. At submit, the Advisor (embedded extractor on the job's repository,
//     fingerprint, history retrieval as of the submit time) matches the job
//     to finished ones → it skips Lucid's profiler; its steady utilisation,
//     memory and duration come from the matched runs.
//  2. After a pack, the Tracker reads the host's log around the pack (in a
//     simulation, written slower from the pack on, by the true co-run speed)
//     and the slowdown check gives TP_after / TP_before.
//  3. Every ended job is written back to a real history store, with the
//     outcome the source reports.
// Each point can be switched off, and the slowdown detection rate and the
// Advisor hit rate can be lowered (the ablations), deterministically per job.
#ifndef SCHEDMATE_INTEGRATIONS_LUCID_SCHEDMATE_H_
#define SCHEDMATE_INTEGRATIONS_LUCID_SCHEDMATE_H_

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "advisor/advisor_history.h"
#include "artefacts/job_artefact_source.h"
#include "core/facts.h"
#include "history/store.h"
#include "history/vector_index.h"
#include "integrations/repo_metadata.h"
#include "policies/lucid/lucid_inputs.h"

namespace schedmate {

struct LucidSchedmateOptions {
  bool use_advisor = true, use_tracker = true, write_back = true;
  // Share of harmful packs the Tracker gets to check (1 = every one).
  double detection_rate = 1.0;
  // Share of Advisor matches kept (1 = all; lower simulates a weaker agent).
  double hit_rate_scale = 1.0;
  // Seconds a job waits for the Advisor: 0 for the embedded backend
  // (measured in milliseconds, reported in the stats), 9 to model the
  // paper's LLM agent.
  int64_t advisor_latency_s = 0;
  // The Tracker reads the host's last `check_steps` steps before the pack
  // and as many after it.
  int64_t check_steps = 30;
  // The history index switches from exact search to HNSW past this many
  // records (the simulation writes tens of thousands).
  size_t hnsw_threshold = 4096;
  int hnsw_ef_construction = 40, hnsw_ef_search = 48;
  uint64_t seed = 1;
};

struct LucidSchedmateStats {
  int64_t advised = 0, hits = 0, extraction_failures = 0, hits_dropped = 0;
  double advisor_ms = 0;       // wall time of extraction + retrieval + estimate
  double extract_ms = 0;       // of which extraction (once per distinct repository)
  int64_t extracted = 0;
  // Python files parsed, and parses saved by identical files (this thread's
  // shared parse cache, counted from this object's construction).
  int64_t python_parsed = 0, python_parses_saved = 0;
  int64_t checks = 0, checks_unreadable = 0, checks_undetected = 0;
  double tracker_ms = 0;
  int64_t written_back = 0;
  double write_back_ms = 0;
};

class LucidSchedmate final : public LucidSemanticHooks {
 public:
  // `artefacts` and `store` outlive this. `store` should be empty.
  LucidSchedmate(JobArtefactSource& artefacts, HistoryStore& store, LucidSchedmateOptions options);

  std::optional<HistoryFacts> AtSubmit(const SimJob& job, int64_t now, int64_t* latency_s) override;
  std::optional<int64_t> PackCheckAfter(const SimJob& host, const SimJob& guest) override;
  std::optional<double> PackSlowdown(const SimJob& host, const SimJob& guest, int64_t packed_at,
                                     int64_t now) override;
  void AtEnd(const SimJob& job, int64_t now) override;

  const LucidSchedmateStats& stats() const { return stats_; }
  const Status& store_error() const { return store_error_; }

 private:
  static ArtefactJob Of(const SimJob& j) { return {j.spec->id, j.index.value}; }
  const ExtractedRepo* Extracted(const SimJob& j);  // null: no repository
  bool Draw(const SimJob& j, uint64_t salt, double p) const;

  JobArtefactSource& artefacts_;
  LucidSchedmateOptions o_;
  AdvisorHistory history_;  // keeps the records this run wrote in memory, parsed: estimates never read the store
  RepoMetadataCache metadata_;
  std::unordered_map<int32_t, int64_t> steps_at_pack_;  // host → its step when the guest came
  LucidSchedmateStats stats_;
  int64_t python_parsed_at_start_ = 0, python_hits_at_start_ = 0;
  Status store_error_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_INTEGRATIONS_LUCID_SCHEDMATE_H_
