#include "history/sqlite_store.h"

#include <sqlite3.h>

#include <cstring>

#include <nlohmann/json.hpp>

#include "history/sqlite_exec.h"

namespace schedmate {
namespace {

constexpr int kDbVersion = 1;

// The stored body: DumpJson(RecordToJson(r)), without parsing and dumping
// metadata_json again when it is JSON already (a simulation writes tens of
// thousands of records): its text takes the metadata's place. The value is
// the same, so a read gives the same record; the bytes are the same when the
// text is compact, as DumpJson writes it.
std::string Body(const HistoryRecord& r) {
  static const std::string kMark = "\x01schedmate-metadata\x01";
  if (r.metadata_json.empty() || !Json::accept(r.metadata_json)) return DumpJson(RecordToJson(r));
  HistoryRecord shell = r;
  shell.metadata_json.clear();
  shell.fingerprint.clear();
  Json j = RecordToJson(shell);
  j["metadata"] = kMark;
  std::string body = DumpJson(j);
  // Quotes inside a dumped string are escaped: only the key itself matches.
  const std::string key = "\"metadata\":", value = DumpJson(Json(kMark));
  const size_t at = body.find(key + value);
  if (at == std::string::npos) return DumpJson(RecordToJson(r));
  return body.replace(at + key.size(), value.size(), r.metadata_json);
}

class SqliteHistory : public HistoryStore {
 public:
  SqliteHistory(sqlite3* db, std::string path, SqliteOptions o) : db_(db), path_(std::move(path)), o_(o) {}
  ~SqliteHistory() override {
    if (pending_ > 0) sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_finalize(insert_);
    sqlite3_finalize(upsert_);
    sqlite3_close_v2(db_);
  }
  std::string Describe() const override { return "sqlite:" + path_; }

  Status Put(const HistoryRecord& r) override {
    const char* sql =
        "INSERT OR REPLACE INTO records(job_id, completed_at, body, fingerprint, version) VALUES(?,?,?,?,?)";
    if (!insert_ && sqlite3_prepare_v2(db_, sql, -1, &insert_, nullptr) != SQLITE_OK) return Error("prepare insert");
    if (o_.group_commit > 1 && pending_ == 0 && sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
      return Error("begin");
    BindRecord(insert_, r);
    if (sqlite3_step(insert_) != SQLITE_DONE) return Error("insert " + r.job_id);
    if (o_.group_commit > 1 && ++pending_ >= o_.group_commit) return CommitPending();
    return Status::Ok();
  }

  // One transaction: BEGIN IMMEDIATE takes the write lock up front (another
  // writer waits for the busy timeout rather than failing at COMMIT), and a
  // process killed before COMMIT leaves the store as it was.
  Result<ImportCounts> Import(const RecordSource& source, const ImportOptions& options) override {
    RETURN_IF_ERROR(CommitPending());
    if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) return Error("begin import");
    ImportCounts counts;
    Status s = source([&](const HistoryRecord& r) { return ImportOne(r, options.force, counts); });
    if (s.ok() && sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) s = Error("commit import");
    if (s.ok()) return counts;
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    return s;
  }

  Result<std::optional<HistoryRecord>> Get(const std::string& job_id) override {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT body, fingerprint FROM records WHERE job_id = ?", -1, &st, nullptr) != SQLITE_OK)
      return Error("prepare select");
    sqlite3_bind_text(st, 1, job_id.c_str(), static_cast<int>(job_id.size()), SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
      sqlite3_finalize(st);
      return std::optional<HistoryRecord>();
    }
    if (rc != SQLITE_ROW) {
      sqlite3_finalize(st);
      return Error("select " + job_id);
    }
    auto r = Row(st);
    sqlite3_finalize(st);
    if (!r.ok()) return r.status();
    return std::optional<HistoryRecord>(std::move(*r));
  }

  Result<int64_t> Count() override {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT COUNT(*) FROM records", -1, &st, nullptr) != SQLITE_OK) return Error("count");
    int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    if (n < 0) return Error("count");
    return n;
  }

  Status ForEach(const std::function<Status(const HistoryRecord&)>& fn) override {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT body, fingerprint FROM records ORDER BY completed_at, job_id", -1, &st,
                           nullptr) != SQLITE_OK)
      return Error("prepare scan");
    Status out = Status::Ok();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      auto r = Row(st);
      if (!r.ok()) {
        out = r.status();
        break;
      }
      out = fn(*r);
      if (!out.ok()) break;
    }
    if (out.ok() && rc != SQLITE_DONE) out = Error("scan");
    sqlite3_finalize(st);
    return out;
  }

 private:
  Status Error(const std::string& what) const {
    return Unavailable(path_ + ": " + what + ": " + sqlite3_errmsg(db_));
  }

  // Binds ?1..?5 (job_id, completed_at, body, fingerprint, version) of an insert.
  static void BindRecord(sqlite3_stmt* st, const HistoryRecord& r) {
    sqlite3_reset(st);
    std::string body = Body(r);
    sqlite3_bind_text(st, 1, r.job_id.c_str(), static_cast<int>(r.job_id.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, r.completed_at_s);
    sqlite3_bind_text(st, 3, body.c_str(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
    sqlite3_bind_blob(st, 4, r.fingerprint.data(), static_cast<int>(r.fingerprint.size() * sizeof(float)),
                      SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 5, r.schema_version);
  }

  // Inserts `r`, or replaces the stored run of its job_id unless that one
  // completed later (and not `force`): the upsert's WHERE leaves it untouched.
  Status ImportOne(const HistoryRecord& r, bool force, ImportCounts& counts) {
    const char* sql =
        "INSERT INTO records(job_id, completed_at, body, fingerprint, version) VALUES(?1,?2,?3,?4,?5) "
        "ON CONFLICT(job_id) DO UPDATE SET completed_at = excluded.completed_at, body = excluded.body, "
        "fingerprint = excluded.fingerprint, version = excluded.version "
        "WHERE ?6 OR excluded.completed_at >= records.completed_at";
    if (!upsert_ && sqlite3_prepare_v2(db_, sql, -1, &upsert_, nullptr) != SQLITE_OK) return Error("prepare import");
    BindRecord(upsert_, r);
    sqlite3_bind_int(upsert_, 6, force ? 1 : 0);
    if (sqlite3_step(upsert_) != SQLITE_DONE) return Error("import " + r.job_id);
    if (sqlite3_changes(db_) > 0) {
      ++counts.written;
    } else {
      ++counts.skipped_older;
    }
    return Status::Ok();
  }

  Status CommitPending() {
    if (pending_ == 0) return Status::Ok();
    pending_ = 0;
    if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) return Error("commit");
    return Status::Ok();
  }

  Result<HistoryRecord> Row(sqlite3_stmt* st) const {
    const char* body = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    std::string where = path_ + ": record";
    ASSIGN_OR_RETURN(Json j, ParseJson(body ? body : "", where));
    ASSIGN_OR_RETURN(HistoryRecord r, RecordFromJson(j, where));
    const void* blob = sqlite3_column_blob(st, 1);
    int bytes = sqlite3_column_bytes(st, 1);
    if (bytes % static_cast<int>(sizeof(float)) != 0) return DataLoss(where + " " + r.job_id + ": fingerprint size");
    r.fingerprint.resize(static_cast<size_t>(bytes) / sizeof(float));
    if (bytes > 0) std::memcpy(r.fingerprint.data(), blob, static_cast<size_t>(bytes));
    return r;
  }

  sqlite3* db_;
  std::string path_;
  SqliteOptions o_;
  sqlite3_stmt* insert_ = nullptr;  // prepared once
  sqlite3_stmt* upsert_ = nullptr;  // the import's conditional insert, prepared once
  int pending_ = 0;                 // Puts in the open group-commit transaction
};

}  // namespace

Result<std::unique_ptr<HistoryStore>> OpenSqliteHistory(const std::string& path, SqliteOptions options) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string m = path + ": " + (db ? sqlite3_errmsg(db) : "cannot open");
    sqlite3_close_v2(db);
    return Unavailable(m);
  }
  auto fail = [&](Status s) -> Result<std::unique_ptr<HistoryStore>> {
    sqlite3_close_v2(db);
    return s;
  };
  sqlite3_busy_timeout(db, 5000);
  // WAL + synchronous=NORMAL: a committed write survives the process being
  // killed (it is in the OS); FULL would also survive power loss.
  if (Status s = ExecRetryingBusy(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", path, 5000); !s.ok())
    return fail(s);
  sqlite3_stmt* st = nullptr;
  int version = 0;
  if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    version = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  if (version > kDbVersion)
    return fail(FailedPrecondition(path + ": history schema version " + std::to_string(version) +
                                   " is newer than this build (" + std::to_string(kDbVersion) + ")"));
  if (version == 0) {
    Status s = ExecRetryingBusy(db,
                                "CREATE TABLE IF NOT EXISTS records(job_id TEXT PRIMARY KEY, completed_at INTEGER "
                                "NOT NULL, body TEXT NOT NULL, fingerprint BLOB, version INTEGER NOT NULL);"
                                "CREATE INDEX IF NOT EXISTS records_completed ON records(completed_at);"
                                "PRAGMA user_version = 1;",
                                path, 5000);
    if (!s.ok()) return fail(s);
  }
  return std::unique_ptr<HistoryStore>(new SqliteHistory(db, path, options));
}

}  // namespace schedmate
