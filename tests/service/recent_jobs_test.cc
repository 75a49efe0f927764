// The dashboard's book of recent jobs: one row per job, bounded, every
// string cut, the located lines centred on the root cause.
#include "service/recent_jobs.h"

#include <gtest/gtest.h>

namespace schedmate {
namespace {

Json Advice(double duration_s) {
  return {{"metadata", {{"model_name", "resnet50"}}},
          {"estimate", {{"method", "history"}, {"duration_s", duration_s}, {"matches", Json::array()}}},
          {"latency_ms", 1.5},
          {"ignored", "not shown"}};
}

TEST(RecentJobs, AnswersForOneJobIdShareARowNewestFirst) {
  RecentJobs book;
  book.RecordAdvice({"j1", "advise:/r@ cmd"}, {{"repo", "/r"}, {"cmd", "cmd"}}, Advice(60), 1000);
  book.RecordAdvice({"j2", "advise:/r@ cmd2"}, {{"repo", "/r"}, {"cmd", "cmd2"}}, Advice(90), 2000);
  book.RecordProgress({"j1", "log:/l"}, {{"status", "ok"}, {"step", 30}, {"eta_s", 1.5}, {"scan", {}}}, 3000);
  auto jobs = book.Newest(10);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0]["id"], "j1");  // answered last
  EXPECT_EQ(jobs[0]["first_seen_ms"], 1000);
  EXPECT_EQ(jobs[0]["updated_ms"], 3000);
  EXPECT_EQ(jobs[0]["advice"]["estimate"]["duration_s"], 60.0);
  EXPECT_EQ(jobs[0]["advice"]["cmd"], "cmd");
  EXPECT_FALSE(jobs[0]["advice"].contains("ignored"));
  EXPECT_EQ(jobs[0]["progress"]["step"], 30);
  EXPECT_FALSE(jobs[0]["progress"].contains("scan"));
  EXPECT_TRUE(jobs[0]["failure"].is_null());
  EXPECT_EQ(jobs[1]["id"], "j2");
  EXPECT_TRUE(jobs[1]["progress"].is_null());
}

TEST(RecentJobs, WithoutAJobIdTheLogPathIsTheJobAndInlineLogsAreEachTheirOwn) {
  RecentJobs book;
  book.RecordProgress({"", "log:/logs/a.log"}, {{"step", 1}}, 1);
  book.RecordProgress({"", "log:/logs/a.log"}, {{"step", 2}}, 2);
  book.RecordProgress({"", ""}, {{"step", 3}}, 3);
  book.RecordProgress({"", ""}, {{"step", 4}}, 4);
  auto jobs = book.Newest(10);
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[2]["id"], "anon-1");
  EXPECT_EQ(jobs[2]["progress"]["step"], 2);
  EXPECT_TRUE(jobs[2]["job_id"].is_null());
  EXPECT_NE(jobs[0]["id"], jobs[1]["id"]);
}

TEST(RecentJobs, TheLeastRecentlyAnsweredJobGoesWhenFull) {
  RecentJobs book(3);
  for (int i = 0; i < 3; ++i) book.RecordProgress({"j" + std::to_string(i), ""}, {{"step", i}}, i);
  book.RecordProgress({"j0", ""}, {{"step", 10}}, 10);  // j0 is now the newest; j1 the oldest
  book.RecordProgress({"j3", ""}, {{"step", 3}}, 11);
  auto jobs = book.Newest(10);
  ASSERT_EQ(jobs.size(), 3u);
  std::vector<std::string> ids;
  for (const Json& j : jobs) ids.push_back(j["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"j3", "j0", "j2"}));
  EXPECT_EQ(book.Newest(1).size(), 1u);
}

TEST(RecentJobs, StringsAreCutOnACharacterBoundary) {
  std::string long_line(RecentJobs::kMaxStringBytes - 1, 'a');
  long_line += "\xC3\xA9\xC3\xA9";  // two 2-byte characters across the limit
  Json j = {{"line", long_line}, {"nested", {long_line, 5}}};
  TruncateStrings(&j, RecentJobs::kMaxStringBytes);
  std::string cut = j["line"];
  EXPECT_EQ(cut, std::string(RecentJobs::kMaxStringBytes - 1, 'a') + "\xE2\x80\xA6");
  EXPECT_EQ(j["nested"][0], cut);
  EXPECT_EQ(j["nested"][1], 5);
}

TEST(RecentJobs, TheLocatedLinesAreCentredOnTheRootCause) {
  LineWindow window;
  for (int64_t i = 100; i < 200; ++i) window.push_back({i, "line " + std::to_string(i)});
  Json lines = ContextAround(window, 150);
  ASSERT_EQ(lines.size(), RecentJobs::kContextLines);
  EXPECT_EQ(lines.front()["index"], 142);
  EXPECT_EQ(lines.back()["index"], 158);
  EXPECT_EQ(lines[8]["root"], true);
  EXPECT_EQ(lines[8]["text"], "line 150");
  EXPECT_EQ(lines[0]["root"], false);
  // A root cause at the window's start, and one the window does not hold.
  EXPECT_EQ(ContextAround(window, 100).front()["index"], 100);
  EXPECT_EQ(ContextAround(window, 7).size(), RecentJobs::kContextLines);
  EXPECT_TRUE(ContextAround({}, 0).empty());
}

TEST(RecentJobs, AFailureKeepsItsDiagnosisAndTheLinesAroundIt) {
  RecentJobs book;
  LineWindow window = {{0, "step 1"}, {1, "step 2"}, {2, "RuntimeError: ECC"}, {3, "cascade"}};
  Json diagnosis = {{"error_type", "infrastructure"},
                    {"root_cause_line", "RuntimeError: ECC"},
                    {"root_cause_line_index", 2},
                    {"recovery", {{"executed", false}}},
                    {"locate", {{"lines_are_offsets", false}}}};
  book.RecordFailure({"j9", ""}, diagnosis, window, 5);
  Json f = book.Newest(1)[0]["failure"];
  EXPECT_EQ(f["root_cause_line"], "RuntimeError: ECC");
  ASSERT_EQ(f["context"].size(), 4u);
  EXPECT_EQ(f["context"][2]["root"], true);
  EXPECT_EQ(f["context_are_offsets"], false);
  EXPECT_EQ(f["recovery"]["executed"], false);
}

}  // namespace
}  // namespace schedmate
