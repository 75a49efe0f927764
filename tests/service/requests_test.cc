// The request parsers and the token bucket, without HTTP.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "service/requests.h"
#include "service/token_bucket.h"

namespace schedmate {
namespace {

TEST(ServiceRequests, AdviseNamesTheFieldAtFault) {
  std::string field;
  EXPECT_FALSE(ParseAdviseRequest(Json{{"cmd", "python t.py"}}, &field).ok());
  EXPECT_EQ(field, "repo");
  auto typo = ParseAdviseRequest(Json{{"repo", "/r"}, {"cmd", "x"}, {"min_scor", 0.5}}, &field);
  EXPECT_FALSE(typo.ok());
  EXPECT_EQ(field, "min_scor");
  EXPECT_NE(typo.status().message().find("did you mean 'min_score'"), std::string::npos);
  EXPECT_FALSE(ParseAdviseRequest(Json{{"repo", "/r"}, {"cmd", "x"}, {"min_score", 1.5}}, &field).ok());
  EXPECT_EQ(field, "min_score");
  EXPECT_FALSE(ParseAdviseRequest(Json{{"repo", std::string("/r\0x", 4)}, {"cmd", "x"}}, &field).ok());
  EXPECT_EQ(field, "repo");
  auto ok = ParseAdviseRequest(Json{{"repo", "/r"}, {"cmd", "x"}, {"k", 5}, {"as_of", 100}}, &field);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->k, 5);
  EXPECT_EQ(ok->as_of_s, 100);
}

TEST(ServiceRequests, ALogIsExactlyOneOfPathAndText) {
  std::string field;
  EXPECT_FALSE(ParseTrackRequest(Json::object(), &field).ok());
  EXPECT_FALSE(ParseTrackRequest(Json{{"log_path", "/a"}, {"log_text", "x"}}, &field).ok());
  EXPECT_TRUE(ParseTrackRequest(Json{{"log_text", "x"}}, &field).ok());
  auto d = ParseDiagnoseRequest(Json{{"log_path", "/a"}, {"job", {{"node", 3}}}}, &field);
  EXPECT_FALSE(d.ok());
  EXPECT_EQ(field, "job.node");
}

TEST(ServiceRequests, HistoryWriteNeedsARepositoryOrAFullFingerprint) {
  std::string field;
  Json record = {{"schema_version", 1}, {"job_id", "j"}, {"completed_at_s", 1}, {"duration_s", 5}};
  EXPECT_FALSE(ParseHistoryWriteRequest(Json{{"record", record}}, &field).ok());
  Json short_fp = record;
  short_fp["fingerprint"] = std::vector<float>(3, 0.5f);
  short_fp["metadata"] = {{"model_name", "gpt2"}};
  EXPECT_FALSE(ParseHistoryWriteRequest(Json{{"record", short_fp}}, &field).ok());
  EXPECT_EQ(field, "record.fingerprint");
  Json full = record;
  full["fingerprint"] = std::vector<float>(256, 0.5f);
  full["metadata"] = {{"model_name", "gpt2"}};
  auto ok = ParseHistoryWriteRequest(Json{{"record", full}}, &field);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_FALSE(ok->needs_extraction());
  EXPECT_TRUE(ParseHistoryWriteRequest(Json{{"record", record}, {"repo", "/r"}, {"cmd", "python t.py"}}, &field).ok());
}

TEST(ServiceRequests, BodyMustBeAJsonObject) {
  EXPECT_FALSE(ParseRequestBody("[1,2]").ok());
  EXPECT_FALSE(ParseRequestBody("{").ok());
  EXPECT_TRUE(ParseRequestBody("{}").ok());
}

TEST(TokenBucket, RefillsAtItsRateUpToTheBurst) {
  ManualClock clock;
  TokenBucket bucket(10, 2, clock);
  EXPECT_TRUE(bucket.TryTake());
  EXPECT_TRUE(bucket.TryTake());
  EXPECT_FALSE(bucket.TryTake());
  EXPECT_EQ(bucket.RetryAfterS(), 1);
  clock.AdvanceMs(100);  // one token
  EXPECT_TRUE(bucket.TryTake());
  EXPECT_FALSE(bucket.TryTake());
  clock.AdvanceMs(10000);  // capped at the burst
  EXPECT_TRUE(bucket.TryTake());
  EXPECT_TRUE(bucket.TryTake());
  EXPECT_FALSE(bucket.TryTake());
}

}  // namespace
}  // namespace schedmate
