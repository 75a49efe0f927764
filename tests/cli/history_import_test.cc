// `schedmate history import` as a user runs it: all or nothing (a bad line,
// a kill -9 at a random moment), a later stored run kept unless --force; and
// `advise` on an opaque job falling back instead of matching another.
// scripts/history_kill9.sh runs the kill -9 check 100 times on a larger file.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <sqlite3.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.h"
#include "core/random.h"
#include "history/record.h"

namespace {

using schedmate::HistoryRecord;

// `n` records "<prefix>-<i>" in the export format, each with a 256-float fingerprint.
std::string ExportLines(const std::string& prefix, int n, int64_t completed = 1000) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    HistoryRecord r;
    r.job_id = prefix + "-" + std::to_string(i);
    r.completed_at_s = completed;
    r.duration_s = 60 + i;
    r.metadata_json = R"({"model_name":"gpt2","dataset":"owt"})";
    nlohmann::json j = schedmate::RecordToJson(r);
    j["fingerprint"] = std::vector<float>(256, 0.25f + static_cast<float>(i % 7));
    out += j.dump() + "\n";
  }
  return out;
}

// PRAGMA integrity_check's answer and the record count, read as a new process would.
struct DbState {
  std::string integrity;
  int64_t count = -1;
};

DbState Inspect(const std::string& db_path) {
  DbState s;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return s;
  }
  auto one = [&](const char* sql) {
    sqlite3_stmt* st = nullptr;
    std::string v;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return v;
  };
  s.integrity = one("PRAGMA integrity_check");
  std::string n = one("SELECT COUNT(*) FROM records");
  s.count = n.empty() ? -1 : std::stoll(n);
  sqlite3_close(db);
  return s;
}

// Starts `schedmate history --history DB import FILE` with its output discarded.
pid_t StartImport(const std::string& db, const std::string& file) {
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(SCHEDMATE_BIN, SCHEDMATE_BIN, "history", "--history", db.c_str(), "import", file.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

TEST_F(CliTest, HistoryImportWithABadLineImportsNothing) {
  std::string db = (dir_ / "h.db").string();
  std::string lines = ExportLines("ok", 3);
  std::string file = Write("bad.jsonl", lines + "{\"schema_version\":1,\"job_id\":\"x\"}\n");
  CmdResult r = Exec("history --history " + db + " import " + file);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.jsonl:4"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("completed_at_s"), std::string::npos) << r.err;
  EXPECT_EQ(Inspect(db).count, 0);  // the three good lines before it are not in the store either
}

TEST_F(CliTest, HistoryImportKeepsALaterStoredRunUnlessForced) {
  std::string db = (dir_ / "h.db").string();
  ASSERT_EQ(Exec("history --history " + db + " import " + Write("new.jsonl", ExportLines("job", 2, 2000))).code, 0);
  std::string old_file = Write("old.jsonl", ExportLines("job", 3, 1000));
  CmdResult r = Exec("history --history " + db + " import " + old_file);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("imported 1 records"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skipped 2 records older than the stored run"), std::string::npos) << r.out;
  CmdResult shown = Exec("history --history " + db + " show job-0");
  EXPECT_EQ(nlohmann::json::parse(shown.out)["completed_at_s"], 2000);
  CmdResult forced = Exec("history --history " + db + " import --force " + old_file);
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_NE(forced.out.find("imported 3 records"), std::string::npos) << forced.out;
  EXPECT_EQ(nlohmann::json::parse(Exec("history --history " + db + " show job-0").out)["completed_at_s"], 1000);
}

// kill -9 at random moments of an import: the file always opens, passes
// integrity_check, and holds either none or all of the import — and every
// record committed before it.
TEST_F(CliTest, HistoryImportKilledAtRandomIsAllOrNothing) {
  constexpr int kRecords = 1500, kKills = 5;
  std::string db = (dir_ / "h.db").string();
  auto t0 = std::chrono::steady_clock::now();  // one uninterrupted import sets the time scale
  ASSERT_EQ(Exec("history --history " + db + " import " + Write("base.jsonl", ExportLines("base", kRecords))).code, 0);
  double full_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  schedmate::Rng rng(16);
  int none = 0, all = 0;
  for (int k = 0; k < kKills; ++k) {
    std::string file = Write("it.jsonl", ExportLines("it" + std::to_string(k), kRecords));
    int64_t before = Inspect(db).count;
    pid_t pid = StartImport(db, file);
    std::this_thread::sleep_for(std::chrono::duration<double>(rng.Uniform() * 1.1 * full_s));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    DbState after = Inspect(db);
    ASSERT_EQ(after.integrity, "ok") << "kill " << k;
    ASSERT_TRUE(after.count == before || after.count == before + kRecords)
        << "kill " << k << ": " << before << " before, " << after.count << " after";
    (after.count == before ? none : all) += 1;
  }
  std::printf("%d kills: %d left nothing, %d left the whole import (uninterrupted import %.2f s)\n", kKills, none, all,
              full_s);
}

TEST_F(CliTest, AdviseOnAnOpaqueJobFallsBackInsteadOfMatchingAnother) {
  fs::create_directories(dir_ / "alice");
  fs::create_directories(dir_ / "bob");
  Write("alice/train.py", "print('hello')\n");
  Write("bob/train.py", "import os\nos.system('./run')\n");
  std::string db = (dir_ / "h.db").string();
  ASSERT_EQ(Exec("history --history " + db + " add --job alice1 --repo " + (dir_ / "alice").string() +
                 " --cmd 'python train.py' --duration 36000 --completed-at 100")
                .code,
            0);
  CmdResult r =
      Exec("advise " + (dir_ / "bob").string() + " --cmd 'python train.py' --history " + db + " --as-of 200 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["estimate"]["method"], "fallback");
  EXPECT_NE(j["estimate"]["fallback_reason"].get<std::string>().find("metadata too sparse to match"),
            std::string::npos);
}

}  // namespace
