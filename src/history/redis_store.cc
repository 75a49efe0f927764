#include "history/redis_store.h"

#include <hiredis/hiredis.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

constexpr int kRedisSchemaVersion = 1;

struct ReplyDeleter {
  void operator()(redisReply* r) const {
    if (r) freeReplyObject(r);
  }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

class RedisHistory : public HistoryStore {
 public:
  explicit RedisHistory(RedisOptions o) : o_(std::move(o)) {}
  ~RedisHistory() override {
    if (c_) redisFree(c_);
  }
  std::string Describe() const override {
    return "redis://" + o_.host + ":" + std::to_string(o_.port) + "/" + o_.prefix;
  }

  Status Connect() {
    if (c_) redisFree(c_);
    struct timeval tv;
    tv.tv_sec = static_cast<time_t>(o_.timeout_s);
    tv.tv_usec = static_cast<suseconds_t>((o_.timeout_s - static_cast<double>(tv.tv_sec)) * 1e6);
    c_ = redisConnectWithTimeout(o_.host.c_str(), o_.port, tv);
    if (!c_ || c_->err) {
      std::string m = Describe() + ": " + (c_ ? c_->errstr : "cannot allocate a connection");
      if (c_) redisFree(c_);
      c_ = nullptr;
      return Unavailable(m);
    }
    redisSetTimeout(c_, tv);
    return Status::Ok();
  }

  Status CheckVersion() {
    ASSIGN_OR_RETURN(Reply r, Command({"GET", o_.prefix + ":version"}));
    if (r->type == REDIS_REPLY_NIL) {
      ASSIGN_OR_RETURN(Reply set, Command({"SETNX", o_.prefix + ":version", std::to_string(kRedisSchemaVersion)}));
      return Status::Ok();
    }
    int v = r->type == REDIS_REPLY_STRING ? std::atoi(r->str) : -1;
    if (v < 1 || v > kRedisSchemaVersion)
      return FailedPrecondition(Describe() + ": history schema version " + std::to_string(v) + " is not supported");
    return Status::Ok();
  }

  Status Put(const HistoryRecord& r) override {
    std::string key = o_.prefix + ":rec:" + r.job_id;
    std::string body = DumpJson(RecordToJson(r));
    std::string fp(reinterpret_cast<const char*>(r.fingerprint.data()), r.fingerprint.size() * sizeof(float));
    std::vector<std::vector<std::string>> tx = {
        {"MULTI"},
        {"HSET", key, "body", body, "fp", fp},
        {"ZADD", o_.prefix + ":by_completed", std::to_string(r.completed_at_s), r.job_id},
        {"EXEC"}};
    for (int attempt = 0; attempt < 2; ++attempt) {
      Status s = Transaction(tx);
      if (s.ok() || s.code() != StatusCode::kUnavailable) return s;
    }
    return Unavailable(Describe() + ": put " + r.job_id + " failed after a reconnect");
  }

  Result<std::optional<HistoryRecord>> Get(const std::string& job_id) override {
    ASSIGN_OR_RETURN(Reply r, Command({"HMGET", o_.prefix + ":rec:" + job_id, "body", "fp"}));
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 2) return DataLoss(Describe() + ": unexpected HMGET reply");
    if (r->element[0]->type == REDIS_REPLY_NIL) return std::optional<HistoryRecord>();
    ASSIGN_OR_RETURN(HistoryRecord rec, Decode(r->element[0], r->element[1]));
    return std::optional<HistoryRecord>(std::move(rec));
  }

  Result<int64_t> Count() override {
    ASSIGN_OR_RETURN(Reply r, Command({"ZCARD", o_.prefix + ":by_completed"}));
    if (r->type != REDIS_REPLY_INTEGER) return DataLoss(Describe() + ": unexpected ZCARD reply");
    return static_cast<int64_t>(r->integer);
  }

  Status ForEach(const std::function<Status(const HistoryRecord&)>& fn) override {
    const int64_t page = 1000;
    for (int64_t start = 0;; start += page) {
      ASSIGN_OR_RETURN(Reply ids, Command({"ZRANGE", o_.prefix + ":by_completed", std::to_string(start),
                                           std::to_string(start + page - 1)}));
      if (ids->type != REDIS_REPLY_ARRAY) return DataLoss(Describe() + ": unexpected ZRANGE reply");
      if (ids->elements == 0) return Status::Ok();
      // Pipelined: queue every HMGET, then read the replies.
      for (size_t i = 0; i < ids->elements; ++i) {
        std::string key = o_.prefix + ":rec:" + std::string(ids->element[i]->str, ids->element[i]->len);
        const char* argv[] = {"HMGET", key.c_str(), "body", "fp"};
        size_t lens[] = {5, key.size(), 4, 2};
        redisAppendCommandArgv(c_, 4, argv, lens);
      }
      for (size_t i = 0; i < ids->elements; ++i) {
        void* raw = nullptr;
        if (redisGetReply(c_, &raw) != REDIS_OK) return Lost("scan");
        Reply r(static_cast<redisReply*>(raw));
        if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[0]->type == REDIS_REPLY_NIL) continue;
        ASSIGN_OR_RETURN(HistoryRecord rec, Decode(r->element[0], r->element[1]));
        RETURN_IF_ERROR(fn(rec));
      }
      if (static_cast<int64_t>(ids->elements) < page) return Status::Ok();
    }
  }

 private:
  Status Lost(const std::string& what) {
    std::string m = Describe() + ": " + what + ": " + (c_ && c_->err ? c_->errstr : "connection lost");
    if (c_) redisFree(c_);
    c_ = nullptr;
    return Unavailable(m);
  }

  Result<Reply> Command(const std::vector<std::string>& args) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!c_) {
        Status s = Connect();
        if (!s.ok()) {
          if (attempt == 1) return s;
          continue;
        }
      }
      std::vector<const char*> argv;
      std::vector<size_t> lens;
      for (const auto& a : args) {
        argv.push_back(a.data());
        lens.push_back(a.size());
      }
      Reply r(static_cast<redisReply*>(redisCommandArgv(c_, static_cast<int>(argv.size()), argv.data(), lens.data())));
      if (!r) {
        Status lost = Lost(args[0]);
        if (attempt == 1) return lost;
        continue;
      }
      if (r->type == REDIS_REPLY_ERROR) return FailedPrecondition(Describe() + ": " + args[0] + ": " + r->str);
      return r;
    }
    return Unavailable(Describe() + ": unreachable");
  }

  Status Transaction(const std::vector<std::vector<std::string>>& commands) {
    if (!c_) RETURN_IF_ERROR(Connect());
    for (const auto& args : commands) {
      std::vector<const char*> argv;
      std::vector<size_t> lens;
      for (const auto& a : args) {
        argv.push_back(a.data());
        lens.push_back(a.size());
      }
      redisAppendCommandArgv(c_, static_cast<int>(argv.size()), argv.data(), lens.data());
    }
    for (size_t i = 0; i < commands.size(); ++i) {
      void* raw = nullptr;
      if (redisGetReply(c_, &raw) != REDIS_OK) return Lost("transaction");
      Reply r(static_cast<redisReply*>(raw));
      if (r->type == REDIS_REPLY_ERROR) return FailedPrecondition(Describe() + ": " + r->str);
      if (i + 1 == commands.size() && r->type != REDIS_REPLY_ARRAY)
        return Unavailable(Describe() + ": transaction aborted");
    }
    return Status::Ok();
  }

  Result<HistoryRecord> Decode(const redisReply* body, const redisReply* fp) const {
    std::string where = Describe() + ": record";
    ASSIGN_OR_RETURN(Json j, ParseJson(std::string_view(body->str, body->len), where));
    ASSIGN_OR_RETURN(HistoryRecord r, RecordFromJson(j, where));
    if (fp->type == REDIS_REPLY_STRING) {
      if (fp->len % sizeof(float) != 0) return DataLoss(where + " " + r.job_id + ": fingerprint size");
      r.fingerprint.resize(fp->len / sizeof(float));
      std::memcpy(r.fingerprint.data(), fp->str, fp->len);
    }
    return r;
  }

  RedisOptions o_;
  redisContext* c_ = nullptr;
};

}  // namespace

Result<std::unique_ptr<HistoryStore>> OpenRedisHistory(const RedisOptions& options) {
  auto store = std::make_unique<RedisHistory>(options);
  RETURN_IF_ERROR(store->Connect());
  RETURN_IF_ERROR(store->CheckVersion());
  return std::unique_ptr<HistoryStore>(std::move(store));
}

Result<RedisOptions> ParseRedisUrl(const std::string& url) {
  RedisOptions o;
  const std::string scheme = "redis://";
  if (url.rfind(scheme, 0) != 0) return InvalidArgument(url + ": expected redis://host:port[/prefix]");
  std::string rest = url.substr(scheme.size());
  size_t slash = rest.find('/');
  if (slash != std::string::npos) {
    if (slash + 1 < rest.size()) o.prefix = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  size_t colon = rest.rfind(':');
  if (colon != std::string::npos) {
    char* end = nullptr;
    long port = std::strtol(rest.c_str() + colon + 1, &end, 10);
    if (*end != '\0' || port <= 0 || port > 65535) return InvalidArgument(url + ": bad port");
    o.port = static_cast<int>(port);
    rest = rest.substr(0, colon);
  }
  if (!rest.empty()) o.host = rest;
  return o;
}

}  // namespace schedmate
