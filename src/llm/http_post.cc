#include "llm/http_post.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

// Splits "http://host:port/prefix" into the origin and the path prefix.
void SplitUrl(const std::string& url, std::string* origin, std::string* prefix) {
  size_t scheme = url.find("://");
  size_t path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  *origin = path == std::string::npos ? url : url.substr(0, path);
  *prefix = path == std::string::npos ? "" : url.substr(path);
  while (!prefix->empty() && prefix->back() == '/') prefix->pop_back();
  if (prefix->size() < 3 || prefix->compare(prefix->size() - 3, 3, "/v1") != 0) *prefix += "/v1";
}

void SplitSeconds(double seconds, time_t* sec, time_t* usec) {
  *sec = static_cast<time_t>(seconds);
  *usec = static_cast<time_t>((seconds - static_cast<double>(*sec)) * 1e6);
}

double SecondsUntil(LlmClock::time_point t) { return std::chrono::duration<double>(t - LlmClock::now()).count(); }

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

LlmError Error(LlmErrorKind k, std::string m, int status = 0) { return {k, status, std::move(m)}; }

bool Retryable(const LlmError& e) {
  return e.kind == LlmErrorKind::kConnection || e.kind == LlmErrorKind::kTimeout ||
         (e.kind == LlmErrorKind::kHttp && (e.http_status == 429 || e.http_status >= 500));
}

// Stops `client` if `deadline` passes before the watchdog is destroyed.
// Client::stop() is the one httplib call allowed from another thread while
// a request runs: it shuts the socket down, so the blocked read or write
// fails at once. REQUIRES: `client` outlives the watchdog.
class DeadlineWatchdog {
 public:
  DeadlineWatchdog(httplib::Client* client, LlmClock::time_point deadline)
      : thread_([this, client, deadline] { Watch(client, deadline); }) {}
  ~DeadlineWatchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  bool fired() const { return fired_; }

 private:
  void Watch(httplib::Client* client, LlmClock::time_point deadline) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (cv_.wait_until(lock, deadline, [this] { return done_; })) return;
      fired_ = true;
    }
    client->stop();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_;  // last, so it starts after the members it uses
};

// The answer body, received piece by piece and refused, which ends the
// reading, as soon as its declared or received length passes the limit.
class CappedBody {
 public:
  explicit CappedBody(size_t limit) : limit_(limit) {}
  bool AcceptHeaders(const httplib::Response& res) {
    if (res.has_header("Content-Length") &&
        std::strtoull(res.get_header_value("Content-Length").c_str(), nullptr, 10) > limit_)
      overflow_ = true;
    return !overflow_;
  }
  bool Append(const char* data, size_t n) {
    if (n > limit_ - text_.size())
      overflow_ = true;
    else
      text_.append(data, n);
    return !overflow_;
  }
  bool overflow() const { return overflow_; }
  const std::string& text() const { return text_; }

 private:
  size_t limit_;
  bool overflow_ = false;
  std::string text_;
};

httplib::Request PostRequest(const std::string& path, const std::string& api_key, const std::string& body,
                             CappedBody* answer) {
  httplib::Request req;
  req.method = "POST";
  req.path = path;
  req.body = body;
  req.headers.emplace("Content-Type", "application/json");
  if (!api_key.empty()) req.headers.emplace("Authorization", "Bearer " + api_key);
  req.response_handler = [answer](const httplib::Response& res) { return answer->AcceptHeaders(res); };
  req.content_receiver = [answer](const char* data, size_t n, uint64_t, uint64_t) { return answer->Append(data, n); };
  return req;
}

// Why a request produced no response. A refused connection within the
// connect timeout is a connection error; one that used it up is a timeout.
LlmError TransportError(const LlmEndpoint& endpoint, httplib::Error e, bool deadline_passed, bool overflow,
                        double elapsed_s, double budget_s, double connect_s) {
  if (overflow)
    return Error(LlmErrorKind::kTooLarge, endpoint.base_url + ": answer larger than " +
                                              std::to_string(endpoint.max_response_bytes) +
                                              " bytes (reading stopped there)");
  bool timeout = deadline_passed || (e == httplib::Error::Connection && elapsed_s >= connect_s * 0.9);
  if (timeout)
    return Error(LlmErrorKind::kTimeout, endpoint.base_url + ": no complete answer within " + Seconds(budget_s));
  return Error(LlmErrorKind::kConnection, endpoint.base_url + ": " + httplib::to_string(e));
}

PostResult Interpret(const LlmEndpoint& endpoint, int status, const std::string& text) {
  PostResult out;
  if (status < 200 || status >= 300) {
    out.error = Error(LlmErrorKind::kHttp,
                      endpoint.base_url + ": HTTP " + std::to_string(status) + ": " + text.substr(0, 200), status);
    return out;
  }
  auto parsed = ParseJson(text, "response");
  if (!parsed.ok() || !parsed->is_object()) {
    out.error = Error(LlmErrorKind::kInvalidJson, "body is not a JSON object");
    return out;
  }
  out.body = std::move(*parsed);
  return out;
}

}  // namespace

PostResult PostJson(const LlmEndpoint& endpoint, const std::string& path, const std::string& body,
                    LlmClock::time_point deadline) {
  const double budget_s = SecondsUntil(deadline);
  if (budget_s <= 0) return {std::nullopt, Error(LlmErrorKind::kTimeout, endpoint.base_url + ": no time left")};
  std::string origin, prefix;
  SplitUrl(endpoint.base_url, &origin, &prefix);
  httplib::Client client(origin);
  const double connect_s = std::min(endpoint.connect_timeout_s, budget_s);
  time_t s, us;
  SplitSeconds(connect_s, &s, &us);
  client.set_connection_timeout(s, us);
  // The watchdog ends the exchange at the deadline; these socket timeouts
  // only back it up, a second later, so a timeout is always the watchdog's.
  SplitSeconds(budget_s + 1, &s, &us);
  client.set_read_timeout(s, us);
  client.set_write_timeout(s, us);
  CappedBody answer(endpoint.max_response_bytes);
  const auto t0 = LlmClock::now();
  DeadlineWatchdog watchdog(&client, deadline);
  httplib::Result res = client.send(PostRequest(prefix + path, endpoint.api_key, body, &answer));
  if (!res) {
    double elapsed_s = std::chrono::duration<double>(LlmClock::now() - t0).count();
    return {std::nullopt,
            TransportError(endpoint, res.error(), watchdog.fired(), answer.overflow(), elapsed_s, budget_s, connect_s)};
  }
  return Interpret(endpoint, res->status, answer.text());
}

PostResult PostJsonWithRetries(const LlmEndpoint& endpoint, const std::string& path, const std::string& body,
                               int* attempts) {
  const auto deadline = LlmClock::now() + std::chrono::duration_cast<LlmClock::duration>(
                                              std::chrono::duration<double>(endpoint.deadline_s));
  PostResult r;
  double backoff = endpoint.backoff_s;
  for (int attempt = 0;; ++attempt) {
    r = PostJson(endpoint, path, body, deadline);
    *attempts = attempt + 1;
    if (r.body || !Retryable(*r.error) || attempt >= endpoint.max_retries) break;
    if (SecondsUntil(deadline) <= backoff) break;  // no time left for another attempt
    std::this_thread::sleep_for(std::chrono::duration<double>(backoff));
    backoff *= 2;
  }
  return r;
}

}  // namespace schedmate
