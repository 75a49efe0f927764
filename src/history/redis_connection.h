// One hiredis connection that retries: every exchange (a command, or a
// pipeline such as MULTI … EXEC) is resent with exponential back-off while the
// server is unreachable or silent, until a deadline; then it fails with what
// happened, how often and for how long. A server that accepts the connection
// but does not answer (frozen, overloaded) is a DeadlineExceeded "no reply
// within …", never errno's "Resource temporarily unavailable".
//
// REQUIRES: every exchange is idempotent — resent after a lost reply, it must
// leave the server as one send would (the history's writes set values, they
// never increment). Not thread safe: one connection per thread.
#ifndef SCHEDMATE_HISTORY_REDIS_CONNECTION_H_
#define SCHEDMATE_HISTORY_REDIS_CONNECTION_H_

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

struct redisContext;
struct redisReply;

namespace schedmate {

struct RedisConnectionOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  double timeout_s = 2.0;          // per connect and per reply
  double retry_deadline_s = 10.0;  // an exchange is retried until this much time has passed; 0: one try
};

struct RedisReplyDeleter {
  void operator()(redisReply* r) const;
};
using RedisReply = std::unique_ptr<redisReply, RedisReplyDeleter>;
using RedisArgs = std::vector<std::string>;

class RedisConnection {
 public:
  RedisConnection(RedisConnectionOptions options, std::string name) : o_(std::move(options)), name_(std::move(name)) {}
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Sends `commands` in one pipeline and returns one reply per command. An
  // error reply is returned as a status (FailedPrecondition naming `what`;
  // Unavailable for LOADING/BUSY/TRYAGAIN, which are retried).
  Result<std::vector<RedisReply>> Exchange(const std::vector<RedisArgs>& commands, const std::string& what);
  Result<RedisReply> Command(const RedisArgs& args);

 private:
  Status Connect();
  Result<std::vector<RedisReply>> ExchangeOnce(const std::vector<RedisArgs>& commands, const std::string& what);
  Status Dropped(const std::string& what, int saved_errno);
  Status ErrorReply(const redisReply& r, const std::string& what) const;

  RedisConnectionOptions o_;
  std::string name_;  // "redis://host:port/prefix", for messages
  redisContext* c_ = nullptr;
};

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_REDIS_CONNECTION_H_
