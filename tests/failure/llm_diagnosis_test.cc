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

// Answers `content` whatever the question.
FakeChatServer::Handler Says(std::string content) {
  return [content](const std::string&, const Json&, httplib::Response& res) {
    res.set_content(ChatCompletion(content).dump(), "application/json");
  };
}

std::string ChooseWith(const std::string& content, FailureDiagnosis* d = nullptr) {
  FakeChatServer server(Says(content));
  ChatClient client(server.Endpoint("any"));
  LineWindow w = Log();
  std::string by;
  FailureDiagnosis chosen = ChooseDiagnosis(w, DiagnoseWindow(w).diagnosis, {BackendKind::kLlm, &client}, &by);
  if (d) *d = chosen;
  return by;
}

// A verdict must cite shown lines: no root cause, no evidence for an
// infrastructure verdict, or a line given as a float is refused, and the
// embedded answer stands.
TEST(LlmDiagnosis, AVerdictWithoutShownLinesIsRefused) {
  struct Case {
    const char* answer;
    const char* by;
  } cases[] = {
      {R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":null,"evidence":[],"confidence":1.0})",
       "embedded (llm ungrounded)"},
      {R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":42,"evidence":[],"confidence":1.0})",
       "embedded (llm ungrounded)"},
      {R"({"error_type":"user_script","faulty_component":null,"root_cause_line":null,"evidence":[42],"confidence":1.0})",
       "embedded (llm ungrounded)"},
      {R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":42,"evidence":[42, 7],"confidence":1.0})",
       "embedded (llm ungrounded)"},
      {R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":1e8,"evidence":[42],"confidence":1.0})",
       "embedded (llm schema_violation)"},
      {R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":42.0,"evidence":[42],"confidence":1.0})",
       "embedded (llm schema_violation)"},
      {R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":42,"evidence":[4.2e1],"confidence":1.0})",
       "embedded (llm schema_violation)"},
  };
  for (const Case& c : cases) {
    FailureDiagnosis d;
    EXPECT_EQ(ChooseWith(c.answer, &d), c.by) << c.answer;
    EXPECT_EQ(d.root_cause_line_index, 42) << c.answer;
    EXPECT_NE(d.error_type, FailureDiagnosis::ErrorType::kInfrastructure) << c.answer;
  }
  // "unknown" may cite no line; an infrastructure verdict citing shown lines is used.
  EXPECT_EQ(ChooseWith(R"({"error_type":"unknown","faulty_component":null,"root_cause_line":null,"evidence":[],"confidence":0.3})"),
            "llm");
  EXPECT_EQ(ChooseWith(R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":42,"evidence":[41],"confidence":0.9})"),
            "llm");
}

// The model's confidence is capped by the embedded backend's agreement.
TEST(LlmDiagnosis, ConfidenceIsCappedByTheEmbeddedAgreement) {
  LineWindow w = Log();
  FailureDiagnosis embedded = DiagnoseWindow(w).diagnosis;
  ASSERT_NE(embedded.error_type, FailureDiagnosis::ErrorType::kInfrastructure);
  FailureDiagnosis d;
  ASSERT_EQ(ChooseWith(R"({"error_type":"infrastructure","faulty_component":"gpu","root_cause_line":42,"evidence":[42],"confidence":1.0})",
                       &d),
            "llm");
  EXPECT_DOUBLE_EQ(d.confidence, kDisagreedConfidenceCap);
  EXPECT_LT(d.confidence, 0.8);  // below the recovery guard: the model alone never isolates a node

  FailureDiagnosis agreeing = embedded;
  agreeing.confidence = 1.0;
  EXPECT_DOUBLE_EQ(CappedLlmConfidence(agreeing, embedded), kAgreedConfidenceCap);
  agreeing.confidence = 0.6;
  EXPECT_DOUBLE_EQ(CappedLlmConfidence(agreeing, embedded), 0.6);

  FailureDiagnosis gpu, network;
  gpu.error_type = network.error_type = FailureDiagnosis::ErrorType::kInfrastructure;
  gpu.faulty_component = "gpu";
  network.faulty_component = "network";
  gpu.confidence = 0.99;
  EXPECT_DOUBLE_EQ(CappedLlmConfidence(gpu, network), kDisagreedConfidenceCap);  // another component
  EXPECT_DOUBLE_EQ(CappedLlmConfidence(gpu, gpu), kAgreedConfidenceCap);
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
