// The endpoints over HTTP on 127.0.0.1: advise, track, diagnose, history
// write and read through a real SQLite file, metrics, health, OpenAPI.
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>

#include "service_fixture.h"

namespace schedmate {
namespace {

TEST_F(ServiceTest, AdviseAnswersTheAdvisorsFactsThenEstimatesFromAWrittenRecord) {
  Start();
  auto first = Post("/v1/advise", AdviseBody());
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200) << first->body;
  nlohmann::json advice = Body(first);
  EXPECT_EQ(advice["metadata"]["model_name"], "meta-llama/Meta-Llama-3-8B");
  EXPECT_EQ(advice["metadata"]["dataset"], "tatsu-lab/alpaca");
  EXPECT_EQ(advice["metadata"]["hardware"]["num_gpus"], 8);
  EXPECT_EQ(advice["estimate"]["method"], "fallback");
  EXPECT_EQ(advice["backend"], "embedded");

  auto written = Post("/v1/history", HistoryBody("run-1"), kTestToken);
  ASSERT_TRUE(written);
  ASSERT_EQ(written->status, 201) << written->body;
  EXPECT_EQ(StoredRecords(), 1);

  auto second = Post("/v1/advise", AdviseBody());
  ASSERT_EQ(second->status, 200) << second->body;
  nlohmann::json estimate = Body(second)["estimate"];
  EXPECT_EQ(estimate["method"], "history") << estimate.dump();
  EXPECT_EQ(estimate["duration_s"], 3600.0);
  ASSERT_EQ(estimate["matches"].size(), 1u);
  EXPECT_EQ(estimate["matches"][0]["id"], "run-1");
}

// A record another writer (an agent, a replica) adds to the shared history
// estimates the next advice without a restart.
TEST_F(ServiceTest, ARecordAnotherWriterAddsEstimatesTheNextAdvice) {
  options_.history_refresh_ms = 0;
  Start();
  auto first = Post("/v1/advise", AdviseBody());
  ASSERT_TRUE(first);
  ASSERT_EQ(Body(first)["estimate"]["method"], "fallback");
  ServiceOptions other = options_;  // a second replica on the same history file
  auto replica = Service::Create(other);
  ASSERT_TRUE(replica.ok()) << replica.status().message();
  Reply written = (*replica)->WriteHistory(HistoryBody("run-elsewhere").dump());
  ASSERT_EQ(written.status, 201) << written.body;
  auto second = Post("/v1/advise", AdviseBody());
  ASSERT_TRUE(second);
  nlohmann::json estimate = Body(second)["estimate"];
  EXPECT_EQ(estimate["method"], "history") << estimate.dump();
  ASSERT_EQ(estimate["matches"].size(), 1u) << estimate.dump();
  EXPECT_EQ(estimate["matches"][0]["id"], "run-elsewhere");
}

// An agent's reports of the cluster's jobs (agent slurm --report-to) enter
// the dashboard's book beside the jobs the service answered; they need the
// token, and a bad event is a 400 naming it.
TEST_F(ServiceTest, AnAgentsJobEventsShowOnTheDashboard) {
  Start();
  nlohmann::json body = {
      {"source", "agent slurm@test"},
      {"events",
       {{{"job_id", "slurm-7"}, {"kind", "advice"}, {"command", "bash job.sh"},
         {"advice", {{"metadata", {{"model_name", "resnet50"}}}, {"estimate", {{"method", "history"}, {"duration_s", 7}}}}}},
        {{"job_id", "slurm-7"}, {"kind", "progress"}, {"progress", {{"status", "ok"}, {"step", 30}, {"eta_s", 1.5}}}},
        {{"job_id", "slurm-8"}, {"kind", "failure"},
         {"diagnosis", {{"error_type", "infrastructure"}, {"root_cause_line", "NVRM: Xid 48"}, {"root_cause_line_index", 2}}},
         {"located", {{{"index", 1}, {"text", "step 5"}}, {{"index", 2}, {"text", "NVRM: Xid 48"}}}}}}}};
  auto refused = Post("/v1/jobs/events", body);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 401);
  auto bad = PostText("/v1/jobs/events", R"({"events":[{"job_id":"x","kind":"launch"}]})", kTestToken);
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_NE(bad->body.find("events[0].kind"), std::string::npos) << bad->body;
  auto recorded = Post("/v1/jobs/events", body, kTestToken);
  ASSERT_TRUE(recorded);
  ASSERT_EQ(recorded->status, 202) << recorded->body;
  auto jobs = client_->Get("/v1/jobs");
  ASSERT_TRUE(jobs);
  nlohmann::json list = Body(jobs)["jobs"];
  ASSERT_EQ(list.size(), 2u) << list.dump();
  nlohmann::json j7 = list[0]["job_id"] == "slurm-7" ? list[0] : list[1];
  nlohmann::json j8 = list[0]["job_id"] == "slurm-8" ? list[0] : list[1];
  EXPECT_EQ(j7["advice"]["estimate"]["duration_s"], 7);
  EXPECT_EQ(j7["advice"]["cmd"], "bash job.sh");
  EXPECT_EQ(j7["progress"]["step"], 30);
  EXPECT_EQ(j8["failure"]["root_cause_line"], "NVRM: Xid 48");
  ASSERT_EQ(j8["failure"]["context"].size(), 2u);
  EXPECT_EQ(j8["failure"]["context"][1]["root"], true);
}

TEST_F(ServiceTest, RepeatedAdviseIsAnsweredFromTheCacheUntilARepositoryFileChanges) {
  Start();
  ASSERT_EQ(Post("/v1/advise", AdviseBody())->status, 200);
  ASSERT_EQ(Post("/v1/advise", AdviseBody())->status, 200);
  std::string metrics = client_->Get("/metrics")->body;
  EXPECT_NE(metrics.find("schedmate_advise_cache_total{result=\"hit\"} 1\n"), std::string::npos) << metrics;
  // An edit to a file the extraction read invalidates the entry.
  std::string script = (root_ / "repo" / "train.py").string();
  std::string text;
  {
    std::ifstream in(script);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  std::ofstream(script) << std::regex_replace(text, std::regex("tatsu-lab/alpaca"), "openwebtext");
  auto edited = Post("/v1/advise", AdviseBody());
  ASSERT_EQ(edited->status, 200);
  EXPECT_EQ(Body(edited)["metadata"]["dataset"], "openwebtext");
}

TEST_F(ServiceTest, TrackReadsALogByPathOrInline) {
  Start();
  std::string log;
  for (int i = 1; i <= 12; ++i)
    log += "iter " + std::to_string(i * 10) + ": loss " + std::to_string(2.0 - i * 0.01) + ", time 1000.00ms\n";
  std::string path = WriteFile("root/logs/job.log", log);
  auto by_path = Post("/v1/track", {{"log_path", path}});
  ASSERT_EQ(by_path->status, 200) << by_path->body;
  EXPECT_EQ(Body(by_path)["status"], "ok");
  EXPECT_EQ(Body(by_path)["step"], 120);
  EXPECT_EQ(Body(by_path)["log"], path);
  auto inline_log = Post("/v1/track", {{"log_text", log}});
  ASSERT_EQ(inline_log->status, 200) << inline_log->body;
  EXPECT_EQ(Body(inline_log)["step"], 120);
}

TEST_F(ServiceTest, DiagnoseReportsTheRootCauseAndOnlyAdvisesRecovery) {
  Start();
  std::string log;
  for (int i = 1; i <= 50; ++i) log += "step " + std::to_string(i) + " loss 1.23 lr 0.0001\n";
  log += "RuntimeError: CUDA error: uncorrectable ECC error encountered\n";
  log += "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: train.py FAILED\n";
  auto r = Post("/v1/diagnose", {{"log_text", log}, {"job", {{"job_id", "j1"}, {"node", "gpu-3"}}}});
  ASSERT_EQ(r->status, 200) << r->body;
  nlohmann::json d = Body(r);
  EXPECT_EQ(d["error_type"], "infrastructure") << d.dump();
  EXPECT_EQ(d["faulty_component"], "gpu");
  EXPECT_EQ(d["root_cause_line_index"], 50);
  EXPECT_EQ(d["recovery"]["executed"], false);
}

TEST_F(ServiceTest, HistoryWriteThenReadThroughTheStore) {
  Start();
  ASSERT_EQ(Post("/v1/history", HistoryBody("run-7"), kTestToken)->status, 201);
  auto one = client_->Get("/v1/history?job_id=run-7");
  ASSERT_EQ(one->status, 200) << one->body;
  EXPECT_EQ(Body(one)["record"]["job_id"], "run-7");
  EXPECT_EQ(Body(one)["record"]["num_gpus"], 8);  // from the extracted metadata
  auto newest = client_->Get("/v1/history?limit=5");
  ASSERT_EQ(newest->status, 200);
  EXPECT_EQ(Body(newest)["records"].size(), 1u);
  auto missing = client_->Get("/v1/history?job_id=nope");
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(ErrorCode(missing), "not_found");
  EXPECT_EQ(StoredRecords(), 1);
}

// Each sample line: name{labels} value — and the counts match what was asked.
TEST_F(ServiceTest, MetricsTextParsesAndCountsRequests) {
  Start();
  for (int i = 0; i < 3; ++i) ASSERT_EQ(Post("/v1/advise", AdviseBody())->status, 200);
  ASSERT_EQ(PostText("/v1/advise", "{nope")->status, 400);
  auto m = client_->Get("/metrics");
  ASSERT_EQ(m->status, 200);
  EXPECT_NE(m->get_header_value("Content-Type").find("text/plain"), std::string::npos);
  std::regex sample(R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? [-+0-9.eEInfa]+$)");
  std::istringstream lines(m->body);
  int samples = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) continue;
    EXPECT_TRUE(std::regex_match(line, sample)) << line;
    ++samples;
  }
  EXPECT_GT(samples, 20);
  const std::string& t = m->body;
  EXPECT_NE(t.find("schedmate_http_requests_total{endpoint=\"advise\",status=\"200\"} 3\n"), std::string::npos) << t;
  EXPECT_NE(t.find("schedmate_http_requests_total{endpoint=\"advise\",status=\"400\"} 1\n"), std::string::npos);
  EXPECT_NE(t.find("schedmate_http_request_duration_seconds_count{endpoint=\"advise\",status=\"200\"} 3\n"),
            std::string::npos);
  EXPECT_NE(t.find("schedmate_estimate_fallback_ratio 1\n"), std::string::npos);
  EXPECT_NE(t.find("schedmate_queue_depth{channel=\"submit\"} 0\n"), std::string::npos);
  EXPECT_NE(t.find("schedmate_store_errors_total 0\n"), std::string::npos);
}

TEST_F(ServiceTest, HealthReadinessAndTheOpenApiDocumentFromTheRepository) {
  Start();
  EXPECT_EQ(client_->Get("/healthz")->status, 200);
  auto ready = client_->Get("/readyz");
  EXPECT_EQ(ready->status, 200) << ready->body;
  std::ifstream in(std::string(SCHEDMATE_SOURCE_DIR) + "/api/openapi.yaml");
  std::stringstream file;
  file << in.rdbuf();
  auto doc = client_->Get("/openapi.yaml");
  ASSERT_EQ(doc->status, 200);
  EXPECT_EQ(doc->body, file.str());
  auto unknown = client_->Get("/v2/nothing");
  EXPECT_EQ(unknown->status, 404);
  EXPECT_EQ(ErrorCode(unknown), "not_found");
}

// Replies leave at once (TCP_NODELAY): with Nagle's algorithm a reply's body,
// written after its headers, waited ~40 ms for the client's delayed ACK —
// 25 requests/s per connection. One request per write on one connection, as
// wrk sends them.
TEST_F(ServiceTest, SequentialRequestsOnOneConnectionAreNotDelayed) {
  Start();
  int fd = ConnectRaw();
  ASSERT_GE(fd, 0);
  const std::string body = AdviseBody().dump();
  const std::string request = "POST /v1/advise HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                              "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i) ASSERT_EQ(ExchangeRaw(fd, request).rfind("HTTP/1.1 200", 0), 0u);
  close(fd);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.4);
}

TEST_F(ServiceTest, ReadyzIsUnavailableWhileTheStoreCannotOpen) {
  options_.history = (dir_ / "no-such-dir" / "history.db").string();
  Start();
  EXPECT_EQ(client_->Get("/healthz")->status, 200);
  auto ready = client_->Get("/readyz");
  EXPECT_EQ(ready->status, 503);
  EXPECT_EQ(ErrorCode(ready), "store_unavailable");
}

}  // namespace
}  // namespace schedmate
