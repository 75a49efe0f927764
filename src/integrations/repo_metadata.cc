#include "integrations/repo_metadata.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "advisor/advisor.h"
#include "advisor/metadata_extractor.h"
#include "core/facts_json.h"
#include "core/json.h"

namespace schedmate {

ExtractedRepo ExtractRepo(const JobRepository& repo) {
  ExtractedRepo e;
  auto md = ExtractMetadata(*repo.snapshot, repo.command);
  if (md.ok()) {
    Json j = ToJson(*md);
    e.EstimateQuery::operator=(PrepareQuery(*md));
    e.ok = true;
    e.json = DumpJson(j);
    e.facts = std::make_shared<const MetadataFacts>(FactsOfMetadata(j));
  }
  return e;
}

Result<const ExtractedRepo*> RepoMetadataCache::Get(JobArtefactSource& source, const ArtefactJob& job) {
  ASSIGN_OR_RETURN(uint64_t key, source.RepositoryKey(job));
  if (key != 0) {
    if (auto it = cache_.find(key); it != cache_.end()) return &it->second;
  }
  auto t0 = std::chrono::steady_clock::now();
  Result<JobRepository> repo = source.Repository(job);
  if (!repo.ok()) return repo.status();
  ExtractedRepo e = ExtractRepo(*repo);
  extract_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (key == 0) {
    unkeyed_ = std::move(e);
    return &unkeyed_;
  }
  return &cache_.emplace(key, std::move(e)).first->second;
}

}  // namespace schedmate
