// `schedmate experiments run|merge|task`: a sweep file expanded into tasks
// (experiments/sweep_spec.h), run here or as one SLURM job array, and merged
// into one summary. This file parses flags and prints; the runners live in
// experiments/sweep_*.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/json.h"
#include "experiments/research_report.h"
#include "experiments/sweep_local.h"
#include "experiments/sweep_merge.h"
#include "experiments/sweep_plan.h"
#include "experiments/sweep_slurm.h"
#include "experiments/sweep_spec.h"
#include "experiments/sweep_task_exec.h"

namespace schedmate {
namespace {
namespace fs = std::filesystem;

struct RunArgs {
  std::string sweep, out;
  std::vector<std::string> only;
  bool slurm = false, local = false, no_wait = false, force = false, dry_run = false, json = false;
  int parallel = 1, max_concurrent = 0;
  double poll_s = 2, timeout_s = 0;
  std::vector<std::string> sbatch_args;
};

std::string SelfBinary() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) CommandFailed(Internal("cannot find this program's path (/proc/self/exe): " + ec.message()));
  return self.string();
}

std::string Absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

void PrintDryRun(const SweepPlan& plan, const std::string& dir, bool json) {
  if (json) {
    std::printf("%s\n", ReadJsonFile(dir + "/tasks.json").value().dump(2).c_str());
    return;
  }
  for (const SweepTask& t : plan.tasks) {
    std::string argv;
    for (const std::string& a : t.argv) argv += (argv.empty() ? "" : " ") + a;
    std::printf("task %zu  %s / %s / seed %lld\n  %s\n", t.index, t.experiment.c_str(), t.setting.c_str(),
                static_cast<long long>(t.seed), argv.c_str());
  }
  std::printf("%zu tasks written to %s/tasks.json (nothing run)\n", plan.tasks.size(), dir.c_str());
}

// Writes DIR/summary.json, prints the merge, and fails (exit 1) when a task failed or is missing.
void MergeAndPrint(const std::string& dir, bool json) {
  auto merged = MergeSweep(dir);
  if (!merged.ok()) CommandFailed(merged.status());
  const Json j = MergedSweepToJson(*merged);
  if (Status s = WriteFileAtomically(dir + "/summary.json", DumpJson(j, 2) + "\n"); !s.ok()) CommandFailed(s);
  if (json)
    std::printf("%s\n", DumpJson(j, 2).c_str());
  else
    std::printf("%s\nwrote %s/summary.json\n", FormatMergedSweep(*merged).c_str(), dir.c_str());
  std::fflush(stdout);
  if (!merged->complete())
    CommandFailed(Internal(std::to_string(merged->failed) + " failed and " + std::to_string(merged->missing) +
                           " missing of " + std::to_string(merged->tasks.size()) + " tasks (listed in " + dir +
                           "/summary.json)"));
}

void RunLocal(const SweepPlan& plan, const std::string& dir, int parallel) {
  size_t done = 0;
  LocalRunOptions options{
      parallel, [&](const SweepTask& t, const TaskResult& r) {
        ++done;
        std::fprintf(stderr, "[%zu/%zu] task %zu %s / %s / seed %lld: %s, %.1f s\n", done, plan.tasks.size(), t.index,
                     t.experiment.c_str(), t.setting.c_str(), static_cast<long long>(t.seed),
                     r.exit_code == 0 ? "ok" : ("FAILED exit " + std::to_string(r.exit_code)).c_str(), r.wall_s);
      }};
  if (Status s = RunSweepLocally(plan, dir, options); !s.ok()) CommandFailed(s);
}

// Submits the array; returns false when the command ends after submitting (--no-wait).
bool RunSlurm(const SweepPlan& plan, const std::string& dir, const RunArgs& a) {
  SlurmArrayOptions o;
  o.sbatch_args = a.sbatch_args;
  o.max_concurrent = a.max_concurrent;
  o.poll_s = a.poll_s;
  o.timeout_s = a.timeout_s;
  std::string last;
  o.on_poll = [&](const ArrayStates& s) {
    size_t ended = 0;
    for (const auto& [i, state] : s.states) ended += IsFinalSlurmState(state);
    std::string line = std::to_string(ended) + "/" + std::to_string(plan.tasks.size()) + " tasks ended";
    if (line != last) std::fprintf(stderr, "slurm: %s\n", line.c_str());
    last = line;
  };
  auto job = SubmitSweepArray(plan, dir, o);
  if (!job.ok()) CommandFailed(job.status());
  std::fprintf(stderr, "submitted job array %s: %zu tasks (%s/sweep.sbatch)\n", job->c_str(), plan.tasks.size(),
               dir.c_str());
  if (a.no_wait) {
    if (a.json) {
      std::printf("%s\n", DumpJson(Json{{"job_id", *job}, {"tasks", plan.tasks.size()}, {"dir", dir}}).c_str());
    } else {
      std::printf("%s\n", job->c_str());
    }
    return false;
  }
  auto states = WaitForSweepArray(*job, dir, o);
  if (!states.ok()) CommandFailed(states.status());
  return true;
}

std::string HostName() {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  return host;
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

// A research suite: every sweep of the directory (or --only some) through one
// pool of -j slots into OUT/<sweep>/, then OUT/README.md and its plots.
void RunSuite(const RunArgs& a, const std::string& command) {
  if (a.slurm)
    CommandFailed(InvalidArgument("a suite runs locally; on SLURM run each sweep with 'experiments run SWEEP.json "
                                  "--slurm --out OUT/<sweep name>', then 'experiments report OUT --suite DIR'"));
  auto specs = ReadSuite(a.sweep, a.only);
  if (!specs.ok()) CommandFailed(specs.status());
  const std::string out = Absolute(a.out);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) CommandFailed(Unavailable(out + ": cannot create: " + ec.message()));
  const std::string self = SelfBinary();
  std::vector<SweepPlan> plans;
  for (const SweepSpec& spec : *specs) plans.push_back(ExpandSweep(spec, self, out + "/" + spec.name));
  std::vector<LocalSweep> pool;
  for (const SweepPlan& plan : plans) {
    const std::string dir = out + "/" + plan.name;
    if (Status s = WriteSweepPlan(plan, dir, a.force); !s.ok()) CommandFailed(s);
    pool.push_back({&plan, dir});
  }
  size_t total = 0;
  for (const SweepPlan& p : plans) total += p.tasks.size();
  if (a.dry_run) {
    for (const LocalSweep& s : pool) PrintDryRun(*s.plan, s.dir, false);
    std::printf("%zu sweeps, %zu tasks (nothing run)\n", plans.size(), total);
    return;
  }
  const std::string started = UtcNow();
  const auto t0 = std::chrono::steady_clock::now();
  size_t done = 0;
  LocalRunOptions options{a.parallel, [&](const SweepTask& t, const TaskResult& r) {
                            ++done;
                            const double at = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                            std::fprintf(stderr, "[%zu/%zu %.0f s] %s / %s / seed %lld: %s, %.1f s\n", done, total, at,
                                         t.experiment.c_str(), t.setting.c_str(), static_cast<long long>(t.seed),
                                         r.exit_code == 0 ? "ok" : ("FAILED exit " + std::to_string(r.exit_code)).c_str(),
                                         r.wall_s);
                          }};
  if (Status s = RunSweepsLocally(pool, options); !s.ok()) CommandFailed(s);
  SuiteRun run;
  run.suite_dir = a.sweep;
  run.command = command;
  run.host = HostName();
  run.started = started;
  run.parallel = a.parallel;
  run.cores = static_cast<int>(std::thread::hardware_concurrency());
  size_t failed = 0;
  for (const LocalSweep& s : pool) {
    auto merged = MergeSweep(s.dir);
    if (!merged.ok()) CommandFailed(merged.status());
    if (Status st = WriteFileAtomically(s.dir + "/summary.json", DumpJson(MergedSweepToJson(*merged), 2) + "\n");
        !st.ok())
      CommandFailed(st);
    failed += merged->failed + merged->missing;
    run.sweeps.push_back(s.plan->name);
    std::printf("%s: %zu tasks, %zu ok, %zu failed, %zu missing\n", s.plan->name.c_str(), merged->tasks.size(),
                merged->ok, merged->failed, merged->missing);
  }
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (Status s = WriteFileAtomically(out + "/suite.json", DumpJson(SuiteRunToJson(run), 2) + "\n"); !s.ok())
    CommandFailed(s);
  if (Status s = WriteResearchReport(a.sweep, out, run); !s.ok()) CommandFailed(s);
  std::printf("wrote %s/README.md (end to end %.1f s)\n", out.c_str(), run.wall_s);
  std::fflush(stdout);
  if (failed) CommandFailed(Internal(std::to_string(failed) + " tasks failed or are missing (named in " + out + "/README.md)"));
}

void Run(const RunArgs& a, const std::string& command) {
  std::error_code ec;
  if (fs::is_directory(a.sweep, ec)) return RunSuite(a, command);
  if (!a.only.empty()) CommandFailed(InvalidArgument("--only selects sweeps of a suite: give a directory, not " + a.sweep));
  auto spec = ReadSweepFile(a.sweep);
  if (!spec.ok()) CommandFailed(spec.status());
  const std::string dir = Absolute(a.out);
  SweepPlan plan = ExpandSweep(*spec, SelfBinary(), dir);
  if (a.slurm && plan.tasks.size() > kMaxSlurmArrayTasks)
    CommandFailed(InvalidArgument(a.sweep + ": " + std::to_string(plan.tasks.size()) +
                                  " tasks; a SLURM array takes at most " + std::to_string(kMaxSlurmArrayTasks) +
                                  " by default (MaxArraySize): split the sweep"));
  if (Status s = WriteSweepPlan(plan, dir, a.force); !s.ok()) CommandFailed(s);
  if (a.dry_run) return PrintDryRun(plan, dir, a.json);
  if (a.slurm) {
    if (!RunSlurm(plan, dir, a)) return;
  } else {
    RunLocal(plan, dir, a.parallel);
  }
  MergeAndPrint(dir, a.json);
}

void RunOneTask(const std::string& dir, int64_t index) {
  auto plan = ReadSweepPlan(dir);
  if (!plan.ok()) CommandFailed(plan.status());
  if (index < 0 || static_cast<size_t>(index) >= plan->tasks.size())
    CommandFailed(InvalidArgument("task " + std::to_string(index) + ": " + dir + " has tasks 0.." +
                                  std::to_string(plan->tasks.size() - 1)));
  auto r = RunSweepTask(*plan, dir, static_cast<size_t>(index));
  if (!r.ok()) CommandFailed(r.status());
  if (r->exit_code != 0) throw CLI::RuntimeError(r->exit_code);  // SLURM records the task's own exit code
}

void AddRun(CLI::App* experiments) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* cmd = experiments->add_subcommand(
      "run",
      "Expand a sweep file (experiments x settings x seeds) into tasks, write DIR/tasks.json (task i -> its\n"
      "exact argv), run them here (--local, -j N at a time) or as one SLURM job array (--slurm: sbatch\n"
      "--array=0-(N-1), each array task running its argv into DIR/task-<i>/), wait, and merge every task's\n"
      "--json summary into DIR/summary.json and a table with the mean over seeds. A failed or missing task\n"
      "is named with its stderr path and the command exits 1. Format: docs/experiments.md.");
  cmd->add_option("sweep", a->sweep,
                  "The sweep file (JSON), or a research suite: a directory of sweep files (configs/research), run\n"
                  "into OUT/<sweep>/ with one report OUT/README.md (tables beside the research, plots, costs, wall)")
      ->required();
  cmd->add_option("--only", a->only, "Suite: run only this sweep (by name; repeatable or comma-separated)")
      ->delimiter(',');
  cmd->add_option("--out", a->out, "The sweep directory (tasks.json, task-<i>/, summary.json)")->required();
  auto* slurm = cmd->add_flag("--slurm", a->slurm,
                              "Submit one SLURM job array (the directory must be on a filesystem "
                              "every node sees)");
  auto* local = cmd->add_flag("--local", a->local, "Run the tasks on this machine (the default)");
  slurm->excludes(local);
  cmd->add_option("-j,--parallel", a->parallel, "--local: tasks at a time")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--no-wait", a->no_wait, "--slurm: submit, print the job id and exit (merge later)");
  cmd->add_option("--poll", a->poll_s, "--slurm: seconds between two squeue polls")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--timeout", a->timeout_s, "--slurm: stop waiting after S seconds (0: no limit); the array goes on")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--sbatch-arg", a->sbatch_args,
                  "--slurm: one more sbatch argument (--partition=P, --time=1:00:00, "
                  "--gres=gpu:1…), after the sweep file's slurm.sbatch_args. Repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--max-concurrent", a->max_concurrent, "--slurm: array tasks running at once (--array=…%K)")
      ->check(CLI::Range(0, 100000));
  cmd->add_flag("--force", a->force, "Reuse a directory that already holds a sweep (its old results are replaced)");
  cmd->add_flag("--dry-run", a->dry_run, "Write tasks.json and print each task's argv; run nothing");
  cmd->add_flag("--json", a->json, "Print the merged summary (or, with --no-wait, the job id) as JSON");
  cmd->callback([a] {
    std::string line = "schedmate experiments run " + a->sweep + " --out " + a->out;
    if (a->parallel > 1) line += " -j " + std::to_string(a->parallel);
    for (const std::string& o : a->only) line += " --only " + o;
    Run(*a, line);
  });
}

void AddMerge(CLI::App* experiments) {
  auto dir = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = experiments->add_subcommand(
      "merge",
      "Merge a sweep directory's task results into DIR/summary.json and print the table (per task and the mean\n"
      "over seeds per setting). Exit 1 when any task failed or is missing; each is named with why and its\n"
      "stderr path.");
  cmd->add_option("dir", *dir, "The sweep directory (--out of experiments run)")->required();
  cmd->add_flag("--json", *json, "Print the merged summary as JSON");
  cmd->callback([dir, json] { MergeAndPrint(Absolute(*dir), *json); });
}

void AddReport(CLI::App* experiments) {
  auto dir = std::make_shared<std::string>();
  auto suite = std::make_shared<std::string>();
  CLI::App* cmd = experiments->add_subcommand(
      "report",
      "Write DIR/README.md and its plots again from a suite's results (DIR of 'experiments run SUITE --out DIR'),\n"
      "without rerunning: after editing a sweep's research section, or after running its sweeps one by one\n"
      "(e.g. on SLURM) into DIR/<sweep name>/.");
  cmd->add_option("dir", *dir, "The suite's output directory")->required();
  cmd->add_option("--suite", *suite, "The suite directory (default: the one DIR/suite.json names)");
  cmd->callback([dir, suite] {
    const std::string out = Absolute(*dir);
    SuiteRun run;
    if (auto r = ReadSuiteRun(out); r.ok())
      run = *r;
    else if (suite->empty())
      CommandFailed(r.status());
    if (!suite->empty()) run.suite_dir = *suite;
    if (run.command.empty()) run.command = "schedmate experiments report " + *dir;
    if (Status s = WriteResearchReport(run.suite_dir, out, run); !s.ok()) CommandFailed(s);
    std::printf("wrote %s/README.md\n", out.c_str());
  });
}

void AddTask(CLI::App* experiments) {
  auto dir = std::make_shared<std::string>();
  auto index = std::make_shared<int64_t>(-1);
  CLI::App* cmd = experiments->add_subcommand(
      "task",
      "Run task INDEX of a sweep directory: what each SLURM array task does (also to rerun one by hand).\n"
      "Writes DIR/task-<i>/summary.json, stderr.txt and result.json; exits with the task's exit code.");
  cmd->add_option("dir", *dir, "The sweep directory")->required();
  cmd->add_option("index", *index, "The task's index in DIR/tasks.json")->required();
  cmd->callback([dir, index] { RunOneTask(Absolute(*dir), *index); });
}

}  // namespace

void AddExperimentsCommand(CLI::App& app) {
  CLI::App* experiments = app.add_subcommand(
      "experiments", "Experiment sweeps (many seeds, settings, traces) run here or as a SLURM job array.");
  experiments->require_subcommand(1);
  AddRun(experiments);
  AddMerge(experiments);
  AddReport(experiments);
  AddTask(experiments);
}

}  // namespace schedmate
