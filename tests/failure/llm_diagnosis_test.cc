// The Failure Handler's LLM backend against a local OpenAI-compatible
// server: grounded answers are used, anything else falls back.
#include <gtest/gtest.h>

#include "failure/llm_diagnosis.h"
#include "support/fake_chat_server.h"

namespace schedmate {
namespace {

LineWindow Log() {
  return {{40, "iter 10: loss 2.5"},
          {41, "[rank3]: Traceback (most recent call last):"},
          {42, "RuntimeError: something odd happened in the allocator"},
          {43, "W0330 api.py:897] Sending process 155026 closing signal SIGTERM"}};
}

void Answer(const std::string& model, const Json&, httplib::Response& res) {
  std::string content =
      model == "liar"
          ? R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":7,"evidence":[],"confidence":0.9})"
      : model == "inconsistent"
          ? R"({"error_type":"user_script","faulty_component":"gpu","root_cause_line":42,"evidence":[],"confidence":0.9})"
          : R"({"error_type":"framework","faulty_component":null,"root_cause_line":42,"evidence":[41],"confidence":0.8})";
  res.set_content(ChatCompletion(content).dump(), "application/json");
}

TEST(LlmDiagnosis, GroundedAnswerUsedOtherwiseFallback) {
  FakeChatServer server(Answer);
  LineWindow w = Log();
  FailureDiagnosis embedded = DiagnoseWindow(w).diagnosis;
  ASSERT_EQ(embedded.root_cause_line_index, 42);
  std::string by;
  ChatClient honest(server.Endpoint("honest"));
  FailureDiagnosis d = ChooseDiagnosis(w, embedded, {BackendKind::kLlm, &honest}, &by);
  EXPECT_EQ(by, "llm");
  EXPECT_EQ(d.error_type, FailureDiagnosis::ErrorType::kFramework);
  EXPECT_EQ(d.root_cause_line, "RuntimeError: something odd happened in the allocator");
  std::string prompt = server.last_body()["messages"][1]["content"];
  EXPECT_NE(prompt.find("L42: RuntimeError"), std::string::npos);
  for (const char* model : {"liar", "inconsistent"}) {
    ChatClient bad(server.Endpoint(model));
    FailureDiagnosis f = ChooseDiagnosis(w, embedded, {BackendKind::kLlm, &bad}, &by);
    EXPECT_EQ(by, "embedded (llm ungrounded)") << model;
    EXPECT_EQ(f.root_cause_line_index, 42);
  }
}

TEST(LlmDiagnosis, CascadeAsksOnlyWhenUnsure) {
  FakeChatServer server(Answer);
  ChatClient client(server.Endpoint("honest"));
  std::string by;
  LineWindow sure = {{0, "RuntimeError: CUDA error: uncorrectable ECC error encountered"}};
  ChooseDiagnosis(sure, DiagnoseWindow(sure).diagnosis, {BackendKind::kCascade, &client, 0.75}, &by);
  EXPECT_EQ(by, "embedded");
  EXPECT_EQ(server.requests(), 0);
  LineWindow w = Log();  // a generic exception: confidence 0.4
  ChooseDiagnosis(w, DiagnoseWindow(w).diagnosis, {BackendKind::kCascade, &client, 0.75}, &by);
  EXPECT_EQ(by, "llm");
  EXPECT_EQ(server.requests(), 1);
}

}  // namespace
}  // namespace schedmate
