#include "history/sqlite_guard_ledger.h"

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include "history/sqlite_exec.h"

namespace schedmate {
namespace {

// Long enough for twenty processes queueing on one reservation each.
constexpr int kBusyTimeoutMs = 30000;

Status CreateSchema(sqlite3* db, const std::string& path) {
  return ExecRetryingBusy(db,
                          "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                          "CREATE TABLE IF NOT EXISTS guard_events(scope TEXT NOT NULL, time_ms INTEGER NOT NULL);"
                          "CREATE INDEX IF NOT EXISTS guard_events_scope ON guard_events(scope, time_ms);"
                          "CREATE TABLE IF NOT EXISTS guard_audit(id INTEGER PRIMARY KEY AUTOINCREMENT, "
                          "record TEXT NOT NULL);",
                          path + ": cannot create the guard ledger tables", kBusyTimeoutMs);
}

class Statement {
 public:
  Statement(sqlite3* db, const char* sql) { ok_ = sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) == SQLITE_OK; }
  ~Statement() { sqlite3_finalize(st_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  bool ok() const { return ok_; }
  sqlite3_stmt* get() { return st_; }
  void Bind(int i, const std::string& s) { sqlite3_bind_text(st_, i, s.c_str(), static_cast<int>(s.size()), SQLITE_TRANSIENT); }
  void Bind(int i, int64_t v) { sqlite3_bind_int64(st_, i, v); }

 private:
  sqlite3_stmt* st_ = nullptr;
  bool ok_ = false;
};

class SqliteGuardLedger final : public GuardLedger {
 public:
  SqliteGuardLedger(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteGuardLedger() override { sqlite3_close_v2(db_); }

  Result<GuardDecision> Reserve(const GuardLimit& limit, int64_t now_ms, const Json& audit) override {
    if (!Exec("BEGIN IMMEDIATE")) return Error("begin a reservation");
    auto d = ReserveInTransaction(limit, now_ms, audit);
    if (!d.ok() || !d->granted) {
      Exec("ROLLBACK");
      return d;
    }
    if (!Exec("COMMIT")) {
      Exec("ROLLBACK");
      return Error("commit the reservation for " + limit.scope);
    }
    return d;
  }

  Status Audit(const Json& record) override {
    Statement st(db_, "INSERT INTO guard_audit(record) VALUES(?)");
    if (!st.ok()) return Error("prepare the audit insert");
    st.Bind(1, DumpJson(record));
    if (sqlite3_step(st.get()) != SQLITE_DONE) return Error("write an audit record");
    return Status::Ok();
  }

  Result<std::vector<Json>> AuditTrail(size_t limit) override {
    Statement st(db_, "SELECT record FROM (SELECT id, record FROM guard_audit ORDER BY id DESC LIMIT ?) ORDER BY id");
    if (!st.ok()) return Error("prepare the audit query");
    st.Bind(1, static_cast<int64_t>(limit));
    std::vector<Json> out;
    int rc;
    while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
      const char* text = reinterpret_cast<const char*>(sqlite3_column_text(st.get(), 0));
      auto j = ParseJson(text ? text : "", path_ + ": guard_audit");
      if (!j.ok()) return j.status();
      out.push_back(std::move(*j));
    }
    if (rc != SQLITE_DONE) return Error("read the audit trail");
    return out;
  }

  std::string Describe() const override { return "sqlite:" + path_; }

 private:
  Result<GuardDecision> ReserveInTransaction(const GuardLimit& limit, int64_t now_ms, const Json& audit) {
    Statement q(db_, "SELECT time_ms FROM guard_events WHERE scope = ? ORDER BY time_ms");
    if (!q.ok()) return Error("prepare the guard query");
    q.Bind(1, limit.scope);
    std::vector<int64_t> events;
    int rc;
    while ((rc = sqlite3_step(q.get())) == SQLITE_ROW) events.push_back(sqlite3_column_int64(q.get(), 0));
    if (rc != SQLITE_DONE) return Error("read the guard events of " + limit.scope);
    GuardDecision d;
    d.why = RefusalReason(limit, events, now_ms);
    if (!d.why.empty()) return d;
    Statement ins(db_, "INSERT INTO guard_events(scope, time_ms) VALUES(?, ?)");
    if (!ins.ok()) return Error("prepare the guard insert");
    ins.Bind(1, limit.scope);
    ins.Bind(2, now_ms);
    if (sqlite3_step(ins.get()) != SQLITE_DONE) return Error("record the guard event of " + limit.scope);
    if (Status s = Audit(audit); !s.ok()) return s;
    d.granted = true;
    return d;
  }

  bool Exec(const char* sql) { return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }
  Status Error(const std::string& what) const {
    return Unavailable(path_ + ": guard ledger: " + what + ": " + sqlite3_errmsg(db_));
  }

  sqlite3* db_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<GuardLedger>> OpenSqliteGuardLedger(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string why = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close_v2(db);
    return Unavailable(path + ": cannot open the guard ledger: " + why);
  }
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  if (Status s = CreateSchema(db, path); !s.ok()) {
    sqlite3_close_v2(db);
    return s;
  }
  return std::unique_ptr<GuardLedger>(std::make_unique<SqliteGuardLedger>(db, path));
}

}  // namespace schedmate
