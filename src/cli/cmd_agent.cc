// `schedmate agent slurm`: watches a live SLURM queue (agent/slurm_agent.h).
// This file only parses flags, wires the backends and prints the events.
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include "agent/event_report.h"
#include "agent/slurm_agent.h"
#include "cli/commands.h"
#include "cli/history_open.h"
#include "core/json.h"
#include "core/token_file.h"
#include "history/sqlite_guard_ledger.h"

namespace schedmate {
namespace {

struct AgentArgs {
  bool once = false, json = false;
  double interval_s = 10;
  int64_t max_polls = 0;  // 0: until SIGINT/SIGTERM
  std::string history = kDefaultHistory;
  std::string ledger;  // "" = the history file
  std::string state = "schedmate-agent-state.json";
  std::string enforce;
  std::string audit;
  std::vector<std::string> partitions;
  std::vector<std::string> health_commands, node_logs;
  double health_timeout_s = 120;
  double slurm_timeout_s = 30;
  std::string report_to, report_token_file;  // a `schedmate serve` whose dashboard shows our jobs
  double report_timeout_s = 2;
  RecoveryGuards guards;
};

volatile std::sig_atomic_t g_stop = 0;
void RequestStop(int) { g_stop = 1; }

std::string Str(const Json& e, const char* key) {
  return e.contains(key) && e[key].is_string() ? e[key].get<std::string>() : "";
}

std::string Joined(const Json& list, const char* sep) {
  std::string out;
  if (!list.is_array()) return out;
  for (const auto& s : list) out += (out.empty() ? "" : sep) + (s.is_string() ? s.get<std::string>() : DumpJson(s));
  return out;
}

std::string AdviseLine(const Json& e) {
  const Json& est = e["estimate"];
  if (Str(est, "method") == "history") {
    std::string ids;
    for (const auto& m : est["matches"]) ids += (ids.empty() ? "" : ", ") + Str(m, "id");
    return "estimate " + std::to_string(std::lround(est["duration_s"].get<double>())) + " s from " + ids +
           " (launch '" + Str(e, "launch") + "')";
  }
  return "estimate fallback: " + Str(est, "fallback_reason");
}

std::string ProgressLine(const Json& e) {
  if (e.contains("error")) return "cannot read the log: " + Str(e, "error");
  const Json& p = e["progress"];
  auto num = [&](const char* k) {
    if (!p.contains(k) || !p[k].is_number()) return std::string("-");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", p[k].get<double>());
    return std::string(buf);
  };
  return "step " + num("step") + "/" + num("total_steps") + ", loss " + num("loss") + ", eta " + num("eta_s") +
         " s (+" + DumpJson(e["new_lines"]) + " lines, offset " + DumpJson(e["offset"]) + ")";
}

std::string EndedLine(const Json& e) {
  std::string s = Str(e, "state") + " on " + Str(e, "nodes") + " -> " + Str(e, "end_reason");
  if (e.contains("diagnosis")) {
    const Json& d = e["diagnosis"];
    s += " (" + Str(d, "error_type") + (d.contains("faulty_component") && d["faulty_component"].is_string()
                                            ? "/" + d["faulty_component"].get<std::string>() : "") +
         "): " + Str(d, "root_cause_line").substr(0, 120);
  }
  return s + "; " + Str(e, "history");
}

// One human-readable line per event.
std::string EventLine(const Json& e) {
  const std::string kind = Str(e, "event");
  std::string head = "job " + Str(e, "job") + " " + kind;
  if (kind == "advise") return head + ": " + AdviseLine(e);
  if (kind == "action") return head + " " + Str(e, "step") + " " + Str(e, "decision") + ": " + Str(e, "why");
  if (kind == "progress") return head + ": " + ProgressLine(e);
  if (kind == "ended") return head + ": " + EndedLine(e);
  if (kind == "recovery")
    return head + (e["shadow"].get<bool>() ? " (shadow)" : "") + ": " + Str(e["plan"], "reason") + "; executed [" +
           Joined(e["executed"], ", ") + "] refused [" + Joined(e["refused"], "; ") + "]";
  return head + ": " + Str(e, "why");
}

NodeHealthChecks HealthChecks(const AgentArgs& a) {
  NodeHealthChecks checks;
  const auto timeout_ms = static_cast<int64_t>(a.health_timeout_s * 1000);
  for (const auto& c : a.health_commands) checks.Add(std::make_unique<CommandHealthCheck>(c, timeout_ms));
  for (const auto& p : a.node_logs) checks.Add(std::make_unique<NodeLogHealthCheck>(p));
  return checks;
}

std::string LedgerPath(const AgentArgs& a) {
  if (!a.ledger.empty()) return a.ledger;
  if (a.history.rfind("redis://", 0) == 0)
    CommandFailed(InvalidArgument("--history " + a.history + ": the guard ledger and audit need a SQLite file "
                                  "(--ledger FILE)"));
  return a.history;
}

void PrintEvents(const std::vector<Json>& events, bool json) {
  for (const Json& e : events) std::printf("%s\n", json ? DumpJson(e).c_str() : EventLine(e).c_str());
  std::fflush(stdout);
}

// Sleeps `seconds` in short slices so a signal ends the wait promptly.
void Wait(double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(int64_t(seconds * 1000));
  while (!g_stop && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

void RunSlurmAgent(const AgentArgs& a) {
  auto enforce = ParseEnforceList(a.enforce);
  if (!enforce.ok()) CommandFailed(enforce.status());
  auto store = OpenHistory(a.history);
  if (!store.ok()) CommandFailed(store.status());
  auto history = AdvisorHistory::Open(**store);
  if (!history.ok()) CommandFailed(history.status());
  auto ledger = OpenSqliteGuardLedger(LedgerPath(a));
  if (!ledger.ok()) CommandFailed(ledger.status());
  auto state = AgentState::Load(a.state);
  if (!state.ok()) CommandFailed(state.status());
  std::optional<AuditFile> file;
  if (!a.audit.empty()) {
    auto f = AuditFile::Open(a.audit);
    if (!f.ok()) CommandFailed(f.status());
    file = std::move(*f);
  }
  CommandSlurmClient slurm(static_cast<int64_t>(a.slurm_timeout_s * 1000));
  NodeHealthChecks checks = HealthChecks(a);
  AgentOptions options;
  options.enforce = *enforce;
  options.guards = a.guards;
  options.partitions = {a.partitions.begin(), a.partitions.end()};
  SlurmAgent agent(options, {&slurm, &*history, ledger->get(), checks.empty() ? nullptr : &checks,
                             &SystemClock::Default(), &*state, file ? &*file : nullptr});
  std::optional<EventReporter> reporter;
  if (!a.report_to.empty()) {
    ReportOptions r;
    r.base_url = a.report_to;
    r.deadline_s = a.report_timeout_s;
    if (!a.report_token_file.empty()) {
      auto token = ReadTokenFile(a.report_token_file, "--report-token-file");
      if (!token.ok()) CommandFailed(token.status());
      r.token = *token;
    }
    reporter.emplace(r);
  }
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  const std::string source = std::string("agent slurm@") + host;
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);
  for (int64_t poll = 1; !g_stop; ++poll) {
    auto events = agent.Step();
    if (!events.ok() && a.once) CommandFailed(events.status());
    if (!events.ok()) std::fprintf(stderr, "agent: poll %lld: %s\n", (long long)poll, events.status().message().c_str());
    else PrintEvents(*events, a.json);
    if (events.ok() && reporter)  // the dashboard is for people: a report that fails is said and dropped
      if (Status s = reporter->Report(*events, source); !s.ok())
        PrintEvents({Json{{"event", "report_error"}, {"why", s.message()}}}, a.json);
    if (a.once || (a.max_polls > 0 && poll >= a.max_polls)) break;
    Wait(a.interval_s);
  }
}

}  // namespace

void AddAgentCommand(CLI::App& app) {
  CLI::App* agent = app.add_subcommand("agent", "schedmate beside a live cluster manager.");
  agent->require_subcommand(1);
  auto a = std::make_shared<AgentArgs>();
  CLI::App* cmd = agent->add_subcommand(
      "slurm",
      "Watch a SLURM queue: advise new jobs (estimate from history), track running jobs' logs,\n"
      "diagnose failed ones, record finished ones. Shadow mode (default) changes nothing and\n"
      "audits what it would do; --enforce enables each change on its own.");
  cmd->add_flag("--once", a->once, "Poll once and exit (the state file carries on to the next run)");
  cmd->add_option("--interval", a->interval_s, "Seconds between polls")->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  cmd->add_option("--max-polls", a->max_polls, "Stop after N polls (default: until SIGINT/SIGTERM)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--history", a->history, "History: a SQLite file or redis://host:port[/prefix]")
      ->capture_default_str();
  cmd->add_option("--ledger", a->ledger, "SQLite file for the guard ledger and audit trail (default: the "
                                         "history file; required with a Redis history)");
  cmd->add_option("--state", a->state, "Where the agent remembers jobs between polls and runs")
      ->capture_default_str();
  cmd->add_option("--partition", a->partitions,
                  "Watch only jobs in these partitions (comma-separated; several agents can split one cluster "
                  "and share a redis:// history). Default: every job")
      ->delimiter(',');
  cmd->add_option("--enforce", a->enforce,
                  "Comma-separated changes to make: comment (the estimate), priority (nice by estimate), "
                  "drain (a node with a confirmed fault), requeue (the job it failed; needs drain). "
                  "Default: none, shadow mode");
  cmd->add_option("--health-check", a->health_commands,
                  "Node-side health command, {node} replaced by the node: exit 0 healthy, 1-125 faulty. "
                  "A node is drained only when a node-side check confirms the fault. Repeatable");
  cmd->add_option("--node-log", a->node_logs, "Node-side kernel/driver log ({node} in the path), writable only by "
                                              "root or this service. Repeatable");
  cmd->add_option("--health-timeout", a->health_timeout_s, "Seconds a health command may run")
      ->capture_default_str()->check(CLI::Range(1.0, 3600.0));
  cmd->add_option("--slurm-timeout", a->slurm_timeout_s, "Seconds a squeue/sinfo/scontrol call may run")
      ->capture_default_str()->check(CLI::Range(1.0, 3600.0));
  cmd->add_option("--audit", a->audit, "Also append every audit record to this JSONL file (fsync'd)");
  cmd->add_option("--min-confidence", a->guards.min_confidence, "Diagnosis confidence a recovery needs")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--isolation-quota", a->guards.isolation_quota, "Nodes drained per --quota-window, cluster-wide")
      ->capture_default_str()->check(CLI::Range(0, 1000000));
  cmd->add_option("--quota-window", a->guards.quota_window_s, "Seconds of the isolation quota's window")
      ->capture_default_str()->check(CLI::Range(1, 100000000));
  cmd->add_option("--max-restarts", a->guards.max_restarts, "Requeues per job")->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--cooldown", a->guards.cooldown_s, "Seconds between two requeues of a job")
      ->capture_default_str()->check(CLI::Range(0, 100000000));
  cmd->add_option("--report-to", a->report_to,
                  "A `schedmate serve` (http://127.0.0.1:8470) whose dashboard also shows this agent's jobs: each "
                  "poll's advice, progress and failures go to its POST /v1/jobs/events");
  cmd->add_option("--report-token-file", a->report_token_file,
                  "That service's bearer token (a file only you can read; the service's --token-file)");
  cmd->add_option("--report-timeout", a->report_timeout_s, "Seconds one poll's report may take; then it is dropped")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 60.0));
  cmd->add_flag("--json", a->json, "One JSON object per event and line");
  cmd->callback([a] { RunSlurmAgent(*a); });
}

}  // namespace schedmate
