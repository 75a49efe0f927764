// What `agent slurm --report-to` sends the dashboard: one poll's agent events
// as the body of POST /v1/jobs/events.
#include <chrono>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "agent/event_report.h"

namespace schedmate {
namespace {

TEST(EventReport, AdvicesProgressAndFailuresWithTheirRecoveryBecomeDashboardEvents) {
  std::vector<Json> events = {
      {{"event", "advise"}, {"job", "4"}, {"launch", "bash job.sh"},
       {"metadata", {{"model_name", "resnet50"}}}, {"estimate", {{"method", "history"}, {"duration_s", 7.0}}}},
      {{"event", "progress"}, {"job", "4"}, {"log", "/logs/4.log"}, {"progress", {{"status", "ok"}, {"step", 12}}}},
      {{"event", "action"}, {"job", "4"}, {"step", "comment"}},  // not for the page
      {{"event", "ended"}, {"job", "6"}, {"state", "FAILED"},
       {"diagnosis", {{"error_type", "infrastructure"}, {"root_cause_line", "Xid 48"}, {"root_cause_line_index", 3},
                      {"located", Json::array({{{"index", 3}, {"text", "Xid 48"}}})}}}},
      {{"event", "recovery"}, {"job", "6"}, {"shadow", false}, {"plan", {{"steps", {"isolate_node", "requeue"}}}},
       {"executed", {"drain node3"}}},
      {{"event", "ended"}, {"job", "5"}, {"state", "COMPLETED"}},  // no diagnosis: nothing to show
  };
  Json body = JobEventsBody(events, "agent slurm@test");
  EXPECT_EQ(body["source"], "agent slurm@test");
  ASSERT_EQ(body["events"].size(), 3u) << body.dump(2);
  const Json& advice = body["events"][0];
  EXPECT_EQ(advice["job_id"], "slurm-4");
  EXPECT_EQ(advice["kind"], "advice");
  EXPECT_EQ(advice["command"], "bash job.sh");
  EXPECT_EQ(advice["advice"]["estimate"]["duration_s"], 7.0);
  EXPECT_EQ(body["events"][1]["kind"], "progress");
  EXPECT_EQ(body["events"][1]["progress"]["step"], 12);
  EXPECT_EQ(body["events"][1]["progress"]["log"], "/logs/4.log");
  const Json& failure = body["events"][2];
  EXPECT_EQ(failure["job_id"], "slurm-6");
  EXPECT_EQ(failure["located"][0]["text"], "Xid 48");
  EXPECT_FALSE(failure["diagnosis"].contains("located"));
  EXPECT_EQ(failure["diagnosis"]["recovery"]["executed"], true);
  EXPECT_EQ(failure["diagnosis"]["recovery"]["shadow"], false);
  EXPECT_TRUE(JobEventsBody({{{"event", "action"}, {"job", "1"}}}, "x")["events"].empty());
}

TEST(EventReport, AServiceThatDoesNotAnswerIsAnErrorWithinTheDeadline) {
  ReportOptions o;
  o.base_url = "http://127.0.0.1:9";  // discard port: nothing listens
  o.deadline_s = 0.5;
  EventReporter reporter(o);
  auto t0 = std::chrono::steady_clock::now();
  Status s = reporter.Report({{{"event", "advise"}, {"job", "1"}, {"launch", "x"}}}, "test");
  EXPECT_FALSE(s.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  EXPECT_TRUE(reporter.Report({}, "test").ok());  // nothing to send
}

}  // namespace
}  // namespace schedmate
