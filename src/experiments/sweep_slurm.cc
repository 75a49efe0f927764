#include "experiments/sweep_slurm.h"

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/json.h"

namespace schedmate {
namespace fs = std::filesystem;

namespace {

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

SweepCommandRunner Runner(const SlurmArrayOptions& o) {
  if (o.runner) return o.runner;
  return [](const std::vector<std::string>& argv, int64_t timeout_ms) { return RunCommand(argv, timeout_ms); };
}

void Sleep(const SlurmArrayOptions& o, double seconds) {
  if (o.sleep) return o.sleep(seconds);
  std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000)));
}

std::string Trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// sbatch --parsable prints "ID" or "ID;CLUSTER" (after any warnings).
Result<std::string> ParseJobId(const std::string& output) {
  std::istringstream in(output);
  std::string line, last;
  while (std::getline(in, line))
    if (!Trimmed(line).empty()) last = Trimmed(line);
  const std::string id = last.substr(0, last.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    return Unavailable("sbatch printed no job id: " + output);
  return id;
}

}  // namespace

Result<std::string> WriteSweepBatchScript(const SweepPlan& plan, const std::string& dir) {
  const std::string abs_dir = fs::absolute(dir).lexically_normal().string();
  std::string s = "#!/bin/bash\n";
  s += "# Written by `schedmate experiments run --slurm` for the sweep " + plan.sweep_file + ":\n";
  s +=
      "# array task i runs task i of " + abs_dir + "/tasks.json (its argv there), writing " + abs_dir + "/task-<i>/.\n";
  s += "#SBATCH --job-name=" + plan.name + "\n";
  s += "#SBATCH --output=" + abs_dir + "/task-%a/slurm.out\n";
  s += "#SBATCH --chdir=" + plan.cwd + "\n";
  s += "exec " + ShellQuote(plan.binary) + " experiments task " + ShellQuote(abs_dir) + " \"$SLURM_ARRAY_TASK_ID\"\n";
  const std::string path = abs_dir + "/sweep.sbatch";
  RETURN_IF_ERROR(WriteFileAtomically(path, s));
  std::error_code ec;
  fs::permissions(path, fs::perms::owner_exec, fs::perm_options::add, ec);
  return path;
}

Result<std::string> SubmitSweepArray(const SweepPlan& plan, const std::string& dir, const SlurmArrayOptions& o) {
  if (plan.tasks.empty()) return InvalidArgument("the sweep has no tasks");
  if (plan.tasks.size() > kMaxSlurmArrayTasks)
    return InvalidArgument("the sweep has " + std::to_string(plan.tasks.size()) +
                           " tasks; a SLURM array takes at most " + std::to_string(kMaxSlurmArrayTasks) +
                           " by default (MaxArraySize): split the sweep");
  ASSIGN_OR_RETURN(std::string script, WriteSweepBatchScript(plan, dir));
  std::string array = "--array=0-" + std::to_string(plan.tasks.size() - 1);
  if (o.max_concurrent > 0) array += "%" + std::to_string(o.max_concurrent);
  std::vector<std::string> argv = {"sbatch", "--parsable", array};
  argv.insert(argv.end(), plan.sbatch_args.begin(), plan.sbatch_args.end());
  argv.insert(argv.end(), o.sbatch_args.begin(), o.sbatch_args.end());
  argv.push_back(script);
  ASSIGN_OR_RETURN(CommandOutcome out, Runner(o)(argv, o.command_timeout_ms));
  if (out.timed_out) return Unavailable("sbatch did not answer within its deadline");
  if (out.exit_code != 0)
    return Unavailable("sbatch failed (exit " + std::to_string(out.exit_code) + "): " + Trimmed(out.output));
  ASSIGN_OR_RETURN(std::string id, ParseJobId(out.output));
  Json j = {{"job_id", id}, {"sbatch_argv", argv}, {"tasks", plan.tasks.size()}};
  RETURN_IF_ERROR(WriteFileAtomically((fs::path(dir) / "slurm.json").string(), DumpJson(j, 2) + "\n"));
  return id;
}

bool IsFinalSlurmState(const std::string& state) {
  for (const char* s : {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
                        "DEADLINE", "OUT_OF_MEMORY"})
    if (state == s) return true;
  return false;
}

Result<ArrayStates> ParseArrayStates(const CommandOutcome& squeue) {
  ArrayStates a;
  if (squeue.exit_code != 0) {
    if (squeue.output.find("Invalid job id") != std::string::npos) {
      a.known = false;
      return a;
    }
    return Unavailable("squeue failed (exit " + std::to_string(squeue.exit_code) + "): " + Trimmed(squeue.output));
  }
  std::istringstream in(squeue.output);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string index, state;
    if (!(fields >> index >> state) || index.find_first_not_of("0123456789") != std::string::npos) continue;
    a.states[std::stoul(index)] = state;
  }
  a.known = !a.states.empty();
  return a;
}

Result<ArrayStates> WaitForSweepArray(const std::string& job_id, const std::string& dir, const SlurmArrayOptions& o) {
  const std::vector<std::string> argv = {"squeue", "-h", "-r", "-j", job_id, "--states=all", "-o", "%K %T"};
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double failing_since = -1;
  std::string last_error;
  while (true) {
    auto out = Runner(o)(argv, o.command_timeout_ms);
    Result<ArrayStates> states = out.ok() ? ParseArrayStates(*out) : Result<ArrayStates>(out.status());
    if (states.ok()) {
      failing_since = -1;
      if (o.on_poll) o.on_poll(*states);
      bool active = false;
      for (const auto& [index, state] : states->states) active = active || !IsFinalSlurmState(state);
      if (!active) {
        Json j = Json::object();
        for (const auto& [index, state] : states->states) j[std::to_string(index)] = state;
        RETURN_IF_ERROR(WriteFileAtomically((fs::path(dir) / "slurm_states.json").string(), DumpJson(j, 2) + "\n"));
        return states;
      }
    } else {
      if (failing_since < 0) failing_since = elapsed();
      last_error = states.status().message();
      if (elapsed() - failing_since > 300)
        return Unavailable("cannot read SLURM's queue for 5 minutes (" + last_error + "); job " + job_id +
                           " may still run: `schedmate experiments merge " + dir + "` once it ends");
    }
    if (o.timeout_s > 0 && elapsed() > o.timeout_s)
      return Status(StatusCode::kDeadlineExceeded, "job " + job_id + " still runs after " +
                                                       std::to_string(static_cast<int64_t>(o.timeout_s)) +
                                                       " s; `schedmate experiments merge " + dir + "` once it ends");
    Sleep(o, o.poll_s);
  }
}

std::map<size_t, std::string> ReadSlurmStates(const std::string& dir) {
  std::map<size_t, std::string> out;
  auto j = ReadJsonFile((fs::path(dir) / "slurm_states.json").string());
  if (!j.ok() || !j->is_object()) return out;
  for (const auto& [index, state] : j->items())
    if (state.is_string() && !index.empty() && index.find_first_not_of("0123456789") == std::string::npos)
      out[std::stoul(index)] = state.get<std::string>();
  return out;
}

}  // namespace schedmate
