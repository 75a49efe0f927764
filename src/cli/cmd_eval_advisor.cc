// `schedmate eval advisor`: flags for experiments/advisor_eval.h (the
// generated corpus) and experiments/advisor_real_eval.h (real repositories).
#include <cstdio>

#include "cli/commands.h"
#include "experiments/advisor_eval.h"
#include "experiments/advisor_real_eval.h"

namespace schedmate {
namespace {

void EvalAdvisor(const AdvisorEvalOptions& a) {
  Result<std::string> report = RunAdvisorEval(a, stderr);
  if (!report.ok()) CommandFailed(report.status());
  std::fputs(report->c_str(), stdout);
}

void EvalAdvisorReal(const AdvisorRealEvalOptions& a) {
  Result<std::string> report = RunAdvisorRealEval(a, stderr);
  if (!report.ok()) CommandFailed(report.status());
  std::fputs(report->c_str(), stdout);
}

}  // namespace

void AddEvalAdvisorCommand(CLI::App* eval) {
  auto a = std::make_shared<AdvisorEvalOptions>();
  CLI::App* cmd = eval->add_subcommand(
      "advisor", "Advisor field accuracy, hit rate, false matches, duration and SM-utilisation error, fallback\n"
                 "ratio and latency on a generated corpus of training repositories.");
  cmd->add_option("--projects", a->projects, "Projects generated")->capture_default_str()->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", a->seed, "Seed")->capture_default_str();
  cmd->add_option("--min-score", a->min_score, "Cosine a match needs")->capture_default_str();
  cmd->add_flag("--json", a->json, "Print the metrics as JSON");
  cmd->add_flag("--verbose,-v", a->verbose, "List misses and false matches on stderr");
  auto r = std::make_shared<AdvisorRealEvalOptions>();
  cmd->add_option("--real", r->manifest,
                  "Score the extractor on real repositories instead: a manifest of hand-labelled launch\n"
                  "commands (data/eval/advisor_real.jsonl; docs/advisor-real-corpus.md)");
  cmd->add_option("--mirrors", r->mirrors, "With --real: directory of local git mirrors (owner+name/repo)")
      ->capture_default_str();
  cmd->add_option("--only", r->only, "With --real: one command id or repository");
  cmd->add_flag("--misses", r->misses, "With --real: list every field that is not the label");
  cmd->callback([a, r] {
    if (!r->manifest.empty()) {
      r->json = a->json;
      r->progress = a->verbose;
      EvalAdvisorReal(*r);
      return;
    }
    EvalAdvisor(*a);
  });
}

}  // namespace schedmate
