// A local HTTP server speaking the OpenAI chat and embeddings protocol, for
// tests of LLM backends: each test supplies how it answers (or misbehaves).
#ifndef SCHEDMATE_TESTS_SUPPORT_FAKE_CHAT_SERVER_H_
#define SCHEDMATE_TESTS_SUPPORT_FAKE_CHAT_SERVER_H_

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "llm/chat_client.h"

namespace schedmate {

inline Json ChatCompletion(const std::string& content) {
  return {{"id", "x"}, {"object", "chat.completion"},
          {"choices", Json::array({{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}},
                                    {"finish_reason", "stop"}}})}};
}

class FakeChatServer {
 public:
  // Answers a chat request: (model, request body, response).
  using Handler = std::function<void(const std::string&, const Json&, httplib::Response&)>;

  explicit FakeChatServer(Handler chat) : chat_(std::move(chat)) {
    server_.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
      int now = ++in_flight_;
      int seen = max_in_flight_.load();
      while (now > seen && !max_in_flight_.compare_exchange_weak(seen, now)) {}
      ++requests_;
      Json body = Json::parse(req.body, nullptr, false);
      {
        std::lock_guard<std::mutex> lock(mu_);
        last_body_ = body;
      }
      chat_(body.is_object() ? body.value("model", "") : "", body, res);
      --in_flight_;
    });
    server_.Post("/v1/embeddings", [](const httplib::Request& req, httplib::Response& res) {
      Json body = Json::parse(req.body);
      Json data = Json::array();
      int n = body["model"] == "short" ? 1 : static_cast<int>(body["input"].size());
      for (int i = 0; i < n; ++i) data.push_back({{"index", i}, {"embedding", {3.0, 4.0, 0.0}}});
      res.set_content(Json({{"data", data}}).dump(), "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeChatServer() {
    server_.stop();
    thread_.join();
  }
  LlmEndpoint Endpoint(const std::string& model) const {
    LlmEndpoint e;
    e.base_url = "http://127.0.0.1:" + std::to_string(port_);
    e.model = model;
    e.read_timeout_s = 3;
    e.backoff_s = 0.01;
    return e;
  }
  int requests() const { return requests_; }
  int max_in_flight() const { return max_in_flight_; }
  Json last_body() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_body_;
  }

 private:
  Handler chat_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> requests_{0}, in_flight_{0}, max_in_flight_{0};
  mutable std::mutex mu_;
  Json last_body_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_TESTS_SUPPORT_FAKE_CHAT_SERVER_H_
