// Advise extractions kept per (repository realpath, revision, workdir,
// command), so repeated requests on an unchanged repository skip the
// extraction (the estimate is still made per request: it depends on the
// history and the submit time). An entry of a working tree is valid while
// the repository root and every file the extraction read keep their
// modification time (ns) and size — a commit, checkout or edit of what was
// read invalidates it; a file the extraction did not read and that appears
// outside the root directory itself does not. A git revision is cached
// only when it is a full commit id (immutable); a branch or tag may move.
// Failed extractions are not kept. At most `capacity` entries (oldest out).
// Thread safety: safe from any thread.
#ifndef SCHEDMATE_SERVICE_ADVISE_CACHE_H_
#define SCHEDMATE_SERVICE_ADVISE_CACHE_H_

#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "advisor/advice.h"

namespace schedmate {

struct AdviseKey {
  std::string repo;  // realpath
  std::string rev, workdir, cmd;
  std::string Flat() const;
};

class AdviseCache {
 public:
  explicit AdviseCache(size_t capacity = 4096) : capacity_(capacity) {}

  std::optional<AdviceExtraction> Find(const AdviseKey& key);
  void Store(const AdviseKey& key, const AdviceExtraction& extraction);

 private:
  struct Entry {
    std::string stamp;
    AdviceExtraction extraction;
  };

  const size_t capacity_;
  std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
  std::deque<std::string> order_;  // insertion order, for eviction
};

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_ADVISE_CACHE_H_
