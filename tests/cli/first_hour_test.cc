// A newcomer's first hour (issue 15): each friction a new user met, run the
// way they ran it — from outside the checkout where the friction was about
// paths.
#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

class FirstHour : public CliTest {};

std::string Source(const std::string& rel) { return std::string(SCHEDMATE_SOURCE_DIR) + "/" + rel; }
bool HaveShared() { return fs::exists(std::string(SCHEDMATE_SHARED_DIR) + "/traces/philly/philly.csv"); }

TEST_F(FirstHour, ConfigPathsResolveWithoutTheCheckout) {
  if (!HaveShared()) GTEST_SKIP() << "../shared/traces/philly/philly.csv absent";
  // From an unrelated directory: the config's ${SHARED}/… trace is found.
  CmdResult r = Exec("lucid --config " + Source("configs/lucid/philly_week.json") +
                         " --max-jobs 200 --json --progress off",
                     dir_.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["runs"][0]["jobs"], 200);
  EXPECT_NE(j["catalog"].get<std::string>().find("measurements"), std::string::npos) << j["catalog"];
  // A relative path is relative to the config file, not to where the command runs.
  fs::create_directories(dir_ / "cfg");
  fs::copy_file(std::string(SCHEDMATE_SHARED_DIR) + "/traces/philly/philly.csv", dir_ / "cfg/trace.csv");
  Write("cfg/exp.json", R"({"trace": {"path": "trace.csv", "format": "philly", "from": "2017-10-01", "to": "2017-10-03"},
                             "cluster": {"nodes": 50}})");
  CmdResult rel = Exec("lucid --config cfg/exp.json --max-jobs 100 --json --progress off", dir_.string());
  ASSERT_EQ(rel.code, 0) << rel.err;
  // A missing one names the config, the field and where it looked.
  Write("cfg/missing.json", R"({"trace": {"path": "nope.csv"}})");
  CmdResult bad = Exec("lucid --config cfg/missing.json", dir_.string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("cfg/missing.json: field 'trace.path'"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("beside the config"), std::string::npos) << bad.err;
  // With no shared data anywhere, ${SHARED} is an error naming what was tried.
  CmdResult none = Exec("lucid --config " + Source("configs/lucid/philly_week.json") + " --shared " +
                            (dir_ / "absent").string(),
                        dir_.string());
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("absent (--shared)"), std::string::npos) << none.err;
}

TEST_F(FirstHour, AMissingCatalogIsLoudNeverSilent) {
  CmdResult c = Exec("world catalog --shared " + (dir_ / "absent").string(), dir_.string());
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.err.find("note: workload catalog: the FLOPs model only"), std::string::npos) << c.err;
  EXPECT_NE(c.out.find("FLOPs model only"), std::string::npos);
  if (!HaveShared()) return;
  // Found from elsewhere without flags: the measurements, and no notice.
  CmdResult found = Exec("world catalog", dir_.string());
  ASSERT_EQ(found.code, 0) << found.err;
  EXPECT_NE(found.out.find("measurements under"), std::string::npos) << found.out;
  EXPECT_EQ(found.err.find("FLOPs model only"), std::string::npos) << found.err;
}

TEST_F(FirstHour, TheReadmeSimulateSequenceReplays) {
  CmdResult a = Exec("simulate --synthetic seren --jobs 300 --nodes 8 --load 0.95 --policy sjf --out run/ --json "
                     "--progress off",
                     dir_.string());
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_TRUE(fs::exists(dir_ / "run/experiment.json"));
  CmdResult b = Exec("simulate --config run/experiment.json --json --progress off", dir_.string());
  ASSERT_EQ(b.code, 0) << b.err;
  auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  for (const char* f : {"jobs", "avg_jct_s", "p99_jct_s", "makespan_s"}) EXPECT_EQ(ja[f], jb[f]) << f;
}

TEST_F(FirstHour, HistoryFlagsWhereUsersPutThemAndTimesInIso8601) {
  fs::create_directories(dir_ / "repo");
  Write("repo/train.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs', type=int, default=3)\n");
  ASSERT_EQ(Exec("history add --job j1 --repo repo --cmd 'python train.py' --duration 60 --completed-at 1700000000 "
                 "--history h.db",
                 dir_.string())
                .code,
            0);
  CmdResult list = Exec("history list --history h.db", dir_.string());
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_NE(list.out.find("2023-11-14T22:13:20Z"), std::string::npos) << list.out;
  CmdResult json = Exec("history list --json --history h.db", dir_.string());
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["completed_at"], "2023-11-14T22:13:20Z");
  ASSERT_EQ(Exec("history export -o out.jsonl --history h.db", dir_.string()).code, 0);
  ASSERT_EQ(Exec("history import out.jsonl --history h2.db", dir_.string()).code, 0);
  EXPECT_NE(Exec("history stats --history h2.db", dir_.string()).out.find("1 records"), std::string::npos);
  EXPECT_EQ(Exec("history --history h.db show j1", dir_.string()).code, 0);  // before the subcommand still works
}

TEST_F(FirstHour, AdviseOnlyReads) {
  fs::create_directories(dir_ / "repo");
  Write("repo/train.py", "print('hi')\n");
  CmdResult r = Exec("advise repo --cmd 'python train.py' --json", dir_.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "schedmate-history.db"));
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["estimate"]["method"], "fallback");
  EXPECT_NE(j["estimate"]["fallback_reason"].get<std::string>().find("no history"), std::string::npos);
}

TEST_F(FirstHour, TyposAreErrorsNamingWhatWasMeant) {
  Write("typo.json", R"({"trace": {"synth": "seren"}, "lucid": {"profile_time_limt_s": 80}})");
  CmdResult lucid = Exec("lucid --config typo.json", dir_.string());
  EXPECT_EQ(lucid.code, 2);
  EXPECT_NE(lucid.err.find("unknown field 'profile_time_limt_s' (did you mean 'profile_time_limit_s'?)"),
            std::string::npos)
      << lucid.err;
  Write("exp.json", R"({"trace": {"synthetic": {"profile": "seren", "jbos": 100}}, "cluster": {"nodes": 4}})");
  CmdResult sim = Exec("simulate --config exp.json", dir_.string());
  EXPECT_EQ(sim.code, 2);
  EXPECT_NE(sim.err.find("unknown field 'jbos'"), std::string::npos) << sim.err;
  CmdResult cmd = Exec("no-such-command --help");
  EXPECT_EQ(cmd.code, 2);
  EXPECT_NE(cmd.err.find("unknown command 'no-such-command'"), std::string::npos) << cmd.err;
  CmdResult hist = Exec("history list --history " + (dir_ / "no/such/dir/h.db").string());
  EXPECT_EQ(hist.code, 2);  // a mistyped path is bad input
  EXPECT_NE(hist.err.find("does not exist"), std::string::npos) << hist.err;
}

TEST_F(FirstHour, DiagnoseExecuteSaysWhatItDidAndTheAuditSaysDryRun) {
  Write("x79.log", "step 1 loss 2\nNVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n");
  // The node-side check (here a stand-in that reports a fault) is what allows the isolation.
  CmdResult r = Exec("diagnose x79.log --execute --audit audit.jsonl --node n1 --job j1 --health-check 'exit 1'",
                     dir_.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("executed     check_node_health -> isolate_node"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dry run: no cluster manager is connected"), std::string::npos) << r.out;
  std::ifstream audit(dir_ / "audit.jsonl");
  std::string line;
  int dry = 0;
  while (std::getline(audit, line)) {
    auto j = nlohmann::json::parse(line);
    EXPECT_NE(j["decision"], "executed") << line;  // nothing was done to a real cluster
    dry += j["decision"] == "dry-run";
  }
  EXPECT_GE(dry, 2);
  CmdResult shadow = Exec("diagnose x79.log --audit audit2.jsonl --node n1 --job j1", dir_.string());
  EXPECT_NE(shadow.out.find("shadow       planned, not executed"), std::string::npos) << shadow.out;
}

TEST_F(FirstHour, LogsFromStandardInputAndSeveralAtOnce) {
  Write("a.log", "step 1/100 loss 2.0 time 0.5\nstep 2/100 loss 1.9 time 0.5\n");
  Write("x79.log", "step 1 loss 2\nNVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n");
  CmdResult t = Exec("track - --json < a.log", dir_.string());
  ASSERT_EQ(t.code, 0) << t.err;
  auto j = nlohmann::json::parse(t.out);
  EXPECT_EQ(j["log"], "stdin");
  EXPECT_EQ(j["step"], 2);
  CmdResult d = Exec("diagnose - --json < x79.log", dir_.string());
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(nlohmann::json::parse(d.out)["faulty_component"], "gpu");
  CmdResult both = Exec("diagnose x79.log x79.log --json", dir_.string());
  ASSERT_EQ(both.code, 0) << both.err;
  std::istringstream lines(both.out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) n += nlohmann::json::parse(line)["log"] == "x79.log";
  EXPECT_EQ(n, 2);  // JSON lines, one per log
  CmdResult text = Exec("track a.log a.log", dir_.string());
  EXPECT_NE(text.out.find("== a.log =="), std::string::npos) << text.out;
  EXPECT_EQ(Exec("track a.log a.log --follow", dir_.string()).code, 2);  // follows one log
}

TEST_F(FirstHour, ListingsHaveJson) {
  CmdResult p = Exec("policies --json");
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_EQ(nlohmann::json::parse(p.out.substr(0, p.out.find('\n')))["name"], "fifo");
  CmdResult s = Exec("synth --list --json");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_TRUE(nlohmann::json::parse(s.out.substr(0, s.out.find('\n'))).contains("jobs_per_hour"));
  CmdResult c = Exec("world catalog --json --shared " + (dir_ / "absent").string());
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(nlohmann::json::parse(c.out)["families"].size(), 15u);
  CmdResult m = Exec("world map --synth seren --synth-jobs 300 --json");
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_EQ(nlohmann::json::parse(m.out)["jobs"], 300);
}

TEST_F(FirstHour, LongRunsShowProgressAndTablesSayWhyPoliciesTie) {
  CmdResult l = Exec("lucid --synth seren --jobs 400 --nodes 4 --progress on");
  ASSERT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.err.find("[lucid] "), std::string::npos) << l.err;
  EXPECT_NE(l.err.find("400/400 jobs"), std::string::npos) << l.err;
  // A real-format trace: the offered load is printed; a rejection shared by every policy is one note.
  Write("t.csv", "# schedmate trace v1\nid,user,vc,name,type,gpus,cpus,submit_s,duration_s,state,batch_size,extra\n"
                 "a,u,,a,,1,0,0,3600,COMPLETED,0,\nb,u,,b,,1,0,60,3600,COMPLETED,0,\n"
                 "big,u,,big,,64,0,120,60,COMPLETED,0,\n");
  CmdResult s = Exec("simulate --trace t.csv --format native --nodes 1 --policy fifo,sjf --progress off", dir_.string());
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("offered load"), std::string::npos) << s.out;
  size_t first = s.out.find("could not run here");
  ASSERT_NE(first, std::string::npos) << s.out;
  EXPECT_EQ(s.out.find("could not run here", first + 1), std::string::npos) << s.out;
}

}  // namespace
