// The Redis history backend against a real redis-server started here.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

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

RedisOptions Options(const RedisServer& server) {
  RedisOptions o;
  o.port = server.port();
  o.prefix = "test:" + std::to_string(getpid());
  o.retry_deadline_s = 0.3;  // an outage in these tests is meant to fail fast
  return o;
}

// A raw command, as another client (or an operator) would send it.
void Raw(const RedisServer& server, const std::vector<std::string>& args) {
  redisContext* c = redisConnect("127.0.0.1", server.port());
  ASSERT_TRUE(c && !c->err);
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  freeReplyObject(redisCommandArgv(c, static_cast<int>(args.size()), argv.data(), lens.data()));
  redisFree(c);
}

RecordSource Yield(std::vector<HistoryRecord> records, Status end = Status::Ok()) {
  return [records = std::move(records), end](const RecordSink& sink) -> Status {
    for (const auto& r : records) RETURN_IF_ERROR(sink(r));
    return end;
  };
}

std::vector<HistoryRecord> Numbered(int n, int64_t completed = 100) {
  std::vector<HistoryRecord> out;
  for (int i = 0; i < n; ++i) out.push_back(Rec("r" + std::to_string(i), completed, {1, 0, 0, 0}));
  return out;
}

#define REQUIRE_REDIS(server)                                                                             \
  ASSERT_FALSE(RedisServer::Binary().empty()) << "redis-server is not installed: run scripts/install_deps.sh"; \
  ASSERT_TRUE(server.ok()) << "redis-server did not start"

TEST(RedisHistory, SharedStoreRoundTripScanAndOutage) {
  RedisServer server;
  REQUIRE_REDIS(server);
  RedisOptions o = Options(server);
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

// An EXEC reply is an array whose elements may be errors while the other
// commands were applied: such a Put must fail, not report success.
TEST(RedisHistory, ExecReplyWithAnErrorElementIsAFailure) {
  RedisServer server;
  REQUIRE_REDIS(server);
  RedisOptions o = Options(server);
  auto store = OpenRedisHistory(o);
  ASSERT_TRUE(store.ok()) << store.status().message();
  Raw(server, {"SET", o.prefix + ":by_completed", "not a sorted set"});
  Status s = (*store)->Put(Rec("x", 200, {1, 0, 0, 0}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("ZADD failed: WRONGTYPE"), std::string::npos) << s.message();
}

TEST(RedisHistory, RetriesWithBackoffAcrossAShortRestart) {
  RedisServer server;
  REQUIRE_REDIS(server);
  RedisOptions o = Options(server);
  o.retry_deadline_s = 10;
  auto store = OpenRedisHistory(o);
  ASSERT_TRUE(store.ok());
  server.Stop(SIGKILL);
  std::thread restart([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    server.Start();
  });
  Status s = (*store)->Put(Rec("during-restart", 300, {1, 1, 1, 1}));
  restart.join();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(*(*store)->Count(), 1);
}

// A server that accepts connections and never answers, like a SIGSTOPped
// redis-server: the listening socket's backlog completes the handshake.
class SilentServer {
 public:
  SilentServer() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    listen(fd_, 16);
    socklen_t len = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~SilentServer() { close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1, port_ = 0;
};

TEST(RedisHistory, FrozenServerIsAClearTimeoutWithinTheDeadline) {
  SilentServer frozen;
  RedisOptions o;
  o.port = frozen.port();
  o.timeout_s = 0.2;
  o.retry_deadline_s = 0.5;
  auto t0 = std::chrono::steady_clock::now();
  auto store = OpenRedisHistory(o);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(store.status().message().find("no reply within 0.2 s"), std::string::npos) << store.status().message();
  EXPECT_EQ(store.status().message().find("Resource temporarily unavailable"), std::string::npos);
  EXPECT_NE(store.status().message().find("attempts over"), std::string::npos);
  EXPECT_LT(took, 0.5 + 0.2 + 0.5);  // the deadline, one more reply timeout, slack
}

TEST(RedisHistory, ARealFrozenServerIsAClearTimeoutAndWritesResumeWhenItThaws) {
  RedisServer server;
  REQUIRE_REDIS(server);
  RedisOptions o = Options(server);
  o.timeout_s = 0.2;
  o.retry_deadline_s = 0.6;
  auto store = OpenRedisHistory(o);
  ASSERT_TRUE(store.ok()) << store.status().message();
  server.Freeze();
  auto t0 = std::chrono::steady_clock::now();
  Status frozen = (*store)->Put(Numbered(1).front());
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  server.Thaw();
  ASSERT_FALSE(frozen.ok());
  EXPECT_EQ(frozen.code(), StatusCode::kDeadlineExceeded) << frozen.message();
  EXPECT_EQ(frozen.message().find("Resource temporarily unavailable"), std::string::npos) << frozen.message();
  EXPECT_LT(took, 0.6 + 0.2 + 0.5);
  // Once it answers again, the same store works: the put is retried by the caller and lands.
  Status thawed = (*store)->Put(Numbered(1).front());
  EXPECT_TRUE(thawed.ok()) << thawed.message();
  EXPECT_EQ(*(*store)->Count(), 1);
}

TEST(RedisHistory, ImportCommitsChunksAndResumesFromItsCheckpoint) {
  RedisServer server;
  REQUIRE_REDIS(server);
  RedisOptions o = Options(server);
  auto store = OpenRedisHistory(o);
  ASSERT_TRUE(store.ok());
  ImportOptions io;
  io.checkpoint_id = "file1";
  auto failed = (*store)->Import(Yield(Numbered(1100), DataLoss("f.jsonl:1101: truncated")), io);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("the first 1000 records are committed"), std::string::npos)
      << failed.status().message();
  EXPECT_EQ(*(*store)->Count(), 1000);  // two whole chunks of 500, nothing of the third
  auto resumed = (*store)->Import(Yield(Numbered(1200)), io);
  ASSERT_TRUE(resumed.ok()) << resumed.status().message();
  EXPECT_EQ(resumed->resumed_after, 1000);
  EXPECT_EQ(resumed->written, 200);
  EXPECT_EQ(*(*store)->Count(), 1200);
  auto again = (*store)->Import(Yield(Numbered(3)), io);  // the finished import left no checkpoint
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->resumed_after, 0);
  EXPECT_EQ(again->written, 3);
}

TEST(RedisHistory, ImportKeepsALaterStoredRunAndFailsAWrongTypedChunkWhole) {
  RedisServer server;
  REQUIRE_REDIS(server);
  RedisOptions o = Options(server);
  auto store = OpenRedisHistory(o);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Put(Rec("r0", 5000, {1, 0, 0, 0})).ok());
  auto counts = (*store)->Import(Yield(Numbered(3, 100)), {});
  ASSERT_TRUE(counts.ok()) << counts.status().message();
  EXPECT_EQ(counts->written, 2);
  EXPECT_EQ(counts->skipped_older, 1);
  EXPECT_EQ((*(*store)->Get("r0"))->completed_at_s, 5000);
  ImportOptions force;
  force.force = true;
  ASSERT_TRUE((*store)->Import(Yield(Numbered(1, 100)), force).ok());
  EXPECT_EQ((*(*store)->Get("r0"))->completed_at_s, 100);
  Raw(server, {"SET", o.prefix + ":rec:bad", "a string"});
  std::vector<HistoryRecord> chunk = {Rec("fresh", 100, {1, 0, 0, 0}), Rec("bad", 100, {1, 0, 0, 0})};
  auto wrong = (*store)->Import(Yield(chunk), {});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("WRONGTYPE"), std::string::npos) << wrong.status().message();
  EXPECT_FALSE((*(*store)->Get("fresh")).has_value());  // checked before the chunk's first write
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
