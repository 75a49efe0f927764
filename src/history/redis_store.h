// The Redis history backend, for several scheduler instances sharing one
// history (hiredis). Layout under a key prefix (default "schedmate:history"):
//   <prefix>:version          schema version (refused when newer)
//   <prefix>:rec:<job_id>     hash {body: record JSON, fp: raw floats}
//   <prefix>:by_completed     sorted set job_id → completed_at_s
// A Put is one MULTI/EXEC transaction. A lost connection is retried once
// per call; otherwise the call fails with Unavailable and nothing is lost
// on the server. Not thread safe: one store per thread.
#ifndef SCHEDMATE_HISTORY_REDIS_STORE_H_
#define SCHEDMATE_HISTORY_REDIS_STORE_H_

#include <memory>
#include <string>

#include "history/store.h"

namespace schedmate {

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string prefix = "schedmate:history";
  double timeout_s = 2.0;
};

Result<std::unique_ptr<HistoryStore>> OpenRedisHistory(const RedisOptions& options);
// "redis://host:port[/prefix]" → options.
Result<RedisOptions> ParseRedisUrl(const std::string& url);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_REDIS_STORE_H_
