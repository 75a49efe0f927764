// The dashboard over HTTP: the page and its script with their security
// policy, GET /v1/jobs after real advise/track/diagnose calls (matches
// joined with their records), GET /v1/audit from the guard ledger in the
// history file, and their refusals.
#include "history/sqlite_guard_ledger.h"
#include "service_fixture.h"

namespace schedmate {
namespace {

TEST_F(ServiceTest, ThePageAndItsScriptAreServedWithAStrictPolicy) {
  Start();
  for (const char* path : {"/", "/dashboard"}) {
    auto page = client_->Get(path);
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
    EXPECT_EQ(page->body, std::string(DashboardHtml()));
    EXPECT_NE(page->body.find("<script src=\"/dashboard.js\"></script>"), std::string::npos);
    std::string csp = page->get_header_value("Content-Security-Policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos) << csp;
    EXPECT_EQ(page->get_header_value("X-Content-Type-Options"), "nosniff");
  }
  auto script = client_->Get("/dashboard.js");
  ASSERT_EQ(script->status, 200);
  EXPECT_EQ(script->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  // Untrusted text enters the page only as text nodes.
  EXPECT_EQ(script->body.find("innerHTML"), std::string::npos);
  EXPECT_EQ(script->body.find("insertAdjacentHTML"), std::string::npos);
  EXPECT_EQ(script->body.find("document.write"), std::string::npos);
}

TEST_F(ServiceTest, JobsShowsEachJobsAdviceProgressAndFailureUnderItsId) {
  options_.token_for_reads = false;
  Start();
  ASSERT_EQ(Post("/v1/history", HistoryBody("run-1"), kTestToken)->status, 201);
  nlohmann::json advise = AdviseBody();
  advise["job_id"] = "sched-42";
  ASSERT_EQ(Post("/v1/advise", advise)->status, 200);
  std::string log;
  for (int i = 1; i <= 12; ++i)
    log += "iter " + std::to_string(i * 10) + ": loss " + std::to_string(2.0 - i * 0.01) + ", time 1000.00ms\n";
  std::string path = WriteFile("root/logs/job.log", log);
  ASSERT_EQ(Post("/v1/track", {{"log_path", path}, {"job_id", "sched-42"}})->status, 200);
  std::string failed = log + "RuntimeError: CUDA error: uncorrectable ECC error encountered\n";
  ASSERT_EQ(Post("/v1/diagnose", {{"log_text", failed}, {"job", {{"job_id", "sched-42"}}}})->status, 200);
  ASSERT_EQ(Post("/v1/track", {{"log_path", path}})->status, 200);  // no job_id: its own row

  auto r = client_->Get("/v1/jobs");
  ASSERT_EQ(r->status, 200) << r->body;
  nlohmann::json jobs = Body(r)["jobs"];
  ASSERT_EQ(jobs.size(), 2u) << jobs.dump();
  EXPECT_EQ(jobs[0]["id"], "anon-1");
  EXPECT_EQ(jobs[0]["progress"]["log"], path);
  nlohmann::json job = jobs[1];
  EXPECT_EQ(job["id"], "sched-42");
  EXPECT_EQ(job["advice"]["metadata"]["model_name"], "meta-llama/Meta-Llama-3-8B");
  EXPECT_TRUE(job["advice"]["metadata"]["provenance"].contains("fields"));
  nlohmann::json match = job["advice"]["estimate"]["matches"][0];
  EXPECT_EQ(match["id"], "run-1");
  EXPECT_EQ(match["record"]["duration_s"], 3600);
  EXPECT_EQ(match["record"]["end_reason"], "completed");
  EXPECT_EQ(match["record"]["model_name"], "meta-llama/Meta-Llama-3-8B");
  EXPECT_EQ(job["progress"]["step"], 120);
  EXPECT_EQ(job["failure"]["error_type"], "infrastructure");
  EXPECT_EQ(job["failure"]["root_cause_line"], "RuntimeError: CUDA error: uncorrectable ECC error encountered");
  nlohmann::json context = job["failure"]["context"];
  ASSERT_FALSE(context.empty());
  EXPECT_EQ(context.back()["root"], true);
  EXPECT_EQ(context.back()["index"], 12);
  EXPECT_EQ(Body(client_->Get("/v1/jobs?limit=1"))["jobs"].size(), 1u);
}

TEST_F(ServiceTest, AFailedAnswerEntersNoJob) {
  Start();
  nlohmann::json outside = {{"repo", (dir_ / "outside").string()}, {"cmd", "python train.py"}, {"job_id", "x"}};
  ASSERT_EQ(Post("/v1/advise", outside)->status, 403);
  ASSERT_EQ(Post("/v1/track", {{"log_path", (root_ / "missing.log").string()}, {"job_id", "y"}})->status, 404);
  EXPECT_TRUE(Body(client_->Get("/v1/jobs"))["jobs"].empty());
}

TEST_F(ServiceTest, AuditReadsTheLedgerInTheHistoryFileNewestLast) {
  Start();
  auto before = client_->Get("/v1/audit");
  ASSERT_EQ(before->status, 200) << before->body;
  EXPECT_TRUE(Body(before)["records"].empty());
  {
    auto ledger = OpenSqliteGuardLedger(options_.history);  // as the agent and `diagnose --audit` write it
    ASSERT_TRUE(ledger.ok()) << ledger.status().message();
    for (int i = 0; i < 3; ++i)
      ASSERT_TRUE((*ledger)
                      ->Audit({{"time_ms", 1000 + i},
                               {"job", "j1"},
                               {"step", "step-" + std::to_string(i)},
                               {"decision", "shadow"},
                               {"why", "planned, not executed"}})
                      .ok());
  }
  auto r = client_->Get("/v1/audit?limit=2");
  ASSERT_EQ(r->status, 200) << r->body;
  nlohmann::json body = Body(r);
  EXPECT_EQ(body["ledger"], "sqlite:" + options_.history);
  ASSERT_EQ(body["records"].size(), 2u);
  EXPECT_EQ(body["records"][0]["step"], "step-1");
  EXPECT_EQ(body["records"][1]["step"], "step-2");
}

TEST_F(ServiceTest, AuditOfALedgerFileThatDoesNotExistIsEmptyAndCreatesNothing) {
  options_.ledger = (dir_ / "no-ledger.db").string();
  Start();
  auto r = client_->Get("/v1/audit");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_TRUE(Body(r)["records"].empty());
  EXPECT_FALSE(std::filesystem::exists(options_.ledger));
}

TEST_F(ServiceTest, DashboardReadsRefuseBadQueriesAndFollowTokenForReads) {
  Start();
  for (const char* path : {"/v1/jobs?limit=0", "/v1/jobs?limit=x", "/v1/audit?limit=1001", "/v1/audit?since=1"}) {
    auto r = client_->Get(path);
    EXPECT_EQ(r->status, 400) << path;
    EXPECT_EQ(ErrorCode(r), "invalid_request") << path;
  }
  server_.reset();
  service_.reset();
  options_.token_for_reads = true;
  Start();
  EXPECT_EQ(client_->Get("/v1/jobs")->status, 401);
  EXPECT_EQ(client_->Get("/v1/audit")->status, 401);
  EXPECT_EQ(client_->Get("/")->status, 200);  // the page itself holds no data; it asks for the token
  httplib::Headers auth = {{"Authorization", std::string("Bearer ") + kTestToken}};
  EXPECT_EQ(client_->Get("/v1/jobs", auth)->status, 200);
}

TEST_F(ServiceTest, JobsCountInTheMetricsUnderTheirOwnEndpointNames) {
  Start();
  ASSERT_EQ(client_->Get("/v1/jobs")->status, 200);
  ASSERT_EQ(client_->Get("/v1/audit")->status, 200);
  ASSERT_EQ(client_->Get("/")->status, 200);
  std::string metrics = client_->Get("/metrics")->body;
  for (const char* ep : {"jobs", "audit", "dashboard"})
    EXPECT_NE(metrics.find("schedmate_http_requests_total{endpoint=\"" + std::string(ep) + "\",status=\"200\"} 1\n"),
              std::string::npos)
        << ep << "\n"
        << metrics;
}

}  // namespace
}  // namespace schedmate
