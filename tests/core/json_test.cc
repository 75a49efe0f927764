#include "core/json.h"

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/facts_json.h"

namespace schedmate {
namespace {

TEST(JsonTest, ParseErrorsNameTheSourceAndNeverThrow) {
  auto r = ParseJson("{\"a\": ", "cfg.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cfg.json"), std::string::npos);
  EXPECT_FALSE(ParseJson("\xff\xfe", "bin").ok());
}

TEST(JsonTest, FieldAccessorsReportMissingAndMistypedFields) {
  Json j = *ParseJson(R"({"n": 3, "x": 2.5, "s": "hi", "f": 4.0, "z": null})", "t");
  EXPECT_EQ(*GetInt(j, "n", "t"), 3);
  EXPECT_EQ(*GetInt(j, "f", "t"), 4);
  EXPECT_FALSE(GetInt(j, "x", "t").ok());
  EXPECT_EQ(*GetString(j, "s", "t"), "hi");
  auto missing = GetString(j, "nope", "cfg");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "cfg: field 'nope' is missing");
  EXPECT_FALSE(GetOptInt(j, "z", "t")->has_value());
  EXPECT_FALSE(GetOptInt(j, "s", "t").ok());
}

TEST(FactsJsonTest, MissingFactsAreNullAndNanIsAString) {
  ProgressReport p;
  p.status = ProgressReport::Status::kOk;
  p.step = 10;
  p.loss = std::nan("");
  Json j = ToJson(p);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["step"], 10);
  EXPECT_EQ(j["loss"], "nan");
  EXPECT_TRUE(j["throughput"].is_null());
  FailureDiagnosis d;
  EXPECT_EQ(ToJson(d)["error_type"], "unknown");
  EXPECT_TRUE(ToJson(d)["faulty_component"].is_null());
  DurationEstimate e;
  EXPECT_EQ(ToJson(e)["method"], "fallback");
  WorkloadMetadata m;
  m.hardware.num_gpus = 8;
  EXPECT_EQ(ToJson(m)["hardware"]["num_gpus"], 8);
  EXPECT_TRUE(ToJson(m)["model_name"].is_null());
}

}  // namespace
}  // namespace schedmate

namespace schedmate {
namespace {

// Found by fuzz_experiment_json: 1e29 was cast to int64 (undefined).
TEST(JsonTest, CorpusOriginReadsSourceAndSplit) {
  auto a = GetCorpusOrigin(Json{{"url", "https://x/1"}, {"source", "x#1"}, {"split", "val"}}, "f:1");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->source, "https://x/1");
  EXPECT_EQ(a->split, "val");
  auto b = GetCorpusOrigin(Json{{"source", "x#1"}, {"split", nullptr}}, "f:2");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->source, "x#1");
  EXPECT_EQ(b->split, "");
  auto c = GetCorpusOrigin(Json{{"split", "test"}}, "f:3");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("f:3: field 'split'"), std::string::npos);
}

TEST(JsonTest, HugeNumbersAreNotIntegers) {
  Json j = *ParseJson(R"({"a": 1e29, "b": 18446744073709551615, "c": 7, "d": -3})", "t");
  EXPECT_FALSE(GetInt(j, "a", "t").ok());
  EXPECT_FALSE(GetInt(j, "b", "t").ok());
  EXPECT_EQ(*GetIntInRange(j, "c", "t", 1, 10), 7);
  auto r = GetIntInRange(j, "d", "cfg", 1, 10);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "cfg: field 'd' must be in 1..10, got -3");
}

}  // namespace
}  // namespace schedmate
