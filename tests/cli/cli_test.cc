// The real `schedmate` binary, run as a user would run it.
#include <nlohmann/json.hpp>

#include "cli_fixture.h"

namespace {

TEST_F(CliTest, HelpListsEveryCommand) {
  CmdResult r = Exec("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* c : {"demo", "simulate", "trace", "synth", "policies", "track", "eval", "gen-logs"})
    EXPECT_NE(r.out.find(c), std::string::npos) << c;
}

TEST_F(CliTest, DemoPrintsAComparisonAndWritesPlots) {
  CmdResult r = Exec("demo --jobs 300 --progress off --out " + (dir_ / "d").string());
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* p : {"fifo", "sjf", "qssf", "tiresias-original", "tiresias-lucid",
                        "tiresias-pollux", "avg JCT h", "calibration"})
    EXPECT_NE(r.out.find(p), std::string::npos) << p;
  for (const char* f : {"jct_cdf.svg", "queue_length.svg", "gpu_utilization.svg", "summary.json",
                        "experiment.json", "fifo_jobs.csv", "fifo_timeseries.csv"})
    EXPECT_TRUE(fs::exists(dir_ / "d" / f)) << f;
  std::ifstream svg(dir_ / "d" / "jct_cdf.svg");
  std::stringstream text;
  text << svg.rdbuf();
  const std::string doc = text.str();
  EXPECT_EQ(doc.substr(0, 5), "<svg ");
  EXPECT_NE(doc.find("300 jobs, 16 nodes x 8 GPUs"), std::string::npos);  // the setting as subtitle
  EXPECT_NE(doc.find(">10k<"), std::string::npos);                       // readable ticks, not 1e+04
  EXPECT_EQ(doc.find("e+0"), std::string::npos);
  EXPECT_NE(doc.find("stroke-dasharray=\"6,3\""), std::string::npos);     // the second series is dashed
}

TEST_F(CliTest, SimulateJsonHasTheFieldsScriptsUse) {
  CmdResult r = Exec("simulate --synthetic seren --jobs 200 --nodes 4 --policy fifo --json "
               "--jobs-out " + (dir_ / "jobs.csv").string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* f : {"jobs", "avg_jct_s", "median_jct_s", "p99_jct_s", "avg_queue_s",
                        "makespan_s", "gpu_utilization", "wall_s"})
    EXPECT_TRUE(j.contains(f)) << f;
  EXPECT_EQ(j["jobs"], 200);
  std::ifstream csv(dir_ / "jobs.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("job_id,submission_time,starting_time,finish_time,waiting_time,"
                         "turnaround_time", 0), 0u);
}

TEST_F(CliTest, ARunIsReproducibleFromItsConfigFile) {
  std::string cfg = (dir_ / "exp.json").string();
  CmdResult a = Exec("simulate --synthetic philly --jobs 300 --nodes 8 --seed 5 "
               "--policy sjf,tiresias-lucid --backfill easy --backfill-estimate user-limit --json --save-config " + cfg);
  ASSERT_EQ(a.code, 0) << a.err;
  std::stringstream saved;
  saved << std::ifstream(cfg).rdbuf();
  EXPECT_NE(saved.str().find("\"backfill\": \"easy\""), std::string::npos) << saved.str();
  CmdResult b = Exec("simulate --config " + cfg + " --json");
  ASSERT_EQ(b.code, 0) << b.err;
  auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  ASSERT_EQ(ja.size(), 2u);
  for (size_t i = 0; i < 2; ++i)
    for (const char* f : {"jobs", "avg_jct_s", "p99_jct_s", "avg_queue_s", "makespan_s"})
      EXPECT_EQ(ja[i][f], jb[i][f]) << f;
}

TEST_F(CliTest, BadTracesEndInAClearErrorNotACrash) {
  std::string vc = Write("vc.csv", "vc,node num\nv,2\n");
  struct Case {
    std::string name, content, want;
  };
  std::vector<Case> cases = {
      {"empty.csv", "", "empty file"},
      {"truncated.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1", "expected 5 fields"},
      {"cols.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66,v,extra\n", ":2: expected 5 fields"},
      {"utf8.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66,v\xff\n", ":2: invalid UTF-8"},
      {"binary.csv", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\0", 12) + std::string(5000, '\0'), "error"},
      {"negative.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,-66.0,1,66,v\n", "column 'duration': '-66.0' is negative"},
  };
  for (const auto& c : cases) {
    std::string path = Write(c.name, c.content);
    CmdResult r = Exec("simulate --trace " + path + " --vc-config " + vc + " --format philly");
    EXPECT_EQ(r.code, 2) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.want), std::string::npos) << c.name << ": " << r.err;
    EXPECT_EQ(r.err.find("terminate"), std::string::npos) << c.name;
  }
}

TEST_F(CliTest, GigabyteSingleLineFailsFast) {
  fs::path big = dir_ / "big.csv";
  { std::ofstream(big) << ""; }
  fs::resize_file(big, 1ull << 30);  // sparse: 1 GiB of NUL bytes, no newline
  auto t0 = std::chrono::steady_clock::now();
  CmdResult r = Exec("trace stats " + big.string());
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("line is longer than"), std::string::npos) << r.err;
  EXPECT_LT(s, 5.0);
}

TEST_F(CliTest, MissingFilesAndFlagsAreExplained) {
  CmdResult r = Exec("simulate --trace /nonexistent.csv --nodes 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/nonexistent.csv: cannot open"), std::string::npos) << r.err;
  r = Exec("simulate --synthetic seren --jobs 10");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no cluster given"), std::string::npos) << r.err;
  r = Exec("simulate --synthetic seren --jobs 10 --nodes 2 --policy lottery");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown policy 'lottery'"), std::string::npos) << r.err;
}

TEST_F(CliTest, TraceConvertAndStats) {
  std::string in = Write("p.csv",
      "timestamp,duration,num_gpus,gpu_time,cluster\n"
      "2017-10-09 07:01:55,66.0,1,66.0,a\n2017-10-09 06:13:03,2951.0,2,5902.0,b\n");
  std::string out = (dir_ / "native.csv").string();
  CmdResult r = Exec("trace convert " + in + " " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  r = Exec("trace stats --json " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["jobs"], 2);
  EXPECT_EQ(j["format"], "philly");  // the origin is recorded
  EXPECT_EQ(j["max_gpus"], 2);
}

TEST_F(CliTest, SynthPrintsCalibration) {
  CmdResult r = Exec("synth --profile kalos --jobs 500 -o " + (dir_ / "k.csv").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("mean_duration_s"), std::string::npos);
  EXPECT_NE(r.out.find("rel.err"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "k.csv"));
}

TEST_F(CliTest, WholePhillyReplayWhenTheTraceIsPresent) {
  std::string s = std::string(SCHEDMATE_SHARED_DIR) + "/traces/philly/";
  if (!fs::exists(s + "philly.csv")) GTEST_SKIP() << "../shared/traces/philly absent";
  CmdResult r = Exec("simulate --trace " + s + "philly.csv --vc-config " + s +
               "philly_vc.csv --policy fifo,tiresias-lucid --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["jobs"], 82229);  // 82,247 minus the 18 jobs of VCs not in philly_vc.csv
  EXPECT_EQ(j[0]["rejected"], 18);
  EXPECT_LT(j[0]["wall_s"].get<double>(), 2.0);
  EXPECT_LT(j[1]["wall_s"].get<double>(), 20.0);
}

TEST_F(CliTest, TrackPrintsTheContractFields) {
  std::string log = Write("train.log",
                          "Loading model\n"
                          "iter 10: loss 2.5000, time 812.50ms\n"
                          "iter 20: loss 2.4000, time 810.00ms\n"
                          "step 20: train loss 2.40, val loss 2.60\n");
  CmdResult r = Exec("track " + log + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["step"], 20);
  EXPECT_DOUBLE_EQ(j["step_time_s"].get<double>(), 0.81);
  EXPECT_DOUBLE_EQ(j["loss"].get<double>(), 2.4);
  for (const char* f : {"total_steps", "throughput", "throughput_unit", "steady_step_time_s", "lines_used"})
    EXPECT_TRUE(j.contains(f)) << f;
  EXPECT_TRUE(j["total_steps"].is_null());
  EXPECT_EQ(j["lines_used"].back(), 2);
}

TEST_F(CliTest, TrackSaysMissingAndRejectsBadInput) {
  std::string log = Write("quiet.log", "Loading model\nRequirement already satisfied: numpy\n");
  CmdResult r = Exec("track " + log + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["status"], "missing");
  EXPECT_EQ(Exec("track " + (dir_ / "absent.log").string()).code, 2);
  EXPECT_EQ(Exec("track " + log + " --backend gpt").code, 2);
  std::string bin = Write("garbage.log", std::string("\x00\xff\xfe\x01iter 5: loss 1.0\r\x1b[31m", 22));
  EXPECT_EQ(Exec("track " + bin + " --json").code, 0);
}

TEST_F(CliTest, TrackFollowAndSlowdown) {
  std::string log = Write("f.log", "");
  {
    std::ofstream out(log);
    for (int i = 0; i < 10; ++i) out << "step " << i << " | loss 1.0 | 1000 samples/s\n";
    for (int i = 10; i < 20; ++i) out << "step " << i << " | loss 1.0 | 500 samples/s\n";
  }
  CmdResult f = Exec("track " + log + " --follow --polls 2 --interval 0 --json");
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_EQ(nlohmann::json::parse(f.out.substr(0, f.out.find('\n')))["step"], 19);
  CmdResult s = Exec("track " + log + " --slowdown-at 10 --json");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NEAR(nlohmann::json::parse(s.out)["ratio"].get<double>(), 0.5, 1e-9);
}

TEST_F(CliTest, GenLogsThenEvalTracker) {
  std::string set = (dir_ / "set.jsonl").string();
  CmdResult g = Exec("gen-logs progress -o " + set + " --count 40 --seed 3");
  ASSERT_EQ(g.code, 0) << g.err;
  CmdResult e = Exec("eval tracker --dataset " + set + " --json");
  ASSERT_EQ(e.code, 0) << e.err;
  auto j = nlohmann::json::parse(e.out);
  EXPECT_EQ(j["cases"], 40);
  EXPECT_GE(j["success_rate"].get<double>(), 0.9);
  std::string bad = Write("bad.jsonl", "{\"id\": \"x\"}\n");
  CmdResult b = Exec("eval tracker --dataset " + bad);
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find("bad.jsonl:1"), std::string::npos) << b.err;
}

TEST_F(CliTest, DiagnosePrintsTheContractFieldsAndAPlan) {
  std::string log = Write("failed.log",
                          "iter 10: loss 2.5000, time 812.50ms\n"
                          "[rank3]: Traceback (most recent call last):\n"
                          "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
                          "W0330 api.py:897] Sending process 155026 closing signal SIGTERM\n");
  std::string audit = (dir_ / "audit.jsonl").string();
  // Run in the test's folder: diagnose keeps its guard ledger in the working
  // directory's history file by default.
  CmdResult r = Exec("diagnose " + log + " --json --node gpu-3 --job 17 --audit " + audit, dir_.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["error_type"], "infrastructure");
  EXPECT_EQ(j["faulty_component"], "gpu");
  EXPECT_EQ(j["root_cause_line_index"], 2);
  EXPECT_EQ(j["root_cause_line"], "RuntimeError: CUDA error: uncorrectable ECC error encountered");
  EXPECT_TRUE(j.contains("confidence"));
  EXPECT_TRUE(j["evidence"].is_array());
  EXPECT_EQ(j["recovery"]["steps"][1], "isolate_node");
  EXPECT_TRUE(j["recovery"]["shadow"].get<bool>());
  EXPECT_TRUE(j["recovery"]["dry_run_calls"].empty());  // shadow: nothing executed
  std::ifstream in(audit);
  std::string first;
  ASSERT_TRUE(std::getline(in, first));
  EXPECT_EQ(nlohmann::json::parse(first)["job"], "17");
  EXPECT_EQ(Exec("diagnose " + (dir_ / "absent.log").string(), dir_.string()).code, 2);
  CmdResult empty = Exec("diagnose " + Write("empty.log", "") + " --json", dir_.string());
  ASSERT_EQ(empty.code, 0) << empty.err;
  EXPECT_EQ(nlohmann::json::parse(empty.out)["error_type"], "unknown");
}

TEST_F(CliTest, EvalAdvisorRealScoresMirrorsAndSkipsWithoutThem) {
  std::string commit(40, 'a');
  std::string line = "{\"id\":\"t-1\",\"repo\":\"o/n\",\"commit\":\"COMMIT\",\"workdir\":\"\",\"split\":\"dev\","
                     "\"command\":\"python train.py --lr 0.1\",\"style\":[\"argparse\"],\"labels\":{\"model_name\":\"resnet50\","
                     "\"model_type\":\"image-classification\",\"dataset\":null,\"training_iterations\":90,\"iteration_type\":"
                     "\"epoch\",\"batch_size\":256,\"hardware.num_gpus\":1,\"learning_rate\":0.1,\"precision\":\"fp32\","
                     "\"framework\":\"pytorch\"}}\n";
  auto with_commit = [&](std::string c) {
    std::string l = line;
    l.replace(l.find("COMMIT"), 6, c);
    return l;
  };
  CmdResult skip = Exec("eval advisor --real " + Write("m.jsonl", with_commit(commit)) + " --mirrors " +
                        (dir_ / "no-mirrors").string());
  EXPECT_EQ(skip.code, 0) << skip.err;
  EXPECT_NE(skip.out.find("skipped"), std::string::npos) << skip.out;
  CmdResult bad = Exec("eval advisor --real " + Write("bad.jsonl", "{\"id\":\"x\"}\n"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("bad.jsonl:1"), std::string::npos) << bad.err;
  if (std::system("git --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "git absent: the mirror part needs it";
  fs::path work = dir_ / "work";
  fs::create_directories(work);
  std::ofstream(work / "train.py") << "import argparse\nimport torch\np = argparse.ArgumentParser()\n"
                                      "p.add_argument('--arch', default='resnet50')\np.add_argument('--epochs', default=90)\n"
                                      "p.add_argument('--batch-size', default=256)\np.add_argument('--lr', default=0.5)\n";
  std::string git = "git -C " + work.string() + " ";
  ASSERT_EQ(std::system((git + "init -q && " + git + "add train.py && " + git +
                         "-c user.name=t -c user.email=t@t commit -qm x").c_str()), 0);
  fs::create_directories(dir_ / "mirrors" / "o+n");
  fs::rename(work / ".git", dir_ / "mirrors" / "o+n" / "repo");
  FILE* p = popen(("git --git-dir=" + (dir_ / "mirrors" / "o+n" / "repo").string() + " rev-parse HEAD").c_str(), "r");
  char buf[64] = {0};
  ASSERT_NE(fgets(buf, sizeof buf, p), nullptr);
  pclose(p);
  std::string head(buf, 40);
  CmdResult r = Exec("eval advisor --real " + Write("m2.jsonl", with_commit(head)) + " --mirrors " +
                     (dir_ / "mirrors").string() + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["commands"], 1);
  EXPECT_DOUBLE_EQ(j["dev"]["fields"]["learning_rate"]["accuracy"].get<double>(), 1.0);  // the command's --lr wins
  EXPECT_DOUBLE_EQ(j["dev"]["fields"]["batch_size"]["accuracy"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["dev"]["fields"]["dataset"]["accuracy"].get<double>(), 1.0);  // null = null
}

TEST_F(CliTest, EvalFailuresReportsMethodAndBaselines) {
  std::string set = Write("f.jsonl",
                          "{\"id\":\"a\",\"category\":\"user\",\"faulty_component\":null,\"root_cause_line_index\":1,"
                          "\"log\":\"loading\\nValueError: bad config\\n\"}\n");
  CmdResult r = Exec("eval failures --dataset " + set + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["locator"]["three_way_accuracy"].get<double>(), 1.0);
  EXPECT_TRUE(j.contains("baseline_last_500_lines"));
  EXPECT_TRUE(j.contains("baseline_no_locator"));
  // -v names what decided each case: a signature's id, or the learned models.
  std::string disk = Write("d.jsonl",
                           "{\"id\":\"d\",\"category\":\"infrastructure\",\"faulty_component\":\"storage\","
                           "\"root_cause_line_index\":1,\"log\":\"step 3\\nOSError: [Errno 28] No space left on device\\n\"}\n");
  CmdResult v = Exec("eval failures --dataset " + disk + " -v");
  ASSERT_EQ(v.code, 0) << v.err;
  EXPECT_NE(v.out.find("ok   d"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("(by storage.full)"), std::string::npos) << v.out;
  CmdResult bad = Exec("eval failures --dataset " + Write("bad.jsonl", "{\"id\":\"a\",\"category\":\"cosmic\",\"log\":\"\"}\n"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("bad.jsonl:1"), std::string::npos) << bad.err;
}

TEST_F(CliTest, HistoryAddThenAdviseMatchesARenamedCopy) {
  std::string train =
      "import argparse\nfrom datasets import load_dataset\np = argparse.ArgumentParser()\n"
      "p.add_argument('--model', default='resnet50')\np.add_argument('--epochs', type=int, default=90)\n"
      "p.add_argument('--batch_size', type=int, default=256)\nds = load_dataset('imagenet-1k')\n";
  fs::create_directories(dir_ / "orig");
  fs::create_directories(dir_ / "copy");
  Write("orig/train.py", train);
  Write("copy/main.py", train);
  std::string db = (dir_ / "h.db").string();
  CmdResult add = Exec("history --history " + db + " add --job j1 --repo " + (dir_ / "orig").string() +
                       " --cmd 'python train.py' --duration 3600 --sm-util 0.5 --completed-at 100");
  ASSERT_EQ(add.code, 0) << add.err;
  CmdResult r = Exec("advise " + (dir_ / "copy").string() + " --cmd 'python main.py --output_dir other' --history " +
                     db + " --as-of 200 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["metadata"]["model_name"], "resnet50");
  EXPECT_EQ(j["metadata"]["iteration_type"], "epoch");
  EXPECT_EQ(j["metadata"]["hardware"]["num_gpus"], 1);  // a plain python launch uses one GPU
  EXPECT_EQ(j["estimate"]["method"], "history");
  EXPECT_DOUBLE_EQ(j["estimate"]["duration_s"].get<double>(), 3600);
  EXPECT_EQ(j["estimate"]["matches"][0]["id"], "j1");
  CmdResult past = Exec("advise " + (dir_ / "copy").string() + " --cmd 'python main.py' --history " + db +
                        " --as-of 50 --json");
  ASSERT_EQ(past.code, 0) << past.err;
  EXPECT_EQ(nlohmann::json::parse(past.out)["estimate"]["method"], "fallback");  // j1 finished later
  CmdResult missing = Exec("advise " + (dir_ / "copy").string() + " --cmd 'python absent.py' --history " + db + " --json");
  ASSERT_EQ(missing.code, 0) << missing.err;
  EXPECT_EQ(nlohmann::json::parse(missing.out)["estimate"]["method"], "fallback");
  EXPECT_EQ(Exec("history --history " + db + " show nope").code, 2);
}

TEST_F(CliTest, WorldCatalogAndMaterialize) {
  CmdResult c = Exec("world catalog --shared " + (dir_ / "no-shared").string());
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("llama3-8b"), std::string::npos);
  EXPECT_NE(c.out.find("flops"), std::string::npos);
  std::string out = (dir_ / "world").string();
  CmdResult m = Exec("world materialize -o " + out + " --family bert --style hf-trainer --count 2");
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_TRUE(fs::exists(dir_ / "world/bert-hf-trainer-1/COMMAND"));
  EXPECT_TRUE(fs::exists(dir_ / "world/bert-hf-trainer-0/TRUTH"));
  EXPECT_EQ(Exec("world materialize -o " + out + " --family gpt5").code, 2);
}

TEST_F(CliTest, WorldMapsATraceAndTheComponentsReadIt) {
  CmdResult map = Exec("world map --synth seren --synth-jobs 300");
  ASSERT_EQ(map.code, 0) << map.err;
  EXPECT_NE(map.out.find("projects"), std::string::npos);
  std::string out = (dir_ / "mapped").string();
  CmdResult m = Exec("world materialize --synth seren --synth-jobs 300 --sample 25 -o " + out);
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_TRUE(fs::exists(dir_ / "mapped/jobs.jsonl"));
  CmdResult c = Exec("world check --json " + out);
  ASSERT_EQ(c.code, 0) << c.err;
  auto j = nlohmann::json::parse(c.out);
  EXPECT_EQ(j["jobs"], 25);
  EXPECT_GE(j["advisor"]["field_accuracy_mean"].get<double>(), 0.95);
  EXPECT_GE(j["tracker"]["success"].get<double>(), 0.9);
  EXPECT_GT(j["failure"]["failed_jobs"].get<int>(), 0);
  EXPECT_GE(j["failure"]["accuracy_3way"].get<double>(), 0.8);
  // A jobs.jsonl that points outside its directory is refused with the line.
  std::ofstream(dir_ / "mapped/jobs.jsonl", std::ios::app)
      << R"({"id":"x","repo":"../../etc","command":"python t.py","log":"logs/x.log","family":"bert","style":"raw-loop",)"
      << R"("step_time_s":1,"steps_run":1,"log_every":1,"progress_lines":0,"truth":{"model_name":"m","model_type":"t",)"
      << R"("dataset":"d","training_iterations":1,"iteration_type":"step","batch_size":1,"num_gpus":1}})" << "\n";
  CmdResult bad = Exec("world check " + out);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("jobs.jsonl:26"), std::string::npos) << bad.err;
  CmdResult cal = Exec("world calibrate --synth seren --synth-jobs 300 --json --progress off");
  ASSERT_EQ(cal.code, 0) << cal.err;
  auto k = nlohmann::json::parse(cal.out);
  EXPECT_GT(k["hit_rate"].get<double>(), 0.1);
  EXPECT_EQ(Exec("world map").code, 2);  // neither --trace nor --synth
}

TEST_F(CliTest, LucidComparesBothPoliciesAndNamesBadConfigFields) {
  CmdResult r = Exec("lucid --synth seren --jobs 300 --nodes 4 --load 0.9 --json --progress off");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["runs"][0]["label"], "lucid");
  EXPECT_EQ(j["runs"][1]["label"], "lucid+schedmate");
  EXPECT_EQ(j["runs"][0]["jobs"], 300);
  EXPECT_EQ(j["runs"][1]["jobs"], 300);
  EXPECT_GT(j["runs"][1]["schedmate"]["advised"].get<int>(), 0);
  EXPECT_EQ(j["runs"][0]["history_hits"], 0);
  EXPECT_NE(j["setting"].get<std::string>().find("4 nodes"), std::string::npos);
  std::ofstream(dir_ / "bad.json") << R"({"trace": {"synth": "seren"}, "lucid": {"profile_time_limit_s": "soon"}})";
  CmdResult bad = Exec("lucid --config " + (dir_ / "bad.json").string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("profile_time_limit_s"), std::string::npos) << bad.err;
  std::ofstream(dir_ / "window.json") << R"({"trace": {"synth": "seren", "from": "2017-13-01"}})";
  EXPECT_EQ(Exec("lucid --config " + (dir_ / "window.json").string()).code, 2);
  EXPECT_EQ(Exec("lucid").code, 2);  // no trace
  // Regression: the LLM variant's reserved GPU made whole-cluster jobs
  // impossible, and they silently left its averages. The cluster is sized so
  // every run replays the same jobs.
  std::ofstream(dir_ / "llm.json") << R"({"variants": [{"label": "llm", "advisor_latency_s": 9}]})";
  CmdResult llm = Exec("lucid --config " + (dir_ / "llm.json").string() +
                       " --synth seren --jobs 300 --nodes 4 --load 0.9 --max-gpus 32 --json --progress off");
  ASSERT_EQ(llm.code, 0) << llm.err;
  auto k = nlohmann::json::parse(llm.out);
  EXPECT_EQ(k["runs"][0]["jobs"], 300);
  EXPECT_EQ(k["runs"][1]["jobs"], 300);
  EXPECT_NE(k["setting"].get<std::string>().find("5 nodes"), std::string::npos) << k["setting"];
}

}  // namespace
