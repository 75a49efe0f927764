// The jobs this service answered for, newest first: a bounded in-memory
// book of the latest advice (metadata with provenance, estimate, matched
// history ids and scores), progress (step, step time, ETA) and failure
// report (diagnosis, recovery plan, the located lines around the root
// cause) per job — what the dashboard's jobs, progress and failure panels
// show (GET /v1/jobs). A job is the request's `job_id` when it names one;
// otherwise the repository + command (advise) or the log path (track,
// diagnose), so polling one log updates one row. Only answers that
// succeeded are entered.
//
// Bounded: at most `capacity` jobs (the least recently answered goes first),
// every string cut at kMaxStringBytes (on a UTF-8 boundary), at most
// kContextLines located lines per failure. It lives in one process's memory
// and is lost on restart: finished jobs are in the history, decisions in the
// audit trail.
// Thread safety: every method is safe from any thread.
#ifndef SCHEDMATE_SERVICE_RECENT_JOBS_H_
#define SCHEDMATE_SERVICE_RECENT_JOBS_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "failure/diagnosis_json.h"
#include "failure/root_cause.h"

namespace schedmate {

// Who the answer was for: the caller's job id, else a key from the request.
struct JobRef {
  std::string job_id;        // "" when the request named none
  std::string fallback_key;  // "advise:<repo>@<rev> <cmd>" or "log:<path>"; "" for inline logs
};

class RecentJobs {
 public:
  static constexpr size_t kMaxStringBytes = 2000;
  static constexpr size_t kContextLines = 17;  // the root-cause line and up to 8 on each side

  explicit RecentJobs(size_t capacity = 256) : capacity_(capacity == 0 ? 1 : capacity) {}

  // `advice`: the /v1/advise answer; `request`: repo, rev, cmd, workdir.
  void RecordAdvice(const JobRef& ref, const Json& request, const Json& advice, int64_t now_ms);
  // `progress`: the /v1/track answer.
  void RecordProgress(const JobRef& ref, const Json& progress, int64_t now_ms);
  // `diagnosis`: the /v1/diagnose answer; `window`: the located context
  // (line index or byte offset, text) the diagnosis was made from.
  void RecordFailure(const JobRef& ref, const Json& diagnosis, const LineWindow& window, int64_t now_ms);

  // The newest `limit` jobs, most recently answered first:
  // [{id, job_id, first_seen_ms, updated_ms, advice, progress, failure}]
  // (a part never answered is null).
  std::vector<Json> Newest(size_t limit) const;
  size_t capacity() const { return capacity_; }

 private:
  struct Entry {
    std::string key;
    Json job;
  };
  // The job's entry, created (evicting the oldest) when new, moved to the front.
  Json& Touch(const JobRef& ref, int64_t now_ms);

  const size_t capacity_;
  mutable std::mutex mu_;
  std::list<Entry> entries_;  // most recently answered first
  std::unordered_map<std::string, std::list<Entry>::iterator> by_key_;
  int64_t anonymous_ = 0;  // ids given to jobs without a job_id
};

// The located lines around `root_index` (the diagnosis's root_cause_line_index),
// at most RecentJobs::kContextLines: [{index, text, root}].
inline Json ContextAround(const LineWindow& window, int64_t root_index) {
  return LocatedLinesAround(window, root_index, RecentJobs::kContextLines);
}

// Every string in `value` cut to at most `max_bytes` (never inside a UTF-8
// character), "…" appended where cut.
void TruncateStrings(Json* value, size_t max_bytes);

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_RECENT_JOBS_H_
