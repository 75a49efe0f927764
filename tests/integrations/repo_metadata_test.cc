// The Advisor's per-repository cache (integrations/repo_metadata.h): a hit
// returns exactly what a fresh extraction of that repository returns, a
// changed file is another repository, and the semantic world's key is a
// content key (equal keys, equal files and command) — the reason a whole
// trace extracts each distinct repository once.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/random.h"
#include "integrations/repo_metadata.h"
#include "world/repo_generator.h"
#include "world/trace_mapping.h"
#include "world/workload_catalog.h"

namespace schedmate {
namespace {

// Repositories by job id, keyed by a hash of their files and command.
class FakeSource final : public JobArtefactSource {
 public:
  std::map<std::string, GeneratedRepo> repos;
  int reads = 0;

  Result<uint64_t> RepositoryKey(const ArtefactJob& job) override {
    ASSIGN_OR_RETURN(const GeneratedRepo* r, Find(job));
    std::string all = r->command;
    for (const auto& [path, text] : r->files) all += "\n\x01" + path + "\n\x02" + text;
    return StableHash(all);
  }
  Result<JobRepository> Repository(const ArtefactJob& job) override {
    ASSIGN_OR_RETURN(const GeneratedRepo* r, Find(job));
    ++reads;
    return JobRepository{MemorySnapshot(r->files, "job"), r->command};
  }
  Result<std::string> LogTail(const ArtefactJob&, int64_t) override { return Unimplemented("no logs"); }
  Result<LogCadence> Cadence(const ArtefactJob&) override { return Unimplemented("no logs"); }
  Result<LogExcerpt> LogAround(const ArtefactJob&, const LogExcerptQuery&) override { return Unimplemented("no logs"); }
  Result<JobOutcome> Outcome(const ArtefactJob&) override { return Unimplemented("no outcomes"); }

 private:
  Result<const GeneratedRepo*> Find(const ArtefactJob& job) const {
    auto it = repos.find(std::string(job.id));
    if (it == repos.end()) return NotFound("no code for " + std::string(job.id));
    return &it->second;
  }
};

void ExpectSame(const ExtractedRepo& a, const ExtractedRepo& b) {
  EXPECT_EQ(a.ok, b.ok);
  EXPECT_EQ(a.json, b.json);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(a.sparse_reason, b.sparse_reason);
  ASSERT_EQ(a.facts == nullptr, b.facts == nullptr);
  if (a.facts) {
    EXPECT_EQ(a.facts->informative, b.facts->informative);
    EXPECT_EQ(a.facts->model, b.facts->model);
    EXPECT_EQ(a.facts->dataset, b.facts->dataset);
    EXPECT_EQ(a.facts->iterations, b.facts->iterations);
    EXPECT_EQ(a.facts->iteration_type, b.facts->iteration_type);
  }
}

ExtractedRepo Fresh(const GeneratedRepo& r) {
  return ExtractRepo(JobRepository{MemorySnapshot(r.files, "job"), r.command});
}

GeneratedRepo Project(CodeStyle style, uint64_t layout) {
  Rng rng(3);
  WorkloadTruth w = DrawWorkload("bert", rng);
  return GenerateRepo(w, style, layout);
}

TEST(RepoMetadataCache, AHitIsExactlyAFreshExtraction) {
  FakeSource source;
  for (int s = 0; s < kNumCodeStyles; ++s) {
    GeneratedRepo r = Project(static_cast<CodeStyle>(s), 11);
    source.repos["a" + std::to_string(s)] = r;
    source.repos["copy" + std::to_string(s)] = r;  // another job, the same code
  }
  RepoMetadataCache cache;
  for (int s = 0; s < kNumCodeStyles; ++s) {
    auto first = cache.Get(source, {"a" + std::to_string(s)});
    auto again = cache.Get(source, {"copy" + std::to_string(s)});
    ASSERT_TRUE(first.ok() && again.ok());
    EXPECT_EQ(*first, *again) << "the copy is a hit";
    ASSERT_TRUE((*again)->ok) << "style " << s;
    ExpectSame(**again, Fresh(source.repos["copy" + std::to_string(s)]));
    EXPECT_EQ((*again)->facts->informative, (*again)->sparse_reason.empty());
  }
  EXPECT_EQ(source.reads, kNumCodeStyles);
  EXPECT_EQ(cache.extracted(), static_cast<size_t>(kNumCodeStyles));
}

TEST(RepoMetadataCache, AChangedFileIsExtractedAgain) {
  FakeSource source;
  GeneratedRepo r = Project(CodeStyle::kRawLoop, 5);
  source.repos["before"] = r;
  std::string* script = nullptr;
  for (auto& [path, text] : r.files)
    if (text.find("\"--lr\"") != std::string::npos) script = &text;
  ASSERT_NE(script, nullptr) << "the raw loop declares --lr in its entry script";
  const size_t at = script->find("default=", script->find("\"--lr\"")) + std::string("default=").size();
  script->replace(at, script->find(')', at) - at, "0.0777");
  source.repos["after"] = r;
  RepoMetadataCache cache;
  auto before = cache.Get(source, {"before"});
  auto after = cache.Get(source, {"after"});
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_NE(*before, *after);
  EXPECT_EQ(source.reads, 2);
  ASSERT_TRUE((*before)->ok && (*after)->ok);
  EXPECT_NE((*before)->md.learning_rate, 0.0777);
  EXPECT_EQ((*after)->md.learning_rate, 0.0777) << "the changed default is read, not the cached one";
  ExpectSame(**after, Fresh(r));
}

// Equal world keys, equal repositories: a job's key hashes every input of
// its generated code. Over a mapped trace with renamed copies, edited budgets
// and swapped models, the repository a key names is always the same; a
// generator that reads another input without hashing it breaks this.
TEST(RepoMetadataCache, TheWorldKeyIsAContentKey) {
  Trace trace;
  Rng rng(9);
  for (int i = 0; i < 400; ++i) {
    JobSpec j;
    j.id = "j" + std::to_string(i);
    j.user = "u" + std::to_string(rng.Below(6));
    j.name = "exp" + std::to_string(rng.Below(12));
    j.vc = "vc";
    j.gpus = 1 << rng.Below(4);
    j.submit_s = i * 600;
    j.duration_s = 600 + static_cast<int64_t>(rng.Below(20000));
    j.state = rng.Uniform() < 0.8 ? EndState::kCompleted : EndState::kFailed;
    trace.jobs.push_back(j);
  }
  WorkloadCatalog catalog = WorkloadCatalog::Build(nullptr, nullptr);
  MappingParams p;
  p.rename_prob = 0.3;
  p.edit_prob = 0.3;
  WorldMap world = MapTrace(trace, catalog, p);
  std::map<uint64_t, std::pair<std::map<std::string, std::string>, std::string>> by_key;
  size_t shared = 0;
  for (const MappedJob& m : world.jobs) {
    GeneratedRepo r = GenerateRepo(m.truth, m.style, m.layout_seed);
    auto [it, fresh] = by_key.try_emplace(m.repo_key, r.files, r.command);
    if (fresh) continue;
    ++shared;
    EXPECT_EQ(it->second.first, r.files) << "key " << m.repo_key;
    EXPECT_EQ(it->second.second, r.command) << "key " << m.repo_key;
  }
  EXPECT_GT(shared, 50u) << "reruns of unchanged code share a key";
  EXPECT_LT(by_key.size(), world.jobs.size());
}

}  // namespace
}  // namespace schedmate
