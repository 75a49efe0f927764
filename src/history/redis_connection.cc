#include "history/redis_connection.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

namespace schedmate {
namespace {

constexpr double kFirstBackoffS = 0.05;
constexpr double kMaxBackoffS = 1.0;

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

bool Transient(const Status& s) {
  return s.code() == StatusCode::kUnavailable || s.code() == StatusCode::kDeadlineExceeded;
}

timeval ToTimeval(double s) {
  timeval tv;
  tv.tv_sec = static_cast<time_t>(s);
  tv.tv_usec = static_cast<suseconds_t>((s - static_cast<double>(tv.tv_sec)) * 1e6);
  return tv;
}

}  // namespace

void RedisReplyDeleter::operator()(redisReply* r) const {
  if (r) freeReplyObject(r);
}

RedisConnection::~RedisConnection() {
  if (c_) redisFree(c_);
}

Status RedisConnection::Connect() {
  if (c_) redisFree(c_);
  timeval tv = ToTimeval(o_.timeout_s);
  c_ = redisConnectWithTimeout(o_.host.c_str(), o_.port, tv);
  if (!c_ || c_->err) {
    std::string m = name_ + ": cannot connect: " + (c_ ? c_->errstr : "cannot allocate a connection");
    if (c_) redisFree(c_);
    c_ = nullptr;
    return Unavailable(m);
  }
  redisSetTimeout(c_, tv);
  return Status::Ok();
}

// The connection is unusable after a failed read or write: drop it, and say
// whether the server went away or stopped answering.
Status RedisConnection::Dropped(const std::string& what, int saved_errno) {
  bool silent = c_ && c_->err == REDIS_ERR_IO && (saved_errno == EAGAIN || saved_errno == EWOULDBLOCK);
  std::string why = c_ && c_->err ? c_->errstr : "connection lost";
  if (c_) redisFree(c_);
  c_ = nullptr;
  if (silent)
    return Status(StatusCode::kDeadlineExceeded,
                  name_ + ": " + what + ": no reply within " + Seconds(o_.timeout_s) +
                      " (the server accepts connections but does not answer: frozen or overloaded)");
  return Unavailable(name_ + ": " + what + ": connection lost: " + why);
}

// Errors a restarting or busy server answers with are worth a retry; the rest
// (WRONGTYPE, a bad script, EXECABORT) are not.
Status RedisConnection::ErrorReply(const redisReply& r, const std::string& what) const {
  std::string msg(r.str, r.len);
  std::string m = name_ + ": " + what + ": " + msg;
  for (const char* transient : {"LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN"})
    if (msg.rfind(transient, 0) == 0) return Unavailable(m);
  return FailedPrecondition(m);
}

Result<std::vector<RedisReply>> RedisConnection::ExchangeOnce(const std::vector<RedisArgs>& commands,
                                                              const std::string& what) {
  if (!c_) RETURN_IF_ERROR(Connect());
  for (const auto& args : commands) {
    std::vector<const char*> argv;
    std::vector<size_t> lens;
    for (const auto& a : args) {
      argv.push_back(a.data());
      lens.push_back(a.size());
    }
    if (redisAppendCommandArgv(c_, static_cast<int>(argv.size()), argv.data(), lens.data()) != REDIS_OK)
      return Dropped(what, errno);
  }
  // Every reply is read before any is judged, so the connection stays in step.
  std::vector<RedisReply> replies;
  for (size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(c_, &raw) != REDIS_OK) return Dropped(what, errno);
    replies.emplace_back(static_cast<redisReply*>(raw));
  }
  for (const auto& r : replies)
    if (r->type == REDIS_REPLY_ERROR) return ErrorReply(*r, what);
  return replies;
}

Result<std::vector<RedisReply>> RedisConnection::Exchange(const std::vector<RedisArgs>& commands,
                                                          const std::string& what) {
  auto start = SteadyClock::now();
  double backoff = kFirstBackoffS;
  for (int attempt = 1;; ++attempt) {
    auto replies = ExchangeOnce(commands, what);
    if (replies.ok() || !Transient(replies.status())) return replies;
    double left = o_.retry_deadline_s - SecondsSince(start);
    if (left <= 0) {
      const Status& s = replies.status();
      return Status(s.code(), s.message() + " (" + std::to_string(attempt) + " attempt" + (attempt > 1 ? "s" : "") +
                                  " over " + Seconds(SecondsSince(start)) + ")");
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(backoff, left)));
    backoff = std::min(backoff * 2, kMaxBackoffS);
  }
}

Result<RedisReply> RedisConnection::Command(const RedisArgs& args) {
  ASSIGN_OR_RETURN(std::vector<RedisReply> replies, Exchange({args}, args[0]));
  return std::move(replies[0]);
}

}  // namespace schedmate
