// The Advisor's reading of a mapped job's generated repository, once per
// content key: metadata (embedded extractor), fingerprint and the JSON a
// history record stores. Shared by the simulation's semantic layer and the
// world's calibration, so both read the world's code the same way.
#ifndef SCHEDMATE_INTEGRATIONS_WORLD_METADATA_H_
#define SCHEDMATE_INTEGRATIONS_WORLD_METADATA_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/facts.h"
#include "world/job_artifacts.h"

namespace schedmate {

struct ExtractedRepo {
  bool ok = false;  // false: the extractor found no entry point (the caller falls back)
  WorkloadMetadata md;
  std::vector<float> fingerprint;
  std::string json;
};

class WorldMetadataCache {
 public:
  // The job's repository read by the embedded extractor; generated and
  // extracted on first use of its content key. The reference stays valid.
  const ExtractedRepo& Get(const MappedJob& m);
  size_t extracted() const { return cache_.size(); }
  double extract_ms() const { return extract_ms_; }

 private:
  RepoCache repos_{1024};
  std::unordered_map<uint64_t, ExtractedRepo> cache_;
  double extract_ms_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_INTEGRATIONS_WORLD_METADATA_H_
