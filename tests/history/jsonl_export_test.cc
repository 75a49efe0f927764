// `history export -o` through the Env: every record once, in the import
// format, and a short write fails the export while the previous file stays whole.
#include "history/jsonl_export.h"

#include <gtest/gtest.h>

#include "core/fake_env.h"
#include "history/sqlite_store.h"

namespace schedmate {
namespace {

HistoryRecord Record(const std::string& id) {
  HistoryRecord r;
  r.job_id = id;
  r.duration_s = 3600;
  r.completed_at_s = 1700000000;
  r.fingerprint = {0.5f, -0.5f};
  return r;
}

TEST(JsonlExport, AShortWriteFailsAndTheLastExportSurvivesWhole) {
  auto store = OpenSqliteHistory(":memory:");
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  ASSERT_TRUE((*store)->Put(Record("a")).ok());
  FakeEnv env;
  auto n = ExportJsonl(**store, env, "/backup/history.jsonl");
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(*n, 1);
  const std::string first = *env.Contents("/backup/history.jsonl");
  EXPECT_NE(first.find("\"fingerprint\":[0.5,-0.5]"), std::string::npos) << first;
  ASSERT_TRUE((*store)->Put(Record("b")).ok());
  env.FailNextWriteAfter(20);
  auto failed = ExportJsonl(**store, env, "/backup/history.jsonl");
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("/backup/history.jsonl"), std::string::npos);
  EXPECT_EQ(*env.Contents("/backup/history.jsonl"), first);
  EXPECT_EQ(*ExportJsonl(**store, env, "/backup/history.jsonl"), 2);
}

}  // namespace
}  // namespace schedmate
