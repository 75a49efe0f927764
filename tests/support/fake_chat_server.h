// A local HTTP server speaking the OpenAI chat and embeddings protocol, for
// tests of LLM backends: each test supplies how it answers (or misbehaves),
// or picks a transport fault: silent, an endless answer, or (TricklingServer)
// a response sent one byte at a time.
#ifndef SCHEDMATE_TESTS_SUPPORT_FAKE_CHAT_SERVER_H_
#define SCHEDMATE_TESTS_SUPPORT_FAKE_CHAT_SERVER_H_

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

  // Transport faults instead of an answer.
  enum class Fault {
    kSilent,        // reads the request, then says nothing until the server stops
    kHugeStreamed,  // streams `huge_bytes` chunked, no length declared
    kHugeDeclared,  // declares Content-Length: huge_bytes, then streams them
  };

  explicit FakeChatServer(Fault fault, size_t huge_bytes = 64u << 20)
      : FakeChatServer([this, fault, huge_bytes](const std::string&, const Json&, httplib::Response& res) {
          Fail(fault, huge_bytes, res);
        }) {}

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
    {
      std::lock_guard<std::mutex> lock(stop_mu_);
      stopping_ = true;
    }
    stop_cv_.notify_all();
    server_.stop();
    thread_.join();
  }
  LlmEndpoint Endpoint(const std::string& model) const {
    LlmEndpoint e;
    e.base_url = "http://127.0.0.1:" + std::to_string(port_);
    e.model = model;
    e.deadline_s = 3;
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
  void Fail(Fault fault, size_t huge_bytes, httplib::Response& res) {
    static const std::string kChunk(64u << 10, ' ');
    if (fault == Fault::kSilent) {
      std::unique_lock<std::mutex> lock(stop_mu_);
      stop_cv_.wait_for(lock, std::chrono::seconds(60), [this] { return stopping_.load(); });
    } else if (fault == Fault::kHugeStreamed) {
      res.set_chunked_content_provider("application/json", [this, huge_bytes](size_t offset, httplib::DataSink& sink) {
        if (offset >= huge_bytes || stopping_) {
          sink.done();
          return true;
        }
        return sink.write(kChunk.data(), std::min(kChunk.size(), huge_bytes - offset));
      });
    } else {
      res.set_content_provider(huge_bytes, "application/json",
                               [this](size_t, size_t length, httplib::DataSink& sink) {
                                 return !stopping_ && sink.write(kChunk.data(), std::min(kChunk.size(), length));
                               });
    }
  }

  Handler chat_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> requests_{0}, in_flight_{0}, max_in_flight_{0};
  mutable std::mutex mu_;
  Json last_body_;
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  std::atomic<bool> stopping_{false};  // set under stop_mu_, read by the fault handlers
};

// A raw TCP server that answers every connection with `response` one byte
// per `interval`, status line and headers included: no single read waits
// long, so only a wall-clock deadline ends the exchange.
class TricklingServer {
 public:
  TricklingServer(std::string response, std::chrono::milliseconds interval)
      : response_(std::move(response)), interval_(interval) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    // On failure port() stays 0 and every request is refused.
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || listen(listen_fd_, 16) != 0 ||
        getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      return;
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { Accept(); });
  }
  ~TricklingServer() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    if (acceptor_.joinable()) acceptor_.join();
    for (auto& t : connections_) t.join();
    close(listen_fd_);
  }
  LlmEndpoint Endpoint() const {
    LlmEndpoint e;
    e.base_url = "http://127.0.0.1:" + std::to_string(port_);
    e.model = "trickle";
    e.backoff_s = 0.01;
    return e;
  }
  int port() const { return port_; }
  int connections() const { return accepted_; }

 private:
  bool Stopping() {
    std::lock_guard<std::mutex> lock(mu_);
    return stopping_;
  }
  void Accept() {
    while (!Stopping()) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) continue;
      int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      ++accepted_;
      connections_.emplace_back([this, fd] { Trickle(fd); });
    }
  }
  void Trickle(int fd) {
    for (char c : response_) {
      std::unique_lock<std::mutex> lock(mu_);
      if (cv_.wait_for(lock, interval_, [this] { return stopping_; })) break;
      lock.unlock();
      if (send(fd, &c, 1, MSG_NOSIGNAL) != 1) break;
    }
    close(fd);
  }

  std::string response_;
  std::chrono::milliseconds interval_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<int> accepted_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread acceptor_;
  std::vector<std::thread> connections_;  // touched by the acceptor only, until it is joined
};

// An HTTP response carrying a chat completion whose content is `answer`.
inline std::string HttpChatResponse(const std::string& answer) {
  std::string body = ChatCompletion(answer).dump();
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body;
}

}  // namespace schedmate

#endif  // SCHEDMATE_TESTS_SUPPORT_FAKE_CHAT_SERVER_H_
