// The backfill report (experiments/backfill_experiment): config errors name
// the file and the field (its own and the Lucid / standalone sections'
// backfill keys); a small synthetic workload runs every policy under every
// setting on the same jobs, and strict never backfills.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "experiments/backfill_experiment.h"

namespace schedmate {
namespace {

Status ConfigError(const char* text) {
  auto j = ParseJson(text, "test");
  EXPECT_TRUE(j.ok());
  auto c = BackfillConfigFromJson(*j, "cfg.json");
  return c.ok() ? Status::Ok() : c.status();
}

void ExpectNamed(const Status& s, const std::string& field) {
  ASSERT_FALSE(s.ok()) << field;
  EXPECT_NE(s.message().find("cfg.json"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find(field), std::string::npos) << s.ToString();
}

TEST(BackfillExperiment, ConfigErrorsNameTheField) {
  ExpectNamed(ConfigError(R"({"lucid": {"lucid": {"backfill": "eager"}}})"), "backfill");
  ExpectNamed(ConfigError(R"({"lucid": {"lucid": {"backfill_estimate": "exact"}}})"), "backfill_estimate");
  ExpectNamed(ConfigError(R"({"standalone": {"policies": {"backfill": 3}}})"), "backfill");
  ExpectNamed(ConfigError(R"({"standalone": {"policies": {"runs": ["las"]}}})"), "runs");
  ExpectNamed(ConfigError(R"({"lucid": {}, "disciplines": ["eager"]})"), "disciplines");
  ExpectNamed(ConfigError(R"({"lucid": {}, "estimates": []})"), "estimates");
  ExpectNamed(ConfigError(R"({"lucid": {}, "standalone": {"cluster": {"nodes": 2}}})"), "cluster");
  ExpectNamed(ConfigError(R"({"name": "x"})"), "lucid");
  ExpectNamed(ConfigError(R"({"lucid": {}, "overdue": "later"})"), "overdue");
  ExpectNamed(ConfigError(R"({"lucid": {"lucid": {"backfill_overdue": "never"}}})"), "backfill_overdue");
  ExpectNamed(ConfigError(R"({"standalone": {"policies": {"backfill_overdue": 1}}})"), "backfill_overdue");
  auto j = ParseJson(R"({"lucid": {"lucid": {"backfill": "easy", "backfill_estimate": "user-limit"}, "seed": 5},
                         "standalone": {"policies": {"backfill": "conservative", "runs": ["fifo"]}},
                         "disciplines": ["strict", "easy"], "estimates": ["advisor", "advisor-spread"],
                         "overdue": "age"})",
                     "t");
  auto c = BackfillConfigFromJson(*j, "cfg.json");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->lucid->lucid.backfill.mode, BackfillMode::kEasy);
  EXPECT_EQ(c->lucid->lucid.backfill.estimate, BackfillEstimate::kUserLimit);
  EXPECT_EQ(c->lucid->lucid.backfill.seed, 5u);
  EXPECT_EQ(c->queue->backfill.mode, BackfillMode::kConservative);
  EXPECT_EQ(c->queue->runs, std::vector<std::string>{"fifo"});
  EXPECT_EQ(c->disciplines.size(), 2u);
  EXPECT_EQ(c->estimates, (std::vector<BackfillEstimate>{BackfillEstimate::kAdvisor, BackfillEstimate::kAdvisorSpread}));
  EXPECT_EQ(c->overdue, OverdueRule::kAge);
}

TEST(BackfillExperiment, EveryPolicyRunsUnderEverySettingOnTheSameJobs) {
  auto j = ParseJson(R"({"lucid": {"trace": {"synth": "philly", "jobs": 150}, "cluster": {"nodes": 2}, "seed": 2},
                         "standalone": {"failures": {"enabled": false}, "policies": {"runs": ["fifo", "sjf", "standalone"]}},
                         "disciplines": ["strict", "easy"], "estimates": ["oracle", "user-limit"]})",
                     "t");
  auto c = BackfillConfigFromJson(*j, "cfg.json");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto r = RunBackfillExperiment(*c);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // strict, easy/oracle, easy/user-limit x lucid, lucid+schedmate, fifo, sjf-oracle, standalone.
  ASSERT_EQ(r->rows.size(), 15u);
  std::set<std::string> policies;
  int64_t backfilled = 0;
  for (const BackfillRow& row : r->rows) {
    policies.insert(row.policy);
    EXPECT_EQ(row.summary.jobs, 150) << row.policy;
    if (row.mode == BackfillMode::kStrict) EXPECT_EQ(row.backfilled, 0) << row.policy;
    else backfilled += row.backfilled;
  }
  EXPECT_EQ(policies, (std::set<std::string>{"lucid", "lucid+schedmate", "fifo", "sjf-oracle", "standalone"}));
  EXPECT_GT(backfilled, 0);
  EXPECT_NE(FormatBackfillTable(*r).find("user-limit"), std::string::npos);
}

}  // namespace
}  // namespace schedmate
