// The Advisor's reading of a job's repository, once per content key:
// metadata (embedded extractor), fingerprint and the JSON a history record
// stores. The repository comes from a job-artefact source, so the semantic
// world and a live cluster are read the same way.
#ifndef SCHEDMATE_INTEGRATIONS_REPO_METADATA_H_
#define SCHEDMATE_INTEGRATIONS_REPO_METADATA_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "advisor/advisor.h"
#include "artefacts/job_artefact_source.h"
#include "core/facts.h"

namespace schedmate {

// The metadata as an estimate queries it (md, fingerprint, why it is too
// sparse) and as a history record stores it (json, and the facts an
// estimate reads of that json), each derived once per repository.
struct ExtractedRepo : EstimateQuery {
  bool ok = false;  // false: the extractor found no entry point (the caller falls back)
  std::string json;
  std::shared_ptr<const MetadataFacts> facts;  // FactsOfMetadataJson(json); null unless ok
};

// ExtractedRepo of a repository already read.
ExtractedRepo ExtractRepo(const JobRepository& repo);

class RepoMetadataCache {
 public:
  // The job's repository read by the embedded extractor, on first use of its
  // content key. The source's error when it has no repository for the job
  // (NotFound: no code). The pointer stays valid while this lives, except
  // for a repository without a key (0), which is valid until the next Get.
  Result<const ExtractedRepo*> Get(JobArtefactSource& source, const ArtefactJob& job);
  size_t extracted() const { return cache_.size(); }
  double extract_ms() const { return extract_ms_; }

 private:
  std::unordered_map<uint64_t, ExtractedRepo> cache_;
  ExtractedRepo unkeyed_;
  double extract_ms_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_INTEGRATIONS_REPO_METADATA_H_
