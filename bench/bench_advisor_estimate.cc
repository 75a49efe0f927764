// The Advisor's estimate and write-back as a simulation drives them (issue
// 15: whole-Philly Lucid + schedmate), each beside its baseline in one run:
//  - Estimate: from a prepared query over records the history keeps parsed
//    (AdvisorHistory::Estimate(EstimateQuery)) vs the store-reading path
//    (EstimateFromHistory(md, index, store): a record read and its metadata
//    parsed per hit, the fingerprint and sparsity recomputed per query). Both
//    answer the same 2,000 queries over 20,000 records; a difference aborts.
//  - Write-back: Record(record, facts) — metadata facts parsed once per
//    metadata — vs Record(record), which parses them per record; both into a
//    SQLite store with the simulation's group commit.
// Records are drawn like the semantic world's: 600 projects of the paper's
// 15 families, each rerun with small edits of budget and batch.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "advisor/advisor.h"
#include "advisor/advisor_history.h"
#include "core/facts_json.h"
#include "core/json.h"
#include "history/cached_store.h"
#include "history/sqlite_store.h"
#include "world/repo_generator.h"

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

constexpr int kRecords = 20000;
constexpr int kQueries = 2000;

WorkloadMetadata MetadataOf(const WorkloadTruth& h) {
  WorkloadMetadata md;
  md.model_name = h.model_name;
  md.model_type = h.model_type;
  md.dataset = h.dataset;
  md.training_iterations = h.iterations;
  md.iteration_type = h.iteration_type;
  md.batch_size = h.batch_size;
  md.hardware.num_gpus = h.num_gpus;
  md.framework = "pytorch";
  md.files_read = {"train.py", "configs/base.yaml"};
  md.sources = {{"model_name", "train.py", 12, "model"}, {"dataset", "configs/base.yaml", 3, "data"}};
  return md;
}

std::vector<WorkloadMetadata> DrawMetadata(int n, Rng& rng) {
  std::vector<WorkloadTruth> projects;
  for (int p = 0; p < 600; ++p) projects.push_back(DrawWorkload(WorkloadFamilies()[rng.Below(15)], rng));
  std::vector<WorkloadMetadata> out;
  for (int i = 0; i < n; ++i) {
    WorkloadTruth w = projects[rng.Below(projects.size())];
    if (rng.Uniform() < 0.2) w.iterations *= 2;
    if (rng.Uniform() < 0.2) w.batch_size = std::max<int64_t>(1, w.batch_size / 2);
    out.push_back(MetadataOf(w));
  }
  return out;
}

HistoryRecord RecordOf(int i, const WorkloadMetadata& md, Rng& rng) {
  HistoryRecord r;
  r.job_id = "job" + std::to_string(i);
  r.completed_at_s = i;
  r.duration_s = 600 + static_cast<int64_t>(rng.Below(36000));
  r.end_reason = rng.Uniform() < 0.8 ? EndReason::kCompleted : EndReason::kFailedUser;
  r.sm_util = 0.3 + 0.6 * rng.Uniform();
  r.mem_util = rng.Uniform();
  r.metadata_json = DumpJson(ToJson(md));
  r.fingerprint = Fingerprint(md);
  return r;
}

std::string TempDb(const char* tag) {
  std::string p =
      (std::filesystem::temp_directory_path() / ("bench_estimate_" + std::to_string(getpid()) + tag + ".db")).string();
  for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(p + s);
  return p;
}

struct EstimateFixture {
  std::string db = TempDb("e");
  std::unique_ptr<HistoryStore> sqlite;
  std::unique_ptr<CachedHistoryStore> store;
  std::unique_ptr<AdvisorHistory> history;
  std::vector<WorkloadMetadata> queries;
  std::vector<EstimateQuery> prepared;

  EstimateFixture() {
    Rng rng(7);
    SqliteOptions so;
    so.group_commit = 256;
    sqlite = std::move(OpenSqliteHistory(db, so).value());
    store = std::make_unique<CachedHistoryStore>(*sqlite, 1 << 20);
    VectorIndexOptions vo = AdvisorHistory::DefaultIndexOptions();
    vo.hnsw_threshold = 4096, vo.ef_construction = 40, vo.ef_search = 48;  // as the Lucid integration
    history = std::make_unique<AdvisorHistory>(*store, vo);
    std::vector<WorkloadMetadata> mds = DrawMetadata(kRecords + kQueries, rng);
    for (int i = 0; i < kRecords; ++i) (void)history->Record(RecordOf(i, mds[static_cast<size_t>(i)], rng));
    queries.assign(mds.begin() + kRecords, mds.end());
    for (const auto& md : queries) prepared.push_back(PrepareQuery(md));
    int differ = 0, hits = 0;
    for (size_t q = 0; q < queries.size(); ++q) {
      int64_t as_of = static_cast<int64_t>(q * kRecords / queries.size()) + 1;
      DurationEstimate a = EstimateFromHistory(queries[q], history->index(), *store, as_of);
      DurationEstimate b = history->Estimate(prepared[q], as_of);
      differ += DumpJson(ToJson(a)) != DumpJson(ToJson(b));
      hits += a.method == DurationEstimate::Method::kHistory;
    }
    std::fprintf(stderr, "estimate: %d queries, %d history answers, %d differ\n", kQueries, hits, differ);
    if (differ > 0) std::abort();
  }
  ~EstimateFixture() {
    history.reset();
    store.reset();
    sqlite.reset();
    for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(db + s);
  }
};

EstimateFixture& GetEstimate() {
  static EstimateFixture f;
  return f;
}

void EstimateReadingTheStore(benchmark::State& state) {
  EstimateFixture& f = GetEstimate();
  size_t q = 0;
  for (auto _ : state) {
    size_t i = q++ % f.queries.size();
    int64_t as_of = static_cast<int64_t>(i * kRecords / f.queries.size()) + 1;
    benchmark::DoNotOptimize(EstimateFromHistory(f.queries[i], f.history->index(), *f.store, as_of));
  }
}
BENCHMARK(EstimateReadingTheStore)->Unit(benchmark::kMicrosecond);

void EstimateFromParsedRecords(benchmark::State& state) {
  EstimateFixture& f = GetEstimate();
  size_t q = 0;
  for (auto _ : state) {
    size_t i = q++ % f.queries.size();
    int64_t as_of = static_cast<int64_t>(i * kRecords / f.queries.size()) + 1;
    benchmark::DoNotOptimize(f.history->Estimate(f.prepared[i], as_of));
  }
}
BENCHMARK(EstimateFromParsedRecords)->Unit(benchmark::kMicrosecond);

// Writes kWrites records of 500 metadata (a simulation's repositories repeat)
// into a fresh store per iteration.
constexpr int kWrites = 5000;

struct WriteFixture {
  std::vector<HistoryRecord> records;
  std::vector<std::shared_ptr<const MetadataFacts>> facts;
  WriteFixture() {
    Rng rng(11);
    std::vector<WorkloadMetadata> mds = DrawMetadata(500, rng);
    std::vector<std::shared_ptr<const MetadataFacts>> by_md;
    for (const auto& md : mds) by_md.push_back(std::make_shared<const MetadataFacts>(FactsOfMetadata(ToJson(md))));
    for (int i = 0; i < kWrites; ++i) {
      size_t m = rng.Below(mds.size());
      records.push_back(RecordOf(i, mds[m], rng));
      facts.push_back(by_md[m]);
    }
  }
};

WriteFixture& GetWrite() {
  static WriteFixture f;
  return f;
}

template <bool kParsedOnce>
void WriteBack(benchmark::State& state) {
  WriteFixture& f = GetWrite();
  for (auto _ : state) {
    state.PauseTiming();
    std::string db = TempDb(kParsedOnce ? "w1" : "w0");
    SqliteOptions so;
    so.group_commit = 256;
    auto sqlite = std::move(OpenSqliteHistory(db, so).value());
    {
      CachedHistoryStore store(*sqlite, 1 << 20);
      VectorIndexOptions vo = AdvisorHistory::DefaultIndexOptions();
      vo.hnsw_threshold = 1 << 30;  // the store's side only: no graph
      AdvisorHistory history(store, vo);
      state.ResumeTiming();
      for (size_t i = 0; i < f.records.size(); ++i)
        benchmark::DoNotOptimize(kParsedOnce ? history.Record(f.records[i], f.facts[i]) : history.Record(f.records[i]));
      state.PauseTiming();
    }
    sqlite.reset();
    for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(db + s);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kWrites);
}
BENCHMARK_TEMPLATE(WriteBack, false)->Name("WriteBackParsingEachRecord")->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(WriteBack, true)->Name("WriteBackFactsParsedOnce")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace schedmate

BENCHMARK_MAIN();
