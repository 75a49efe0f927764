// The history: record format, the SQLite backend (durability across kill -9
// mid-write, schema versions, a corrupt file), and the vector index (exact,
// HNSW, "as of" queries).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <nlohmann/json.hpp>

#include "core/random.h"
#include "history/cached_store.h"
#include "history/record.h"
#include "history/sqlite_store.h"
#include "history/vector_index.h"

namespace schedmate {
namespace {

std::string TempPath(const std::string& name) {
  std::string p = testing::TempDir() + "/" + name + std::to_string(getpid());
  std::filesystem::remove(p);
  std::filesystem::remove(p + "-wal");
  std::filesystem::remove(p + "-shm");
  return p;
}

HistoryRecord Record(const std::string& id, int64_t completed, std::vector<float> fp = {}) {
  HistoryRecord r;
  r.job_id = id;
  r.name = "train-" + id;
  r.user = "alice";
  r.submit_time_s = completed - 100;
  r.completed_at_s = completed;
  r.duration_s = 90;
  r.end_reason = EndReason::kCompleted;
  r.num_gpus = 8;
  r.gpu_type = "A100";
  r.sm_util = 0.71;
  r.throughput = 1234.5;
  r.throughput_unit = "samples/s";
  r.per_config = {{"A100", 8, 256, 1234.5}, {"V100", 8, 256, 610}};
  r.software_versions = "torch 2.3; cuda 12.1";
  r.snapshot_hash = "abc123";
  r.metadata_json = R"({"model_name":"gpt2","batch_size":256})";
  r.fingerprint = std::move(fp);
  return r;
}

TEST(Record, JsonRoundTripAndErrors) {
  HistoryRecord r = Record("j1", 1000);
  auto back = RecordFromJson(RecordToJson(r), "test");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->job_id, "j1");
  EXPECT_EQ(back->per_config.size(), 2u);
  EXPECT_EQ(back->per_config[1].throughput, 610);
  EXPECT_EQ(back->end_reason, EndReason::kCompleted);
  EXPECT_EQ(nlohmann::json::parse(back->metadata_json)["model_name"], "gpt2");
  Json j = RecordToJson(r);
  j["schema_version"] = 99;
  EXPECT_EQ(RecordFromJson(j, "x").status().code(), StatusCode::kFailedPrecondition);
  j = RecordToJson(r);
  j.erase("completed_at_s");
  auto missing = RecordFromJson(j, "db:7");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("completed_at_s"), std::string::npos);
  j = RecordToJson(r);
  j["end_reason"] = "exploded";
  EXPECT_FALSE(RecordFromJson(j, "x").ok());
}

TEST(SqliteHistory, PutGetScanReopen) {
  std::string path = TempPath("hist.db");
  {
    auto store = OpenSqliteHistory(path);
    ASSERT_TRUE(store.ok()) << store.status().message();
    ASSERT_TRUE((*store)->Put(Record("b", 2000, {1, 0, 0})).ok());
    ASSERT_TRUE((*store)->Put(Record("a", 1000, {0, 1, 0})).ok());
    ASSERT_TRUE((*store)->Put(Record("b", 3000, {1, 1, 0})).ok());  // replaces
    EXPECT_EQ(*(*store)->Count(), 2);
  }
  auto store = OpenSqliteHistory(path);
  ASSERT_TRUE(store.ok());
  auto b = (*store)->Get("b");
  ASSERT_TRUE(b.ok() && b->has_value());
  EXPECT_EQ((*b)->completed_at_s, 3000);
  EXPECT_EQ((*b)->fingerprint, (std::vector<float>{1, 1, 0}));
  EXPECT_FALSE((*(*store)->Get("zz")).has_value());
  std::vector<std::string> order;
  ASSERT_TRUE((*store)->ForEach([&](const HistoryRecord& r) {
    order.push_back(r.job_id);
    return Status::Ok();
  }).ok());
  EXPECT_EQ(order, (std::vector<std::string>{"a", "b"}));
}

// The body keeps metadata_json's text when it is JSON (no parse per write):
// a read gives what a parsed-and-dumped body gave — compact or spaced text,
// a name that looks like the metadata key, and text that is not JSON (kept
// as a string) alike. The stored bytes are DumpJson's for compact text.
TEST(SqliteHistory, MetadataTextReadsBackAsItsValue) {
  std::string path = TempPath("meta.db");
  auto store = OpenSqliteHistory(path);
  ASSERT_TRUE(store.ok());
  const std::vector<std::string> texts = {R"({"batch_size":256,"model_name":"gpt2"})",
                                          " {\n  \"model_name\" : \"gpt2\", \"x\": [1, 2.5e3, null]\n} ",
                                          R"("just a string")", "{not json", "{\"a\":\"\xff\"}"};
  for (size_t i = 0; i < texts.size(); ++i) {
    HistoryRecord r = Record("m" + std::to_string(i), 1000 + static_cast<int64_t>(i));
    r.name = R"("metadata":"x")";
    r.metadata_json = texts[i];
    ASSERT_TRUE((*store)->Put(r).ok());
    auto got = (*store)->Get(r.job_id);
    ASSERT_TRUE(got.ok() && got->has_value()) << texts[i];
    Json expected = RecordToJson(r);  // what the parse-and-dump body held
    EXPECT_EQ((*got)->metadata_json, DumpJson(expected["metadata"])) << texts[i];
    EXPECT_EQ((*got)->name, r.name);
    EXPECT_EQ(DumpJson(RecordToJson(**got)), DumpJson(expected)) << texts[i];
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT body FROM records WHERE job_id = 'm0'", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  HistoryRecord m0 = Record("m0", 1000);
  m0.name = R"("metadata":"x")";
  m0.metadata_json = texts[0];
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))), DumpJson(RecordToJson(m0)));
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST(SqliteHistory, GroupCommitKeepsEveryRecordAndReadsItsOwnWrites) {
  std::string path = TempPath("group.db");
  {
    SqliteOptions o;
    o.group_commit = 4;
    auto store = OpenSqliteHistory(path, o);
    ASSERT_TRUE(store.ok());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE((*store)->Put(Record("r" + std::to_string(i), 1000 + i)).ok());
    auto last = (*store)->Get("r9");  // in the open transaction, visible to this connection
    ASSERT_TRUE(last.ok() && last->has_value());
    CachedHistoryStore cached(**store, 4);
    ASSERT_TRUE(cached.Put(Record("c", 5000)).ok());
    ASSERT_TRUE(cached.Get("c").ok());
    EXPECT_EQ(cached.hits(), 1);
    auto miss = cached.Get("r0");  // not cached: read through
    ASSERT_TRUE(miss.ok() && miss->has_value());
    EXPECT_EQ((*miss)->completed_at_s, 1000);
  }  // closing commits the rest
  auto store = OpenSqliteHistory(path);
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(*(*store)->Count(), 11);
}

TEST(SqliteHistory, RefusesNewerSchemaAndCorruptFiles) {
  std::string path = TempPath("newer.db");
  { ASSERT_TRUE(OpenSqliteHistory(path).ok()); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 7", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto newer = OpenSqliteHistory(path);
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.status().code(), StatusCode::kFailedPrecondition);
  std::string garbage = TempPath("garbage.db");
  std::ofstream(garbage) << std::string(8192, 'x');
  EXPECT_FALSE(OpenSqliteHistory(garbage).ok());
  EXPECT_FALSE(OpenSqliteHistory("/nonexistent-dir/h.db").ok());
}

// A writer killed with SIGKILL mid-stream: every record it reported as
// committed is there after reopening, and the file opens cleanly.
TEST(SqliteHistory, KillNineMidWriteKeepsCommittedRecords) {
  std::string path = TempPath("crash.db");
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(pipefd[0]);
    auto store = OpenSqliteHistory(path);
    if (!store.ok()) _exit(2);
    for (int i = 0;; ++i) {
      HistoryRecord r = Record("job" + std::to_string(i), 1000 + i, std::vector<float>(64, 0.5f));
      if (!(*store)->Put(r).ok()) _exit(3);
      int32_t done = i;
      if (write(pipefd[1], &done, sizeof done) != sizeof done) _exit(4);
    }
  }
  close(pipefd[1]);
  int32_t last = -1, value;
  while (last < 300 && read(pipefd[0], &value, sizeof value) == sizeof value) last = value;
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  close(pipefd[0]);
  ASSERT_GE(last, 300);
  auto store = OpenSqliteHistory(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  for (int i = 0; i <= last; ++i) {
    auto r = (*store)->Get("job" + std::to_string(i));
    ASSERT_TRUE(r.ok()) << r.status().message();
    ASSERT_TRUE(r->has_value()) << "job" << i << " lost";
    EXPECT_EQ((*r)->fingerprint.size(), 64u);
  }
  EXPECT_GE(*(*store)->Count(), last + 1);
}

// A source yielding `records`, then `end` (an error stands for a bad line or a crash mid-file).
RecordSource Yield(std::vector<HistoryRecord> records, Status end = Status::Ok()) {
  return [records = std::move(records), end](const RecordSink& sink) -> Status {
    for (const auto& r : records) RETURN_IF_ERROR(sink(r));
    return end;
  };
}

TEST(SqliteHistory, ImportIsOneTransaction) {
  std::string path = TempPath("import.db");
  auto store = OpenSqliteHistory(path);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Put(Record("before", 500)).ok());
  auto failed = (*store)->Import(Yield({Record("a", 1000), Record("b", 1000), Record("c", 1000)},
                                       InvalidArgument("f.jsonl:4: completed_at_s: missing")),
                                 {});
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("f.jsonl:4"), std::string::npos);
  EXPECT_EQ(*(*store)->Count(), 1);  // a, b and c rolled back
  EXPECT_FALSE((*(*store)->Get("a")).has_value());
  auto done = (*store)->Import(Yield({Record("a", 1000), Record("b", 1000)}), {});
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_EQ(done->written, 2);
  EXPECT_EQ(*(*store)->Count(), 3);
  ASSERT_TRUE((*store)->Put(Record("after", 2000)).ok());  // Put works after an import
  auto reopened = OpenSqliteHistory(path);
  EXPECT_EQ(*(*reopened)->Count(), 4);
}

TEST(SqliteHistory, ImportKeepsALaterStoredRunUnlessForced) {
  std::string path = TempPath("newer.db");
  auto store = OpenSqliteHistory(path);
  ASSERT_TRUE(store.ok());
  HistoryRecord later = Record("a", 2000);
  later.duration_s = 777;
  ASSERT_TRUE((*store)->Put(later).ok());
  ASSERT_TRUE((*store)->Put(Record("same", 1500)).ok());
  HistoryRecord older = Record("a", 1000);
  older.duration_s = 1;
  auto counts = (*store)->Import(Yield({older, Record("same", 1500), Record("new", 1000)}), {});
  ASSERT_TRUE(counts.ok()) << counts.status().message();
  EXPECT_EQ(counts->written, 2);  // "same" (an equal completion is the same run) and "new"
  EXPECT_EQ(counts->skipped_older, 1);
  EXPECT_EQ((*(*store)->Get("a"))->duration_s, 777);
  ImportOptions force;
  force.force = true;
  counts = (*store)->Import(Yield({older}), force);
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->written, 1);
  EXPECT_EQ((*(*store)->Get("a"))->duration_s, 1);
  CachedHistoryStore cached(**store, 4);  // a cache forgets what an import may replace
  ASSERT_TRUE(cached.Get("a").ok());
  ASSERT_TRUE(cached.Import(Yield({later}), {}).ok());
  EXPECT_EQ((*cached.Get("a"))->duration_s, 777);
}

std::vector<float> RandomVector(Rng& rng, int dim) {
  std::vector<float> v(static_cast<size_t>(dim));
  for (float& x : v) x = static_cast<float>(rng.Normal());
  return v;
}

TEST(VectorIndex, ExactTopKAsOfAndThreshold) {
  VectorIndexOptions o;
  o.dimension = 3;
  VectorIndex index(o);
  ASSERT_TRUE(index.Add("old-close", {1, 0.1f, 0}, 100).ok());
  ASSERT_TRUE(index.Add("old-far", {0, 1, 0}, 100).ok());
  ASSERT_TRUE(index.Add("future-closest", {1, 0, 0}, 500).ok());
  EXPECT_FALSE(index.Add("bad", {1, 0}, 1).ok());
  auto hits = index.Search({1, 0, 0}, 2, /*as_of=*/200, /*min_score=*/0.5f);
  ASSERT_EQ(hits.size(), 1u);  // the future record is invisible; the far one is below 0.5
  EXPECT_EQ(hits[0].job_id, "old-close");
  auto later = index.Search({1, 0, 0}, 1, 1000, 0.0f);
  EXPECT_EQ(later[0].job_id, "future-closest");
  EXPECT_NEAR(later[0].score, 1.0f, 1e-6);
}

TEST(VectorIndex, HnswAgreesWithExactSearch) {
  VectorIndexOptions o;
  o.dimension = 32;
  o.hnsw_threshold = 500;
  VectorIndex index(o);
  Rng rng(7);
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(index.Add("j" + std::to_string(i), RandomVector(rng, 32), i).ok());
  int agree = 0, queries = 100;
  for (int q = 0; q < queries; ++q) {
    auto query = RandomVector(rng, 32);
    auto h = index.Search(query, 1, 1 << 30, -1.0f);
    auto e = index.SearchExact(query, 1, 1 << 30, -1.0f);
    ASSERT_EQ(h.size(), 1u);
    agree += h[0].job_id == e[0].job_id;
  }
  EXPECT_TRUE(index.uses_hnsw());
  EXPECT_GE(agree, 90);  // recall@1 of the graph
  // "As of" with the graph: only the first 100 records are visible.
  auto query = RandomVector(rng, 32);
  auto past = index.Search(query, 5, 100, -1.0f);
  ASSERT_EQ(past.size(), 5u);
  for (const auto& hit : past) EXPECT_LT(hit.completed_at_s, 100);
  EXPECT_EQ(past[0].job_id, index.SearchExact(query, 1, 100, -1.0f)[0].job_id);
}

TEST(VectorIndex, RebuiltFromTheStore) {
  std::string path = TempPath("rebuild.db");
  auto store = OpenSqliteHistory(path);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Put(Record("a", 10, {1, 0, 0})).ok());
  ASSERT_TRUE((*store)->Put(Record("b", 20, {0, 1, 0})).ok());
  ASSERT_TRUE((*store)->Put(Record("other-embedder", 30, {1, 0})).ok());
  VectorIndexOptions o;
  o.dimension = 3;
  auto index = VectorIndex::Rebuild(**store, o);
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->size(), 2u);
  EXPECT_EQ(index->Search({0, 1, 0}, 1, 100, 0)[0].job_id, "b");
}

}  // namespace
}  // namespace schedmate
