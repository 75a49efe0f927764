// The real `schedmate track` against misbehaving LLM endpoints: the plain
// text output names the backend that answered and why the LLM did not, and
// the command ends within its --llm-timeout.
#include <chrono>

#include "cli/cli_fixture.h"
#include "support/fake_chat_server.h"

namespace {

using schedmate::FakeChatServer;
using schedmate::HttpChatResponse;
using schedmate::TricklingServer;

// Progress the embedded parser is unsure of (confidence < 0.75), so the
// cascade asks the LLM.
constexpr const char* kUnsureLog = "Part 0 | Epoch 00001 | Batch 100 | Loss: 1.3927\n";

std::string TrackArgs(const std::string& log, const std::string& url, double timeout_s) {
  return "track " + log + " --backend cascade --llm-url " + url + " --llm-timeout " + std::to_string(timeout_s) +
         " --llm-retries 0";
}

TEST_F(CliTest, TrackPrintsWhyTheLlmDidNotAnswer) {
  std::string log = Write("train.log", kUnsureLog);
  // The same command without an endpoint: process start-up and the embedded
  // reading, which a busy machine slows, are not the deadline's to keep.
  auto b0 = std::chrono::steady_clock::now();
  ASSERT_EQ(Exec("track " + log).code, 0);
  double baseline = std::chrono::duration<double>(std::chrono::steady_clock::now() - b0).count();
  TricklingServer trickle(HttpChatResponse("{}"), std::chrono::milliseconds(1000));
  auto t0 = std::chrono::steady_clock::now();
  CmdResult r = Exec(TrackArgs(log, trickle.Endpoint().base_url + "/v1", 1.0));
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("backend     embedded (llm timeout)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("status      ok"), std::string::npos) << r.out;
  EXPECT_LT(s, 1.0 * 1.1 + baseline + 0.2) << "baseline run " << baseline << " s";  // deadline + 10 % + start-up

  FakeChatServer huge(FakeChatServer::Fault::kHugeStreamed, 64u << 20);
  CmdResult h = Exec(TrackArgs(log, huge.Endpoint("any").base_url, 5.0));
  ASSERT_EQ(h.code, 0) << h.err;
  EXPECT_NE(h.out.find("backend     embedded (llm too_large)"), std::string::npos) << h.out;
}

TEST_F(CliTest, TrackWithTheEmbeddedBackendPrintsNoBackendLine) {
  std::string log = Write("train.log", kUnsureLog);
  CmdResult r = Exec("track " + log);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("backend"), std::string::npos) << r.out;
}

}  // namespace
