// A service on 127.0.0.1 (port 0) over a real SQLite history in a temporary
// directory, one allowed root holding a small generated repository, and an
// httplib client. Tests configure ServiceOptions before Start().
#ifndef SCHEDMATE_TESTS_SERVICE_SERVICE_FIXTURE_H_
#define SCHEDMATE_TESTS_SERVICE_SERVICE_FIXTURE_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "history/sqlite_store.h"
#include "service/http_server.h"
#include "service/service.h"

namespace schedmate {

inline constexpr const char* kTestToken = "test-token-0123456789abcdef";
inline constexpr const char* kTrainCmd = "torchrun --nproc_per_node 8 train.py --max_steps 5000 --batch_size 16";

// Blocks the workers of one channel until opened (the service's test hook).
class ChannelGate : public std::enable_shared_from_this<ChannelGate> {
 public:
  WorkChannel::BeforeTask Hook(const std::string& blocked) {
    return [self = shared_from_this(), blocked](const std::string& channel) { self->Pass(channel, blocked); };
  }
  void Pass(const std::string& channel, const std::string& blocked) {
    if (channel != blocked) return;
    std::unique_lock<std::mutex> lock(mu_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return open_; });
  }
  void WaitForBlocked(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(5), [&] { return waiting_ >= n; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int waiting_ = 0;
  bool open_ = false;
};

class ServiceTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(testing::TempDir()) /
           ("service_" + std::to_string(getpid()) + "_" +
            testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    root_ = dir_ / "root";
    std::filesystem::create_directories(root_ / "repo");
    std::filesystem::create_directories(dir_ / "outside");
    WriteFile("root/repo/train.py", R"(import argparse
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from datasets import load_dataset

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model_name_or_path", default="meta-llama/Meta-Llama-3-8B")
    p.add_argument("--batch_size", type=int, default=8)
    p.add_argument("--max_steps", type=int, default=1000)
    args = p.parse_args()
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    ds = load_dataset("tatsu-lab/alpaca")
    targs = TrainingArguments(output_dir="out", per_device_train_batch_size=args.batch_size,
                              max_steps=args.max_steps, bf16=True)
)");
    options_.history = (dir_ / "history.db").string();
    options_.allow_roots = {root_.string()};
    options_.token = kTestToken;
  }

  void TearDown() override {
    gate_->Open();  // a test that failed with a channel held must still end
    server_.reset();
    service_.reset();
    std::filesystem::remove_all(dir_);
  }

  void Start() {
    auto service = Service::Create(options_);
    ASSERT_TRUE(service.ok()) << service.status().message();
    service_ = std::move(*service);
    server_ = std::make_unique<HttpServer>(*service_, HttpOptions{});
    auto port = server_->Start();
    ASSERT_TRUE(port.ok()) << port.status().message();
    client_ = std::make_unique<httplib::Client>("127.0.0.1", *port);
    client_->set_read_timeout(10, 0);
  }

  std::string WriteFile(const std::string& rel, const std::string& text) {
    std::filesystem::path p = dir_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }

  httplib::Result Post(const std::string& path, const nlohmann::json& body, const std::string& token = "") {
    return PostText(path, body.dump(), token);
  }
  httplib::Result PostText(const std::string& path, const std::string& body, const std::string& token = "") {
    httplib::Headers headers;
    if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
    return client_->Post(path.c_str(), headers, body, "application/json");
  }
  nlohmann::json Body(const httplib::Result& r) { return nlohmann::json::parse(r->body, nullptr, false); }
  std::string ErrorCode(const httplib::Result& r) {
    nlohmann::json j = Body(r);
    return j.contains("error") ? j["error"].value("code", "") : "";
  }

  nlohmann::json AdviseBody() const { return {{"repo", (root_ / "repo").string()}, {"cmd", kTrainCmd}}; }
  // A finished run of the test repository's job, to write through the service.
  nlohmann::json HistoryBody(const std::string& job_id) const {
    return {{"record", {{"schema_version", 1}, {"job_id", job_id}, {"completed_at_s", 1000},
                        {"duration_s", 3600}, {"end_reason", "completed"}}},
            {"repo", (root_ / "repo").string()},
            {"cmd", kTrainCmd}};
  }

  // Records in the SQLite file, read directly (not through the service).
  int64_t StoredRecords() {
    if (!std::filesystem::exists(options_.history)) return 0;
    auto store = OpenSqliteHistory(options_.history);
    EXPECT_TRUE(store.ok());
    auto n = (*store)->Count();
    return n.ok() ? *n : -1;
  }

  // POST from a client of its own (an httplib client serves one request at a time).
  int OtherClientPost(const std::string& path, const nlohmann::json& body) {
    httplib::Client c("127.0.0.1", server_->port());
    c.set_read_timeout(10, 0);
    auto r = c.Post(path.c_str(), body.dump(), "application/json");
    return r ? r->status : -1;
  }

  // A plain TCP connection to the server (-1 on failure).
  int ConnectRaw() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(server_->port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval tv{5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return fd;
    close(fd);
    return -1;
  }

  // Sends `request` in one write and returns the answer (headers and a
  // Content-Length body; the connection stays open).
  static std::string ExchangeRaw(int fd, const std::string& request) {
    std::string answer;
    if (send(fd, request.data(), request.size(), 0) != static_cast<ssize_t>(request.size())) return answer;
    char buf[4096];
    for (ssize_t n; !WholeAnswer(answer) && (n = recv(fd, buf, sizeof buf, 0)) > 0;) answer.append(buf, n);
    return answer;
  }

  std::string RawRequest(const std::string& request) {
    int fd = ConnectRaw();
    std::string answer = fd >= 0 ? ExchangeRaw(fd, request) : "";
    if (fd >= 0) close(fd);
    return answer;
  }

  static bool WholeAnswer(const std::string& answer) {
    size_t end = answer.find("\r\n\r\n");
    size_t length = answer.find("Content-Length: ");
    if (end == std::string::npos || length == std::string::npos) return false;
    return answer.size() >= end + 4 + std::stoul(answer.substr(length + 16));
  }

  std::shared_ptr<ChannelGate> gate_ = std::make_shared<ChannelGate>();
  std::filesystem::path dir_, root_;
  ServiceOptions options_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<HttpServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_TESTS_SERVICE_SERVICE_FIXTURE_H_
