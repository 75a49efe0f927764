// The Redis history backend against a real redis-server started here.
#include <gtest/gtest.h>

#include "history/redis_store.h"
#include "history/vector_index.h"
#include "support/redis_server.h"

namespace schedmate {
namespace {

HistoryRecord Rec(const std::string& id, int64_t completed, std::vector<float> fp) {
  HistoryRecord r;
  r.job_id = id;
  r.completed_at_s = completed;
  r.duration_s = 60;
  r.end_reason = EndReason::kFailedInfra;
  r.sm_util = 0.5;
  r.fingerprint = std::move(fp);
  return r;
}

TEST(RedisHistory, SharedStoreRoundTripScanAndOutage) {
  ASSERT_FALSE(RedisServer::Binary().empty()) << "redis-server is not installed: run scripts/install_deps.sh";
  RedisServer server;
  ASSERT_TRUE(server.ok()) << "redis-server did not start";
  RedisOptions o;
  o.port = server.port();
  o.prefix = "test:" + std::to_string(getpid());
  auto a = OpenRedisHistory(o);
  ASSERT_TRUE(a.ok()) << a.status().message();
  auto b = OpenRedisHistory(o);  // a second scheduler instance
  ASSERT_TRUE(b.ok());
  const float weird[] = {1.0f, -0.0f, 3.4e38f, 1e-45f};  // byte-exact floats, zero bytes inside
  ASSERT_TRUE((*a)->Put(Rec("x", 200, {weird, weird + 4})).ok());
  ASSERT_TRUE((*a)->Put(Rec("y", 100, {0, 0, 0, 1})).ok());
  auto got = (*b)->Get("x");
  ASSERT_TRUE(got.ok() && got->has_value()) << got.status().message();
  EXPECT_EQ((*got)->fingerprint, std::vector<float>(weird, weird + 4));
  EXPECT_EQ((*got)->end_reason, EndReason::kFailedInfra);
  EXPECT_EQ(*(*b)->Count(), 2);
  std::vector<std::string> order;
  ASSERT_TRUE((*b)->ForEach([&](const HistoryRecord& r) {
    order.push_back(r.job_id);
    return Status::Ok();
  }).ok());
  EXPECT_EQ(order, (std::vector<std::string>{"y", "x"}));
  VectorIndexOptions vo;
  vo.dimension = 4;
  auto index = VectorIndex::Rebuild(**b, vo);
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->size(), 2u);

  // The server goes away: calls fail cleanly; it comes back: calls work.
  server.Stop(SIGKILL);
  Status down = (*a)->Put(Rec("z", 300, {1, 1, 1, 1}));
  EXPECT_EQ(down.code(), StatusCode::kUnavailable) << down.message();
  EXPECT_FALSE((*a)->Count().ok());
  server.Start();
  ASSERT_TRUE(server.ok());
  EXPECT_TRUE((*a)->Put(Rec("z", 300, {1, 1, 1, 1})).ok());  // a fresh server: only z
  EXPECT_EQ(*(*a)->Count(), 1);
}

TEST(RedisHistory, UrlParsing) {
  auto o = ParseRedisUrl("redis://10.0.0.5:7000/clusterA");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->host, "10.0.0.5");
  EXPECT_EQ(o->port, 7000);
  EXPECT_EQ(o->prefix, "clusterA");
  EXPECT_FALSE(ParseRedisUrl("http://x").ok());
  EXPECT_FALSE(ParseRedisUrl("redis://x:99999").ok());
}

}  // namespace
}  // namespace schedmate
