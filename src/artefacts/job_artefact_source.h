// What the integrations read about a job from the world it runs in
// (DESIGN §3.3 and §3.4): its repository, its log and how the job ended.
// A simulation backs this with the semantic world's generated code and logs
// (world/world_artefacts.h); a live cluster with the job's files and the
// cluster manager (agent/slurm_artefacts.h). An integration that reads
// through it serves both without knowing which one it has.
//
// Every method answers for one job. NotFound: the source has nothing for the
// job (no code, not in the trace) — the caller falls back to its policy's own
// behaviour. Unimplemented: this source cannot answer that question at all
// (the caller falls back, and need not ask again). Other errors are I/O.
// Thread safety: none; one caller at a time.
#ifndef SCHEDMATE_ARTEFACTS_JOB_ARTEFACT_SOURCE_H_
#define SCHEDMATE_ARTEFACTS_JOB_ARTEFACT_SOURCE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"
#include "core/status.h"
#include "repo/snapshot.h"

namespace schedmate {

// Which job. `id` is the cluster's (or the trace's) job id; `index`, when
// >= 0, is the job's row in the trace a simulation replays (a fast path a
// simulated source may use; live sources ignore it).
struct ArtefactJob {
  std::string_view id;
  int64_t index = -1;
};

// The job's code as the Advisor reads it: a read-only snapshot and the
// command that launches it.
struct JobRepository {
  std::unique_ptr<RepoSnapshot> snapshot;
  std::string command;
};

// How often the job logs: steps between two progress records and seconds
// per step running alone.
struct LogCadence {
  int64_t steps_per_record = 1;
  double step_time_s = 1;
};

// A stretch of the job's log cut at a mark (e.g. the moment a partner was
// packed beside it): up to `records_before` progress records ending at
// `mark_step`, then what was written from `mark_step` to `now_step`.
// `speed_after_mark` is the job's speed since the mark relative to running
// alone: a simulated world writes the log at that speed; a live log already
// shows it, and a live source ignores the field.
struct LogExcerptQuery {
  int64_t mark_step = 0;
  int64_t records_before = 0;
  int64_t now_step = 0;
  double speed_after_mark = 1;
};

struct LogExcerpt {
  std::vector<std::string> lines;
  size_t split = 0;  // lines[split] is the first line written after the mark
};

// What a history write-back records about how the job ran. Utilisation is
// what monitoring observed over the run; nullopt when nobody measured it.
struct JobOutcome {
  std::string name;  // what the user calls the run
  EndReason end_reason = EndReason::kUnknown;
  std::optional<double> sm_util;   // 0-1
  std::optional<double> gmem_mib;  // GPU memory in use
};

class JobArtefactSource {
 public:
  virtual ~JobArtefactSource() = default;

  // A content key of the job's repository: two jobs with equal non-zero keys
  // have identical repositories, so a reader may cache what it extracted by
  // key. 0: unknown (the reader cannot cache).
  virtual Result<uint64_t> RepositoryKey(const ArtefactJob& job) = 0;
  virtual Result<JobRepository> Repository(const ArtefactJob& job) = 0;

  // The newest bytes of the job's log, at most `max_bytes`, cut at a line
  // start. An empty string: the job has written nothing yet.
  virtual Result<std::string> LogTail(const ArtefactJob& job, int64_t max_bytes) = 0;
  virtual Result<LogCadence> Cadence(const ArtefactJob& job) = 0;
  // REQUIRES: q.mark_step <= q.now_step.
  virtual Result<LogExcerpt> LogAround(const ArtefactJob& job, const LogExcerptQuery& q) = 0;

  // REQUIRES: the job has ended.
  virtual Result<JobOutcome> Outcome(const ArtefactJob& job) = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_ARTEFACTS_JOB_ARTEFACT_SOURCE_H_
