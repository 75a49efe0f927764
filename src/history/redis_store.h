// The Redis history backend, for several scheduler instances sharing one
// history (hiredis). Layout under a key prefix (default "schedmate:history"):
//   <prefix>:version          schema version (refused when newer)
//   <prefix>:rec:<job_id>     hash {body: record JSON, fp: raw floats}
//   <prefix>:by_completed     sorted set job_id → completed_at_s
//   <prefix>:import:<id>      hash {done: records committed} while an import runs
// A Put is one MULTI/EXEC transaction; an EXEC reply holding an error element
// (e.g. WRONGTYPE) is a failure. Every call is retried with back-off while
// the server is unreachable or silent, up to `retry_deadline_s`
// (redis_connection.h); then it fails with Unavailable (gone) or
// DeadlineExceeded (frozen). Retries are safe: every write sets values.
//
// Import is not one transaction: a Redis transaction cannot be rolled back,
// and one holding a whole history would block every other client. It runs in
// chunks of 500 records, each one server-side script — all of a chunk or
// none of it, whatever happens to the client — and each chunk also advances
// a checkpoint, in the same script, to the number of records committed. A
// failed or killed import leaves a prefix of the file committed and the
// checkpoint saying how long; the same import run again resumes after it,
// and a finished one deletes the checkpoint. The older-than-stored check is
// made inside the script, so no other writer can slip in between. Not for
// Redis Cluster (the script touches keys it does not declare).
// Not thread safe: one store per thread.
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
  double timeout_s = 2.0;          // per connect and per reply
  double retry_deadline_s = 10.0;  // how long a call retries an unreachable or silent server
};

Result<std::unique_ptr<HistoryStore>> OpenRedisHistory(const RedisOptions& options);
// "redis://host:port[/prefix]" → options.
Result<RedisOptions> ParseRedisUrl(const std::string& url);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_REDIS_STORE_H_
