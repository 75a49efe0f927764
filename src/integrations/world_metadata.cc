#include "integrations/world_metadata.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "advisor/advisor.h"
#include "advisor/metadata_extractor.h"
#include "core/facts_json.h"
#include "core/json.h"
#include "repo/snapshot.h"

namespace schedmate {

const ExtractedRepo& WorldMetadataCache::Get(const MappedJob& m) {
  auto it = cache_.find(m.repo_key);
  if (it != cache_.end()) return it->second;
  auto t0 = std::chrono::steady_clock::now();
  ExtractedRepo e;
  const GeneratedRepo& repo = repos_.Get(m);
  auto md = ExtractMetadata(*MemorySnapshot(repo.files, "job"), repo.command);
  if (md.ok()) {
    e.ok = true;
    e.md = *md;
    e.fingerprint = Fingerprint(*md);
    e.json = DumpJson(ToJson(*md));
  }
  extract_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return cache_.emplace(m.repo_key, std::move(e)).first->second;
}

}  // namespace schedmate
