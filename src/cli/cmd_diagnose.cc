// `schedmate diagnose LOG`: why a job died — the root-cause line, whether
// the cause is infrastructure (and which component), framework/environment
// or the user's script — and `schedmate eval failures`, the module metrics.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/history_open.h"
#include "cli/log_inputs.h"
#include "cli/llm_options.h"
#include "core/facts_json.h"
#include "core/json.h"
#include "core/time_format.h"
#include "failure/diagnose.h"
#include "failure/diagnosis_json.h"
#include "failure/eval_report.h"
#include "failure/evaluation.h"
#include "failure/llm_diagnosis.h"
#include "failure/recovery.h"
#include "failure/signatures.h"
#include "history/sqlite_guard_ledger.h"

namespace schedmate {
namespace {

struct DiagnoseArgs {
  std::vector<std::string> logs;  // LOG… as given ("-" = standard input)
  std::string log, shown;         // the one being read, and its name as given
  bool json = false;
  int context = 500;
  std::string backend = "embedded";
  bool offsets = false;
  JobContext job;
  std::string audit;
  bool execute = false;
  std::string history = kDefaultHistory;  // the guard ledger lives here
  std::vector<std::string> health_commands, node_logs;
  double health_timeout_s = 120;
  LlmArgs llm;
};

// The backend choice; owns the client when one is needed.
struct Backend {
  std::unique_ptr<ChatClient> client;
  DiagnosisChoice choice;
  Backend(const std::string& name, const LlmArgs& llm) {
    choice.backend = *ParseBackendKind(name);
    choice.cascade_threshold = llm.cascade_threshold;
    if (choice.backend != BackendKind::kEmbedded) {
      client = std::make_unique<ChatClient>(MakeEndpoint(llm));
      choice.client = client.get();
    }
  }
};

// The node-side checks the operator configured (none: advice only).
NodeHealthChecks HealthChecks(const DiagnoseArgs& a) {
  NodeHealthChecks checks;
  const auto timeout_ms = static_cast<int64_t>(a.health_timeout_s * 1000);
  for (const auto& c : a.health_commands) checks.Add(std::make_unique<CommandHealthCheck>(c, timeout_ms));
  for (const auto& p : a.node_logs) checks.Add(std::make_unique<NodeLogHealthCheck>(p));
  return checks;
}

// Plans recovery; with --audit or --execute runs the plan through the guards,
// whose state and audit trail live in the history file (shadow mode unless
// --execute, which runs it against the dry-run cluster).
Json Recovery(const DiagnoseArgs& a, const FailureDiagnosis& d) {
  RecoveryPlan plan = PlanRecovery(d, a.job);
  Json j = ToJson(plan);
  if (a.audit.empty() && !a.execute) return j;
  if (a.history.rfind("redis://", 0) == 0)
    CommandFailed(InvalidArgument("--history " + a.history + ": the recovery guards need a SQLite history file"));
  auto ledger = OpenSqliteGuardLedger(a.history);
  if (!ledger.ok()) CommandFailed(ledger.status());
  std::optional<AuditFile> file;
  if (!a.audit.empty()) {
    auto f = AuditFile::Open(a.audit);
    if (!f.ok()) CommandFailed(f.status());
    file = std::move(*f);
  }
  DryRunClusterActions cluster;
  NodeHealthChecks checks = HealthChecks(a);
  RecoveryGuards guards;
  guards.shadow = !a.execute;
  RecoveryExecutor ex(guards, &cluster, ledger->get(), &checks, &SystemClock::Default(), file ? &*file : nullptr);
  ExecutionOutcome o = ex.Execute(d, plan, a.job);
  j["shadow"] = guards.shadow;
  j["dry_run"] = cluster.dry_run();  // no cluster manager is connected here
  j["guards"] = (*ledger)->Describe();
  j["executed"] = o.executed;
  j["refused"] = o.refused;
  j["dry_run_calls"] = cluster.calls();
  return j;
}

void DiagnoseOne(const DiagnoseArgs& a);

// Each LOG in turn: a header per log in text, one JSON object per line (with
// "log") in JSON.
void Diagnose(const DiagnoseArgs& given) {
  auto inputs = LogInputs::Open(given.logs);
  if (!inputs.ok()) CommandFailed(inputs.status());
  DiagnoseArgs a = given;
  for (const LogInput& in : inputs->items()) {
    a.log = in.path;
    a.shown = in.name;
    if (!a.json && inputs->items().size() > 1) std::printf("== %s ==\n", in.name.c_str());
    DiagnoseOne(a);
  }
}

void DiagnoseOne(const DiagnoseArgs& a) {
  Backend backend(a.backend, a.llm);
  auto source = OpenFileSource(a.log);
  if (!source.ok()) CommandFailed(source.status());
  LocateOptions o;
  o.context_lines = a.context;
  o.number_lines = !a.offsets;
  auto t0 = std::chrono::steady_clock::now();
  auto r = DiagnoseLog(**source, o);
  if (!r.ok()) CommandFailed(r.status());
  std::string answered_by;
  r->diagnosis = ChooseDiagnosis(r->located.window, r->diagnosis, backend.choice, &answered_by);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const FailureDiagnosis& d = r->diagnosis;
  if (a.json) {
    Json j = DiagnosisJson(*r, answered_by, (*source)->size(), ms);
    j["log"] = a.shown;
    j["recovery"] = Recovery(a, d);
    std::printf("%s\n", DumpJson(j).c_str());
    return;
  }
  std::printf("error type   %s", std::string(ErrorTypeName(d.error_type)).c_str());
  if (d.faulty_component) std::printf(" (%s)", d.faulty_component->c_str());
  std::printf("\nbackend      %s", answered_by.c_str());
  std::printf("\nconfidence   %.2f%s\n", d.confidence, r->signature_id.empty() ? "" : ("  [" + r->signature_id + "]").c_str());
  if (d.root_cause_line_index)
    std::printf("root cause   %s %lld: %s\n", r->located.lines_are_offsets ? "byte" : "line",
                (long long)*d.root_cause_line_index, d.root_cause_line->substr(0, 300).c_str());
  else
    std::printf("root cause   none found in the %zu lines classified\n", r->located.window.size());
  for (size_t i = 1; i < d.evidence.size(); ++i) std::printf("evidence     %s\n", d.evidence[i].substr(0, 200).c_str());
  Json rec = Recovery(a, d);
  std::string steps;
  for (const auto& s : rec["steps"]) steps += (steps.empty() ? "" : " -> ") + s.get<std::string>();
  std::printf("recovery     %s (%s)\n", steps.c_str(), rec["reason"].get<std::string>().c_str());
  if (rec.contains("executed")) {
    std::string done;
    for (const auto& s : rec["executed"]) done += (done.empty() ? "" : " -> ") + s.get<std::string>();
    if (rec["shadow"].get<bool>())
      std::printf("shadow       planned, not executed (--execute runs it)\n");
    else
      std::printf("executed     %s%s\n", done.empty() ? "nothing" : done.c_str(),
                  rec["dry_run"].get<bool>() ? " (dry run: no cluster manager is connected)" : "");
  }
  if (rec.contains("refused"))
    for (const auto& r : rec["refused"]) std::printf("  refused    %s\n", r.get<std::string>().c_str());
  std::printf("located      %s, %d probes, %lld of %lld bytes read, %.1f ms\n",
              r->located.path.c_str(), r->located.probes,
              (long long)r->located.bytes_read, (long long)(*source)->size(), ms);
}

struct EvalFailuresArgs {
  std::string dataset;
  bool json = false, verbose = false, no_model = false;
  std::string model_dir;
  std::string backend = "embedded";
  int context = 200;
  LlmArgs llm;
};

void EvalFailures(const EvalFailuresArgs& a) {
  auto cases = LoadFailureCases(a.dataset);
  if (!cases.ok()) CommandFailed(cases.status());
  Backend backend(a.backend, a.llm);
  const FailureModel* model = a.no_model ? nullptr : &FailureModel::Default();
  FailureModel custom;
  if (!a.model_dir.empty()) {
    auto m = LoadFailureModel(a.model_dir);
    if (!m.ok()) CommandFailed(m.status());
    custom = std::move(*m);
    model = &custom;
  }
  FailureEvalOptions o;
  o.dataset = a.dataset;
  o.backend = a.backend;
  o.context = a.context;
  o.json = a.json;
  o.verbose = a.verbose;
  std::fputs(RunFailureEval(*cases, o, backend.choice, model).c_str(), stdout);
}

}  // namespace

void AddDiagnoseCommand(CLI::App& app) {
  auto a = std::make_shared<DiagnoseArgs>();
  CLI::App* cmd = app.add_subcommand(
      "diagnose",
      "Why did a job die? Locates the first real error in its log (binary search over byte\n"
      "offsets, so a multi-GB log costs a small fraction), classifies it as infrastructure\n"
      "(gpu, nvlink, network, node, storage), framework/environment or user script.");
  cmd->add_option("LOG", a->logs, "The failed job's log(s); - reads standard input")->required();
  cmd->add_flag("--json", a->json,
                "One JSON object: error_type, faulty_component, root_cause_line, root_cause_line_index, "
                "confidence, evidence, signature, locate");
  cmd->add_option("--context", a->context, "Lines classified around the located failure")
      ->capture_default_str()->check(CLI::Range(10, 100000));
  cmd->add_option("--backend", a->backend,
                  "embedded (knowledge base, default) | llm (OpenAI-compatible endpoint) | cascade (the LLM "
                  "only below --cascade-threshold); an LLM failure falls back to embedded")
      ->capture_default_str()->check(CLI::IsMember({"embedded", "llm", "cascade"}));
  AddLlmOptions(cmd, &a->llm);
  cmd->add_flag("--offsets", a->offsets, "Report byte offsets instead of line numbers (skips counting lines)");
  cmd->add_option("--job", a->job.job_id, "Job id, for the recovery plan and the audit record");
  cmd->add_option("--node", a->job.node, "Node the failing rank ran on (needed to plan an isolation)");
  cmd->add_option("--checkpoint", a->job.checkpoint, "Latest checkpoint to restart from");
  cmd->add_option("--audit", a->audit, "Also append every guarded recovery decision to this JSONL file, each line "
                                       "fsync'd before the action it announces (shadow mode: nothing is executed)");
  cmd->add_flag("--execute", a->execute, "Leave shadow mode: run the plan through the guards against the "
                                         "dry-run cluster (prints the calls it would make)");
  cmd->add_option("--history", a->history,
                  "SQLite history file holding the recovery guards (isolations per hour, restarts and cool-down "
                  "per job) and the audit trail, shared by every process")
      ->capture_default_str();
  cmd->add_option("--health-check", a->health_commands,
                  "Node-side health command, {node} replaced by --node (e.g. \"ssh {node} nvidia-smi -q\", "
                  "\"dcgmi diag -r 1\"): exit 0 healthy, 1-125 faulty. A node is isolated only when a node-side "
                  "check confirms the fault; with none, infrastructure verdicts are advice only. Repeatable");
  cmd->add_option("--node-log", a->node_logs,
                  "Node-side kernel/driver log outside the job's output ({node} in the path), writable only by "
                  "root or this service; a GPU, NVLink or node fault in its tail confirms. Repeatable");
  cmd->add_option("--health-timeout", a->health_timeout_s, "Seconds a health command may run (then: unknown)")
      ->capture_default_str()->check(CLI::Range(1.0, 3600.0));
  cmd->callback([a] { Diagnose(*a); });
}

namespace {

struct AuditArgs {
  std::string history = kDefaultHistory;
  size_t limit = 50;
  bool json = false;
};

void ShowAudit(const AuditArgs& a) {
  if (!std::filesystem::exists(a.history))
    CommandFailed(NotFound(a.history + ": no history file, so no recovery decisions yet (--history names another)"));
  auto ledger = OpenSqliteGuardLedger(a.history);
  if (!ledger.ok()) CommandFailed(ledger.status());
  auto trail = (*ledger)->AuditTrail(a.limit);
  if (!trail.ok()) CommandFailed(trail.status());
  for (const Json& r : *trail) {
    if (a.json) {
      std::printf("%s\n", DumpJson(r).c_str());
      continue;
    }
    std::string when = r.contains("time_ms") && r["time_ms"].is_number_integer()
                           ? FormatIso8601(r["time_ms"].get<int64_t>() / 1000) : "?";
    auto str = [&](const char* k) { return r.contains(k) && r[k].is_string() ? r[k].get<std::string>() : ""; };
    std::printf("%s  %-12s %-10s %-24s %-10s %s\n", when.c_str(), str("job").c_str(), str("node").c_str(),
                str("step").c_str(), str("decision").c_str(), str("why").c_str());
  }
  if (!a.json && trail->empty()) std::printf("no recovery decisions recorded in %s\n", a.history.c_str());
}

}  // namespace

void AddAuditCommand(CLI::App& app) {
  auto a = std::make_shared<AuditArgs>();
  CLI::App* cmd = app.add_subcommand(
      "audit", "The recovery audit trail: every plan, guard decision, health check and action of\n"
               "`diagnose --audit/--execute`, newest last, from the history file that holds the guards.");
  cmd->add_option("--history", a->history, "SQLite history file")->capture_default_str();
  cmd->add_option("--limit,-n", a->limit, "Show the newest N records")->capture_default_str()->check(CLI::Range(1, 1000000));
  cmd->add_flag("--json", a->json, "One JSON object per line, as recorded");
  cmd->callback([a] { ShowAudit(*a); });
}

void AddEvalFailuresCommand(CLI::App* eval) {
  auto a = std::make_shared<EvalFailuresArgs>();
  CLI::App* cmd = eval->add_subcommand(
      "failures", "Failure Handler precision/recall/F1 for infrastructure, 3-way and component accuracy,\n"
                  "root-cause line hits and latency, beside two baselines (last 500 lines; no locator).");
  cmd->add_option("--dataset", a->dataset, "JSONL: {id, category, faulty_component, root_cause_line_index, log}")
      ->required();
  cmd->add_flag("--json", a->json, "Print the metrics as JSON");
  cmd->add_flag("--verbose,-v", a->verbose, "List every case");
  cmd->add_flag("--no-model", a->no_model, "Signatures only (skip the learned classifier)");
  cmd->add_option("--model-dir", a->model_dir,
                  "Directory with failure_line_model.tsv and failure_class_model.tsv (from `schedmate train "
                  "failure-model`) instead of the embedded ones");
  cmd->add_option("--context", a->context, "Lines classified around the located failure (the paper's module "
                                           "evaluation uses 200)")
      ->capture_default_str()->check(CLI::Range(10, 100000));
  cmd->add_option("--backend", a->backend, "embedded | llm | cascade")->capture_default_str()
      ->check(CLI::IsMember({"embedded", "llm", "cascade"}));
  AddLlmOptions(cmd, &a->llm);
  cmd->callback([a] { EvalFailures(*a); });
}

}  // namespace schedmate
