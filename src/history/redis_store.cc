#include "history/redis_store.h"

#include <hiredis/hiredis.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "history/redis_connection.h"

namespace schedmate {
namespace {

constexpr int kRedisSchemaVersion = 1;
constexpr size_t kImportChunk = 500;

// One import chunk, run atomically by the server. KEYS[1] by_completed;
// ARGV: record key prefix, force (1/0), checkpoint key ("" for none), records
// committed once this chunk is, then (job_id, completed_at, body, fp) per
// record. Types are checked before the first write, so a wrong-typed key
// fails the chunk whole; a chunk the checkpoint already covers (a resent
// EVAL whose reply was lost) writes nothing. Returns {written, skipped, 0},
// or {0, 0, 1} for a chunk already committed.
constexpr const char* kImportScript = R"lua(
local by_completed, rec, force, ckpt, done = KEYS[1], ARGV[1], ARGV[2] == '1', ARGV[3], tonumber(ARGV[4])
if ckpt ~= '' and tonumber(redis.call('HGET', ckpt, 'done') or '0') >= done then return {0, 0, 1} end
local t = redis.call('TYPE', by_completed).ok
if t ~= 'zset' and t ~= 'none' then return redis.error_reply('WRONGTYPE ' .. by_completed .. ' holds a ' .. t) end
for i = 5, #ARGV, 4 do
  t = redis.call('TYPE', rec .. ARGV[i]).ok
  if t ~= 'hash' and t ~= 'none' then return redis.error_reply('WRONGTYPE ' .. rec .. ARGV[i] .. ' holds a ' .. t) end
end
local written, skipped = 0, 0
for i = 5, #ARGV, 4 do
  local stored = redis.call('ZSCORE', by_completed, ARGV[i])
  if not force and stored and tonumber(stored) > tonumber(ARGV[i + 1]) then
    skipped = skipped + 1
  else
    redis.call('HSET', rec .. ARGV[i], 'body', ARGV[i + 2], 'fp', ARGV[i + 3])
    redis.call('ZADD', by_completed, ARGV[i + 1], ARGV[i])
    written = written + 1
  end
end
if ckpt ~= '' then redis.call('HSET', ckpt, 'done', done) end
return {written, skipped, 0}
)lua";

std::string FingerprintBytes(const HistoryRecord& r) {
  return std::string(reinterpret_cast<const char*>(r.fingerprint.data()), r.fingerprint.size() * sizeof(float));
}

std::string Text(const redisReply* r) { return r && r->str ? std::string(r->str, r->len) : ""; }

class RedisHistory : public HistoryStore {
 public:
  explicit RedisHistory(const RedisOptions& o)
      : o_(o), conn_({o.host, o.port, o.timeout_s, o.retry_deadline_s}, Describe()) {}
  std::string Describe() const override {
    return "redis://" + o_.host + ":" + std::to_string(o_.port) + "/" + o_.prefix;
  }

  Status CheckVersion() {
    ASSIGN_OR_RETURN(RedisReply r, conn_.Command({"GET", o_.prefix + ":version"}));
    if (r->type == REDIS_REPLY_NIL) {
      ASSIGN_OR_RETURN(RedisReply set,
                       conn_.Command({"SETNX", o_.prefix + ":version", std::to_string(kRedisSchemaVersion)}));
      return Status::Ok();
    }
    int v = r->type == REDIS_REPLY_STRING ? std::atoi(r->str) : -1;
    if (v < 1 || v > kRedisSchemaVersion)
      return FailedPrecondition(Describe() + ": history schema version " + std::to_string(v) + " is not supported");
    return Status::Ok();
  }

  Status Put(const HistoryRecord& r) override {
    std::vector<RedisArgs> tx = {
        {"MULTI"},
        {"HSET", RecordKey(r.job_id), "body", DumpJson(RecordToJson(r)), "fp", FingerprintBytes(r)},
        {"ZADD", ByCompleted(), std::to_string(r.completed_at_s), r.job_id},
        {"EXEC"}};
    ASSIGN_OR_RETURN(std::vector<RedisReply> replies, conn_.Exchange(tx, "put " + r.job_id));
    return ExecSucceeded(*replies.back(), tx, "put " + r.job_id);
  }

  Result<std::optional<HistoryRecord>> Get(const std::string& job_id) override {
    ASSIGN_OR_RETURN(RedisReply r, conn_.Command({"HMGET", RecordKey(job_id), "body", "fp"}));
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 2) return DataLoss(Describe() + ": unexpected HMGET reply");
    if (r->element[0]->type == REDIS_REPLY_NIL) return std::optional<HistoryRecord>();
    ASSIGN_OR_RETURN(HistoryRecord rec, Decode(r->element[0], r->element[1]));
    return std::optional<HistoryRecord>(std::move(rec));
  }

  Result<int64_t> Count() override {
    ASSIGN_OR_RETURN(RedisReply r, conn_.Command({"ZCARD", ByCompleted()}));
    if (r->type != REDIS_REPLY_INTEGER) return DataLoss(Describe() + ": unexpected ZCARD reply");
    return static_cast<int64_t>(r->integer);
  }

  Status ForEach(const std::function<Status(const HistoryRecord&)>& fn) override {
    const int64_t page = 1000;
    for (int64_t start = 0;; start += page) {
      ASSIGN_OR_RETURN(RedisReply ids, conn_.Command({"ZRANGE", ByCompleted(), std::to_string(start),
                                                      std::to_string(start + page - 1)}));
      if (ids->type != REDIS_REPLY_ARRAY) return DataLoss(Describe() + ": unexpected ZRANGE reply");
      if (ids->elements == 0) return Status::Ok();
      std::vector<RedisArgs> reads;  // pipelined: one round trip per page
      for (size_t i = 0; i < ids->elements; ++i)
        reads.push_back({"HMGET", RecordKey(Text(ids->element[i])), "body", "fp"});
      ASSIGN_OR_RETURN(std::vector<RedisReply> rows, conn_.Exchange(reads, "scan"));
      for (const auto& r : rows) {
        if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[0]->type == REDIS_REPLY_NIL) continue;
        ASSIGN_OR_RETURN(HistoryRecord rec, Decode(r->element[0], r->element[1]));
        RETURN_IF_ERROR(fn(rec));
      }
      if (static_cast<int64_t>(ids->elements) < page) return Status::Ok();
    }
  }

  Result<ImportCounts> Import(const RecordSource& source, const ImportOptions& options) override {
    std::string ckpt = options.checkpoint_id.empty() ? "" : o_.prefix + ":import:" + options.checkpoint_id;
    ImportCounts counts;
    ASSIGN_OR_RETURN(counts.resumed_after, Committed(ckpt));
    int64_t seen = 0;
    std::vector<HistoryRecord> chunk;
    Status s = source([&](const HistoryRecord& r) -> Status {
      if (seen++ < counts.resumed_after) return Status::Ok();
      chunk.push_back(r);
      if (chunk.size() < kImportChunk) return Status::Ok();
      return ImportChunk(chunk, seen, options.force, ckpt, counts);
    });
    if (s.ok() && !chunk.empty()) s = ImportChunk(chunk, seen, options.force, ckpt, counts);
    if (!s.ok()) return StoppedAt(s, seen - static_cast<int64_t>(chunk.size()), ckpt);
    if (!ckpt.empty()) RETURN_IF_ERROR(conn_.Command({"DEL", ckpt}).status());
    return counts;
  }

 private:
  std::string RecordKey(const std::string& job_id) const { return o_.prefix + ":rec:" + job_id; }
  std::string ByCompleted() const { return o_.prefix + ":by_completed"; }

  // EXEC answers nil when the transaction was aborted and an array with one
  // reply per queued command otherwise — where any element may be an error
  // (WRONGTYPE, OOM) while the others were applied.
  Status ExecSucceeded(const redisReply& exec, const std::vector<RedisArgs>& tx, const std::string& what) const {
    if (exec.type != REDIS_REPLY_ARRAY) return Unavailable(Describe() + ": " + what + ": transaction aborted");
    for (size_t i = 0; i < exec.elements; ++i)
      if (exec.element[i]->type == REDIS_REPLY_ERROR)
        return FailedPrecondition(Describe() + ": " + what + ": EXEC: " + tx[i + 1][0] +
                                  " failed: " + Text(exec.element[i]));
    return Status::Ok();
  }

  // Records an earlier, interrupted run of this import committed.
  Result<int64_t> Committed(const std::string& ckpt) {
    if (ckpt.empty()) return int64_t{0};
    ASSIGN_OR_RETURN(RedisReply r, conn_.Command({"HGET", ckpt, "done"}));
    return r->type == REDIS_REPLY_STRING ? std::atoll(r->str) : int64_t{0};
  }

  // Writes `chunk` (ending at record `done` of the source) in one EVAL and empties it.
  Status ImportChunk(std::vector<HistoryRecord>& chunk, int64_t done, bool force, const std::string& ckpt,
                     ImportCounts& counts) {
    RedisArgs eval = {"EVAL", kImportScript,       "1", ByCompleted(), o_.prefix + ":rec:", force ? "1" : "0",
                      ckpt,   std::to_string(done)};
    for (const auto& r : chunk) {
      eval.insert(eval.end(),
                  {r.job_id, std::to_string(r.completed_at_s), DumpJson(RecordToJson(r)), FingerprintBytes(r)});
    }
    std::string what =
        "import records " + std::to_string(done - static_cast<int64_t>(chunk.size()) + 1) + "-" + std::to_string(done);
    ASSIGN_OR_RETURN(std::vector<RedisReply> replies, conn_.Exchange({eval}, what));
    const redisReply& r = *replies[0];
    if (r.type != REDIS_REPLY_ARRAY || r.elements != 3)
      return DataLoss(Describe() + ": " + what + ": unexpected reply");
    counts.written += r.element[0]->integer;
    counts.skipped_older += r.element[1]->integer;
    chunk.clear();
    return Status::Ok();
  }

  Status StoppedAt(const Status& s, int64_t committed, const std::string& ckpt) const {
    std::string where = "; the first " + std::to_string(committed) + " records are committed";
    where += ckpt.empty() ? ", the rest are not" : " (checkpoint " + ckpt + "): rerun the same import to resume";
    return Status(s.code(), s.message() + where);
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
  RedisConnection conn_;
};

}  // namespace

Result<std::unique_ptr<HistoryStore>> OpenRedisHistory(const RedisOptions& options) {
  auto store = std::make_unique<RedisHistory>(options);
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
