// The LLM extractor against a local OpenAI-compatible server playing an
// agent: it reads through the two tools, grounded answers are used,
// hallucinations and escapes are refused, the cascade fills gaps only.
#include <gtest/gtest.h>

#include "advisor/llm_extractor.h"
#include "support/fake_chat_server.h"

namespace schedmate {
namespace {

std::map<std::string, std::string> Files() {
  return {{"train.py", "import argparse\n# uses a model from a config the parser cannot follow\n"
                       "cfg = load(os.environ['CFG'])\nmodel = build(cfg)\n"},
          {"cfg/prod.txt", "model=gpt2-xl dataset=openwebtext steps=40000 micro_batch=12 gpus=8\n"}};
}

// An agent: reads cfg/prod.txt, then answers (honestly, or not).
void Agent(const std::string& model, const Json& body, httplib::Response& res) {
  std::string user = body["messages"][1]["content"];
  std::string action;
  if (model == "escape" ) {
    action = R"({"action":"file_read","path":"../../etc/shadow"})";
  } else if (user.find("[file_read cfg/prod.txt]") == std::string::npos) {
    action = R"({"action":"file_read","path":"cfg/prod.txt"})";
  } else if (model == "liar") {
    action = R"({"action":"final","metadata":{"model_name":"llama-70b","dataset":"openwebtext","training_iterations":40000,"batch_size":12,"num_gpus":8}})";
  } else {
    action = R"({"action":"final","metadata":{"model_name":"gpt2-xl","model_type":"llm-pretrain","dataset":"openwebtext","training_iterations":40000,"iteration_type":"step","batch_size":12,"num_gpus":8}})";
  }
  res.set_content(ChatCompletion(action).dump(), "application/json");
}

TEST(LlmExtractor, ReadsThroughToolsAndAnswersGrounded) {
  FakeChatServer server(Agent);
  ChatClient client(server.Endpoint("honest"));
  auto snap = MemorySnapshot(Files());
  LlmExtractResult r = LlmExtractMetadata(client, *snap, "python train.py");
  ASSERT_TRUE(r.metadata.has_value()) << r.error->message;
  EXPECT_EQ(r.metadata->model_name, "gpt2-xl");
  EXPECT_EQ(r.metadata->training_iterations, 40000);
  EXPECT_EQ(r.metadata->files_read, (std::vector<std::string>{"cfg/prod.txt"}));
  EXPECT_EQ(r.steps, 2);
}

TEST(LlmExtractor, HallucinationAndEscapesAreRefused) {
  FakeChatServer server(Agent);
  auto snap = MemorySnapshot(Files());
  ChatClient liar(server.Endpoint("liar"));
  LlmExtractResult lie = LlmExtractMetadata(liar, *snap, "python train.py");
  ASSERT_FALSE(lie.metadata.has_value());
  EXPECT_EQ(lie.error->kind, LlmErrorKind::kUngrounded);
  ChatClient escape(server.Endpoint("escape"));
  LlmExtractOptions o;
  o.max_steps = 3;
  LlmExtractResult esc = LlmExtractMetadata(escape, *snap, "python train.py", o);
  EXPECT_FALSE(esc.metadata.has_value());  // refused reads, then the budget ends
  EXPECT_EQ(esc.steps, 3);
  std::string prompt = server.last_body()["messages"][1]["content"];
  EXPECT_NE(prompt.find("refused"), std::string::npos);
}

TEST(LlmExtractor, CascadeFillsOnlyWhatTheParserMissed) {
  FakeChatServer server(Agent);
  ChatClient client(server.Endpoint("honest"));
  auto snap = MemorySnapshot(Files());
  std::string by;
  auto md = ExtractWithBackend(*snap, "torchrun --nproc_per_node 4 train.py", BackendKind::kCascade, &client, 0.9, &by);
  ASSERT_TRUE(md.ok());
  EXPECT_EQ(by, "cascade");
  EXPECT_EQ(md->hardware.num_gpus, 4);  // the parser's (from the command) is kept
  EXPECT_EQ(md->model_name, "gpt2-xl");   // the LLM's fills the gap
  LlmEndpoint down = server.Endpoint("honest");
  down.base_url = "http://127.0.0.1:1";
  down.max_retries = 0;
  ChatClient gone(down);
  auto fallback = ExtractWithBackend(*snap, "python train.py", BackendKind::kLlm, &gone, 0.9, &by);
  ASSERT_TRUE(fallback.ok());
  EXPECT_EQ(by, "embedded (llm connection)");
}

}  // namespace
}  // namespace schedmate
