// Bad input and overload over HTTP: the right status and code, quickly, and
// nothing written to the history.
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>

#include "service_fixture.h"

namespace schedmate {
namespace {

using Clock = std::chrono::steady_clock;

TEST_F(ServiceTest, AWriteWithoutTheRightTokenIs401AndWritesNothing) {
  Start();
  auto none = Post("/v1/history", HistoryBody("a"));
  EXPECT_EQ(none->status, 401);
  EXPECT_EQ(ErrorCode(none), "unauthorized");
  auto wrong = Post("/v1/history", HistoryBody("a"), "test-token-0123456789abcdeX");
  EXPECT_EQ(wrong->status, 401);
  EXPECT_EQ(StoredRecords(), 0);
}

TEST_F(ServiceTest, WithoutAConfiguredTokenWritesAreRefused) {
  options_.token.clear();
  Start();
  EXPECT_EQ(Post("/v1/history", HistoryBody("a"), kTestToken)->status, 401);
  EXPECT_EQ(StoredRecords(), 0);
}

TEST_F(ServiceTest, TokenForReadsGuardsAdviseToo) {
  options_.token_for_reads = true;
  Start();
  EXPECT_EQ(Post("/v1/advise", AdviseBody())->status, 401);
  EXPECT_EQ(Post("/v1/advise", AdviseBody(), kTestToken)->status, 200);
}

TEST_F(ServiceTest, PathsOutsideTheAllowedRootsAre403AndWriteNothing) {
  Start();
  WriteFile("outside/repo/train.py", "print('hi')\n");
  std::string outside = (dir_ / "outside" / "repo").string();
  auto advise = Post("/v1/advise", {{"repo", outside}, {"cmd", "python train.py"}});
  EXPECT_EQ(advise->status, 403);
  EXPECT_EQ(ErrorCode(advise), "forbidden_path");
  EXPECT_EQ(Body(advise)["error"]["field"], "repo");
  // `..` and a symlink inside the root that leads out are resolved first.
  auto dotdot = Post("/v1/advise", {{"repo", (root_ / ".." / "outside" / "repo").string()}, {"cmd", "python train.py"}});
  EXPECT_EQ(dotdot->status, 403);
  std::filesystem::create_symlink(dir_ / "outside", root_ / "escape");
  auto link = Post("/v1/track", {{"log_path", (root_ / "escape" / "repo" / "train.py").string()}});
  EXPECT_EQ(link->status, 403);
  // A missing file outside answers like an existing one: no oracle.
  EXPECT_EQ(Post("/v1/track", {{"log_path", (dir_ / "outside" / "nothing.log").string()}})->status, 403);
  EXPECT_EQ(Post("/v1/track", {{"log_path", (root_ / "nothing.log").string()}})->status, 404);
  nlohmann::json write = HistoryBody("w");
  write["repo"] = outside;
  EXPECT_EQ(Post("/v1/history", write, kTestToken)->status, 403);
  EXPECT_EQ(StoredRecords(), 0);
}

// A body over the limit, sent whole (it fits the socket buffers, so the
// client reads the answer), is refused unread.
TEST_F(ServiceTest, ABodyOverTheLimitIs413AndWritesNothing) {
  options_.max_body_bytes = 4096;
  Start();
  nlohmann::json big = HistoryBody("big");
  big["record"]["name"] = std::string(5000, 'x');
  auto r = Post("/v1/history", big, kTestToken);
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(ErrorCode(r), "payload_too_large");
  EXPECT_EQ(StoredRecords(), 0);
}

// A huge declared body (1 GiB) is refused from its headers: nothing is read.
TEST_F(ServiceTest, AHugeDeclaredBodyIsRefusedFromItsHeaders) {
  Start();
  std::string answer = RawRequest("POST /v1/history HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                                  std::string(kTestToken) +
                                  "\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{");
  EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer;
  EXPECT_NE(answer.find("payload_too_large"), std::string::npos);
  EXPECT_EQ(StoredRecords(), 0);
}

TEST_F(ServiceTest, InvalidJsonAndBadFieldsAre400NamingTheFieldAndWriteNothing) {
  Start();
  auto syntax = PostText("/v1/history", "{\"record\": ", kTestToken);
  EXPECT_EQ(syntax->status, 400);
  EXPECT_EQ(ErrorCode(syntax), "invalid_json");
  nlohmann::json typo = HistoryBody("t");
  typo["cmdd"] = "x";
  auto unknown = Post("/v1/history", typo, kTestToken);
  EXPECT_EQ(unknown->status, 400);
  EXPECT_EQ(ErrorCode(unknown), "invalid_request");
  EXPECT_EQ(Body(unknown)["error"]["field"], "cmdd");
  nlohmann::json negative = HistoryBody("n");
  negative["record"]["duration_s"] = -5;
  auto bad = Post("/v1/history", negative, kTestToken);
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(Body(bad)["error"]["field"], "record");
  auto k = Post("/v1/advise", {{"repo", (root_ / "repo").string()}, {"cmd", kTrainCmd}, {"k", 0}});
  EXPECT_EQ(k->status, 400);
  EXPECT_EQ(Body(k)["error"]["field"], "k");
  EXPECT_EQ(StoredRecords(), 0);
}

TEST_F(ServiceTest, AFullQueueAnswers503AtOnceWhileTheOtherChannelsStillAnswer) {
  options_.before_task = gate_->Hook("submit");
  options_.submit = {"submit", 1, 1, 1000, 1000};
  Start();
  auto held = std::async(std::launch::async, [&] { return OtherClientPost("/v1/advise", AdviseBody()); });
  gate_->WaitForBlocked(1);  // the one worker is busy
  auto queued = std::async(std::launch::async, [&] { return OtherClientPost("/v1/advise", AdviseBody()); });
  for (int i = 0; i < 200 && service_->Metrics().body.find("schedmate_queue_depth{channel=\"submit\"} 1") ==
                                 std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  auto t0 = Clock::now();
  auto full = Post("/v1/advise", AdviseBody());
  double waited_s = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_EQ(full->status, 503);
  EXPECT_EQ(ErrorCode(full), "queue_full");
  EXPECT_EQ(full->get_header_value("Retry-After"), "1");
  EXPECT_LT(waited_s, 1.0);
  // The run and exit channels are not held up by the blocked submit channel.
  EXPECT_EQ(Post("/v1/track", {{"log_text", "iter 10: loss 1.0, time 1000.00ms\n"}})->status, 200);
  EXPECT_EQ(Post("/v1/diagnose", {{"log_text", "RuntimeError: CUDA error: uncorrectable ECC error\n"}})->status, 200);
  gate_->Open();
  EXPECT_EQ(held.get(), 200);
  EXPECT_EQ(queued.get(), 200);
  EXPECT_NE(service_->Metrics().body.find("schedmate_channel_refusals_total{channel=\"submit\",reason=\"queue_full\"} 1"),
            std::string::npos);
}

TEST_F(ServiceTest, BeyondTheRateLimitAnswers429WithRetryAfter) {
  options_.run = {"run", 1, 16, 0.5, 1};
  Start();
  nlohmann::json body = {{"log_text", "iter 10: loss 1.0, time 1000.00ms\n"}};
  EXPECT_EQ(Post("/v1/track", body)->status, 200);
  auto t0 = Clock::now();
  auto limited = Post("/v1/track", body);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 1.0);
  EXPECT_EQ(limited->status, 429);
  EXPECT_EQ(ErrorCode(limited), "rate_limited");
  EXPECT_EQ(limited->get_header_value("Retry-After"), "2");
}

TEST_F(ServiceTest, NoAnswerWithinTheTimeLimitIs504AndTheTaskIsDropped) {
  options_.before_task = gate_->Hook("exit");
  options_.request_timeout_ms = 200;
  Start();
  auto t0 = Clock::now();
  auto r = Post("/v1/history", HistoryBody("late"), kTestToken);
  EXPECT_EQ(r->status, 504);
  EXPECT_EQ(ErrorCode(r), "timeout");
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 2.0);
  gate_->Open();
  server_.reset();
  service_.reset();  // joins the worker, which skipped the abandoned write
  EXPECT_EQ(StoredRecords(), 0);
}

}  // namespace
}  // namespace schedmate
