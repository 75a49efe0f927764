// The Tracker's LLM backend and cascade against a local OpenAI-compatible
// server: answers are used when grounded, and every failure falls back to
// the embedded parser.
#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>

#include <gtest/gtest.h>

#include "support/fake_chat_server.h"
#include "tracker/llm_progress.h"
#include "tracker/progress_scan.h"

namespace schedmate {
namespace {

std::vector<std::string> Log() {
  std::vector<std::string> lines = {"Loading dataset", "Requirement already satisfied: numpy"};
  for (int i = 1; i <= 20; ++i)
    lines.push_back("iter " + std::to_string(i) + ": loss " + std::to_string(3.0 - i * 0.05).substr(0, 4) +
                    ", time 812.50ms");
  return lines;
}

ProgressScan Scanned(const std::vector<std::string>& lines) {
  ProgressScan scan;
  for (size_t i = lines.size(); i-- > 0;)
    if (!scan.Add(lines[i], static_cast<int64_t>(i))) break;
  return scan;
}

void Answer(const std::string& model, const Json&, httplib::Response& res) {
  std::string content =
      model == "liar" ? R"({"status":"ok","step":99999,"total_steps":null,"step_time_s":0.8125,"throughput":null,"throughput_unit":null,"loss":2.0,"line":21})"
                      : R"({"status":"ok","step":20,"total_steps":null,"step_time_s":0.8125,"throughput":null,"throughput_unit":null,"loss":2.0,"line":21})";
  res.set_content(ChatCompletion(content).dump(), "application/json");
}

TEST(LlmBackend, GroundedAnswerIsUsed) {
  FakeChatServer server(Answer);
  ChatClient client(server.Endpoint("honest"));
  ProgressScan scan = Scanned(Log());
  ProgressReport r = ChooseProgress(scan, {TrackerBackend::kLlm, &client});
  EXPECT_EQ(r.backend, "llm");
  EXPECT_EQ(r.step, 20);
  EXPECT_NEAR(*r.step_time_s, 0.8125, 1e-12);
  EXPECT_EQ(r.lines_used, (std::vector<int64_t>{21}));
  std::string prompt = server.last_body()["messages"][1]["content"];
  EXPECT_NE(prompt.find("L21: iter 20"), std::string::npos);
}

TEST(LlmBackend, HallucinationAndOutageFallBackToEmbedded) {
  FakeChatServer server(Answer);
  ChatClient liar(server.Endpoint("liar"));
  ProgressScan scan = Scanned(Log());
  ProgressReport r = ChooseProgress(scan, {TrackerBackend::kLlm, &liar});
  EXPECT_EQ(r.backend, "embedded (llm ungrounded)");
  EXPECT_EQ(r.step, 20);
  LlmEndpoint down = server.Endpoint("honest");
  down.base_url = "http://127.0.0.1:1";
  down.max_retries = 0;
  ChatClient gone(down);
  ProgressReport d = ChooseProgress(scan, {TrackerBackend::kLlm, &gone});
  EXPECT_EQ(d.backend, "embedded (llm connection)");
  EXPECT_EQ(d.step, 20);
}

TEST(LlmBackend, CascadeAsksOnlyWhenUnsure) {
  FakeChatServer server(Answer);
  ChatClient client(server.Endpoint("honest"));
  ProgressScan sure = Scanned(Log());
  ProgressReport r = ChooseProgress(sure, {TrackerBackend::kCascade, &client, 0.75});
  EXPECT_EQ(r.backend, "embedded");
  EXPECT_EQ(server.requests(), 0);
  ProgressScan unsure = Scanned({"Part 0 | Epoch 00001 | Batch 100 | Loss: 1.3927"});
  EXPECT_LT(unsure.Finish().confidence, 0.75);
  ChooseProgress(unsure, {TrackerBackend::kCascade, &client, 0.75});
  EXPECT_EQ(server.requests(), 1);
}

// The process's peak resident set since ResetPeakRss, in MB (VmHWM; writing
// 5 to clear_refs resets it, Linux ≥ 4.0).
void ResetPeakRss() { std::ofstream("/proc/self/clear_refs") << "5"; }
double PeakRssMb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  double kb = 0;
  while (status >> key)
    if (key == "VmHWM:") status >> kb;
  return kb / 1024;
}

// A server that misbehaves in one way, and the reason the fallback names.
struct FaultCase {
  const char* name;
  std::function<std::unique_ptr<FakeChatServer>()> fake;  // null: the trickling server
  const char* backend;
};

// Each fault an LLM endpoint can throw at the Tracker falls back to the
// embedded report within the deadline (+10 %), in bounded memory, and the
// report names the reason.
TEST(LlmBackend, EachFaultFallsBackWithinTheDeadlineInBoundedMemory) {
  constexpr double kDeadline = 1.5;
  const std::vector<FaultCase> cases = {
      {"silent", [] { return std::make_unique<FakeChatServer>(FakeChatServer::Fault::kSilent); },
       "embedded (llm timeout)"},
      {"trickling 1 byte/s", nullptr, "embedded (llm timeout)"},
      {"huge, 128 MB streamed",
       [] { return std::make_unique<FakeChatServer>(FakeChatServer::Fault::kHugeStreamed, 128u << 20); },
       "embedded (llm too_large)"},
      {"huge, 128 MB declared",
       [] { return std::make_unique<FakeChatServer>(FakeChatServer::Fault::kHugeDeclared, 128u << 20); },
       "embedded (llm too_large)"},
      {"ungrounded", [] { return std::make_unique<FakeChatServer>(Answer); }, "embedded (llm ungrounded)"},
  };
  ProgressScan scan = Scanned(Log());
  for (const FaultCase& c : cases) {
    std::unique_ptr<FakeChatServer> fake = c.fake ? c.fake() : nullptr;
    TricklingServer trickle(HttpChatResponse("{}"), std::chrono::milliseconds(1000));
    LlmEndpoint e = fake ? fake->Endpoint("liar") : trickle.Endpoint();
    e.deadline_s = kDeadline;
    e.max_retries = 2;
    ChatClient client(e);
    ResetPeakRss();
    auto t0 = std::chrono::steady_clock::now();
    ProgressReport r = ChooseProgress(scan, {TrackerBackend::kCascade, &client, 1.01});
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double rss = PeakRssMb();
    std::printf("  %-22s %-28s %.3f s  peak RSS %.1f MB\n", c.name, r.backend.c_str(), s, rss);
    EXPECT_EQ(r.backend, c.backend) << c.name;
    EXPECT_EQ(r.step, 20) << c.name;  // the embedded report
    EXPECT_LE(s, kDeadline * 1.1) << c.name;
    EXPECT_LT(rss, 100) << c.name;
  }
}

}  // namespace
}  // namespace schedmate
