// What a mapped job (trace_mapping.h) has for the components to read,
// made on demand (issue 6): its repository, generated once per content key
// and kept in a bounded cache (and, when asked, written once per key under
// a cache directory); and the tail of its log — progress at its step time,
// and for a failed job the injected first error and its cascade.
#ifndef SCHEDMATE_WORLD_JOB_ARTIFACTS_H_
#define SCHEDMATE_WORLD_JOB_ARTIFACTS_H_

#include <cstdint>
#include <list>
#include <string>
#include <unordered_map>

#include "core/status.h"
#include "loggen/job_log_tail.h"
#include "world/trace_mapping.h"

namespace schedmate {

// The log spec of a job running alone at its catalog step time; callers add
// speed segments for co-location.
JobLogSpec BaseLogSpec(const MappedJob& m, uint64_t seed);

// The injected first error of a failed job (null optional otherwise).
std::optional<InjectedError> InjectedErrorFor(const MappedJob& m, const std::string& job_id, uint64_t seed);

// The tail of the job's log at its end (or at `steps_run` steps when given).
RenderedLog JobLogAtEnd(const MappedJob& m, const std::string& job_id, uint64_t seed, int64_t progress_records = 40);

class RepoCache {
 public:
  explicit RepoCache(size_t capacity = 256) : capacity_(capacity) {}
  // The job's repository; generated on first use of its key.
  const GeneratedRepo& Get(const MappedJob& m);
  // Writes the repository to <dir>/<key as 16 hex digits>/ unless it is
  // already complete there (a marker file is written last); returns that path.
  Result<std::string> Materialize(const MappedJob& m, const std::string& dir);
  size_t generated() const { return generated_; }

 private:
  size_t capacity_;
  size_t generated_ = 0;
  std::list<std::pair<uint64_t, GeneratedRepo>> lru_;
  std::unordered_map<uint64_t, std::list<std::pair<uint64_t, GeneratedRepo>>::iterator> index_;
};

std::string RepoKeyHex(uint64_t key);

}  // namespace schedmate

#endif  // SCHEDMATE_WORLD_JOB_ARTIFACTS_H_
