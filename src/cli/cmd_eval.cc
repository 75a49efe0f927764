// `schedmate eval lines`: the stage-1 line classifier's confusion matrix on a
// labelled set (default: data/line_labels_dev.tsv, run from the checkout).
// `schedmate eval tracker`: the Metric Tracker's module metrics on a JSONL
// dataset of logs with truth (../shared/realdata/progress.jsonl format).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/llm_options.h"
#include "core/facts_json.h"
#include "text/line_classifier.h"
#include "text/line_eval.h"
#include "tracker/evaluation.h"
#include "tracker/field_tagger.h"
#include "tracker/llm_progress.h"

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

struct EvalLinesArgs {
  std::string dataset = "data/line_labels_dev.tsv";
  float margin = 0.05f;
};

void EvalLines(const EvalLinesArgs& a) {
  Result<std::string> report = RunLineEval(a.dataset, a.margin);
  if (!report.ok()) CommandFailed(report.status());
  std::fputs(report->c_str(), stdout);
}

struct EvalTrackerArgs {
  std::string dataset;
  bool verbose = false, json = false, no_stage1 = false, no_tagger = false;
  std::string tagger_weights;
  int samples = 10;
  std::string backend = "embedded";
  LlmArgs llm;
};

std::string Show(const std::optional<double>& v) {
  if (!v) return "null";
  if (std::isnan(*v)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}
std::string Show(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "null"; }

void PrintFailure(const CaseOutcome& o, const ProgressTruth& t) {
  std::printf("  FAIL %-6s %s%-40.40s", o.id.c_str(), o.split.empty() ? "" : ("[" + o.split + "] ").c_str(),
              o.framework.c_str());
  if (!o.step_ok) std::printf(" step %s (truth %s)", Show(o.got.step).c_str(), Show(t.step).c_str());
  if (!o.time_ok)
    std::printf(" step_time %s (truth %s)", Show(o.got.step_time_s).c_str(), Show(t.step_time_s).c_str());
  if (!o.loss_ok) std::printf(" loss %s (truth %s)", Show(o.got.loss).c_str(), Show(t.loss).c_str());
  if (!o.total_ok)
    std::printf(" total %s (truth %s)", Show(o.got.total_steps).c_str(), Show(t.total_steps).c_str());
  std::printf("\n");
  if (!o.source.empty()) std::printf("       %s\n", o.source.c_str());
}

// The outcomes of one part of the dataset: a split ("dev"/"val") or the
// synthetic sets' clean/noisy halves.
std::vector<CaseOutcome> Part(const std::vector<CaseOutcome>& all, const std::function<bool(const CaseOutcome&)>& in) {
  std::vector<CaseOutcome> part;
  for (const auto& o : all)
    if (in(o)) part.push_back(o);
  return part;
}

Json SummaryJson(const TrackerEvalSummary& s) {
  auto rate = [&](int k) { return s.cases ? double(k) / s.cases : 0.0; };
  return {{"cases", s.cases}, {"success_rate", rate(s.successes)}, {"rmsre_step_time", s.rmsre_step_time},
          {"field_accuracy", {{"step", rate(s.step_ok)}, {"total_steps", rate(s.total_ok)},
                              {"step_time_s", rate(s.time_ok)}, {"throughput", rate(s.throughput_ok)},
                              {"throughput_unit", rate(s.unit_ok)}, {"loss", rate(s.loss_ok)}}}};
}

void PrintSplitTable(const std::vector<CaseOutcome>& outcomes) {
  bool any = false;
  for (const char* split : {"dev", "val"}) {
    auto part = Part(outcomes, [&](const CaseOutcome& o) { return o.split == split; });
    if (part.empty()) continue;
    if (!any) std::printf("\nby split            cases  success  RMSRE   step  total  time  thru  unit  loss\n");
    any = true;
    TrackerEvalSummary p = Summarize(part);
    auto pct = [&](int k) { return 100.0 * k / p.cases; };
    std::printf("  %-16s %6d  %6.1f%%  %5.3f  %5.1f  %5.1f  %4.1f  %4.1f  %4.1f  %4.1f\n",
                split, p.cases, pct(p.successes), p.rmsre_step_time, pct(p.step_ok), pct(p.total_ok), pct(p.time_ok),
                pct(p.throughput_ok), pct(p.unit_ok), pct(p.loss_ok));
  }
}

void EvalTracker(const EvalTrackerArgs& a) {
  auto cases = LoadTrackerCases(a.dataset);
  if (!cases.ok()) CommandFailed(cases.status());
  ProgressScanOptions options;
  options.samples = a.samples;
  options.stage1 = !a.no_stage1;
  if (a.no_tagger) options.tagger = nullptr;
  std::unique_ptr<FieldTagger> custom_tagger;
  if (!a.tagger_weights.empty()) {
    std::ifstream in(a.tagger_weights, std::ios::binary);
    if (!in) CommandFailed(NotFound(a.tagger_weights + ": cannot open"));
    std::stringstream text;
    text << in.rdbuf();
    auto t = FieldTagger::Parse(text.str());
    if (!t.ok()) CommandFailed(t.status().WithContext(a.tagger_weights));
    custom_tagger = std::make_unique<FieldTagger>(std::move(*t));
    options.tagger = custom_tagger.get();
  }
  BackendChoice choice;
  choice.backend = *ParseTrackerBackend(a.backend);
  choice.cascade_threshold = a.llm.cascade_threshold;
  std::unique_ptr<ChatClient> client;
  if (choice.backend != TrackerBackend::kEmbedded) {
    client = std::make_unique<ChatClient>(MakeEndpoint(a.llm));
    choice.client = client.get();
  }
  LineClassifier::Default();  // built once, outside the timed cases
  int llm_answers = 0, fallbacks = 0, unsure = 0;
  ProgressExtractor extract = [&](const std::vector<std::string>& lines, ProgressScanStats* st) {
    ProgressScan scan(options);
    for (size_t i = lines.size(); i-- > 0;)
      if (!scan.Add(lines[i], static_cast<int64_t>(i))) break;
    *st = scan.stats();
    ProgressReport embedded = scan.Finish();
    unsure += embedded.confidence < choice.cascade_threshold;
    ProgressReport r = ChooseProgress(scan, std::move(embedded), choice);
    llm_answers += r.backend == "llm";
    fallbacks += r.backend.rfind("embedded (llm", 0) == 0;
    return r;
  };
  std::vector<CaseOutcome> outcomes;
  for (size_t i = 0; i < cases->size(); ++i) {
    outcomes.push_back(EvaluateCase((*cases)[i], extract));
    if (!a.json && cases->size() >= 200 && (i + 1) % 200 == 0)
      std::fprintf(stderr, "\r%zu/%zu logs", i + 1, cases->size());
  }
  if (!a.json && cases->size() >= 200) std::fprintf(stderr, "\n");
  TrackerEvalSummary s = Summarize(outcomes);
  if (a.json) {
    Json cases_json = Json::array();
    for (const auto& o : outcomes)
      cases_json.push_back({{"id", o.id}, {"split", o.split}, {"source", o.source}, {"success", o.success},
                            {"latency_ms", o.latency_ms}, {"report", ToJson(o.got)}});
    Json subsets = Json::object();
    for (const char* split : {"dev", "val"}) {
      auto part = Part(outcomes, [&](const CaseOutcome& o) { return o.split == split; });
      if (!part.empty()) subsets[split] = SummaryJson(Summarize(part));
    }
    for (bool noisy : {false, true}) {
      std::vector<CaseOutcome> part;
      for (const auto& o : outcomes)
        if (o.noisy == noisy) part.push_back(o);
      if (part.empty()) continue;
      TrackerEvalSummary p = Summarize(part);
      subsets[noisy ? "noisy" : "clean"] = {{"cases", p.cases}, {"success_rate", double(p.successes) / p.cases},
                                            {"rmsre_step_time", p.rmsre_step_time}};
    }
    Json j = {{"dataset", a.dataset}, {"backend", a.backend}, {"llm_answers", llm_answers}, {"llm_fallbacks", fallbacks}, {"cascade_llm_calls", unsure}, {"cases", s.cases}, {"subsets", subsets},
              {"success_rate", double(s.successes) / s.cases},
              {"rmsre_step_time", s.rmsre_step_time},
              {"field_accuracy", {{"step", double(s.step_ok) / s.cases},
                                  {"total_steps", double(s.total_ok) / s.cases},
                                  {"step_time_s", double(s.time_ok) / s.cases},
                                  {"throughput", double(s.throughput_ok) / s.cases},
                                  {"throughput_unit", double(s.unit_ok) / s.cases},
                                  {"loss", double(s.loss_ok) / s.cases}}},
              {"latency_ms", {{"mean", s.latency_ms_mean}, {"p50", s.latency_ms_p50},
                              {"max", s.latency_ms_max}}},
              {"stage1", {{"lines", s.stats.lines}, {"bytes", s.stats.bytes},
                          {"kept_lines", s.stats.kept_lines}, {"kept_bytes", s.stats.kept_bytes}}},
              {"per_case", cases_json}};
    std::printf("%s\n", DumpJson(j, 2).c_str());
    return;
  }
  std::printf("Metric Tracker on %s (%d cases, %s backend%s)\n\n", a.dataset.c_str(), s.cases, a.backend.c_str(),
              a.no_stage1 ? ", stage 1 off" : "");
  if (choice.backend != TrackerBackend::kEmbedded)
    std::printf("llm answers        %d, fallbacks to embedded after an llm error %d\n", llm_answers, fallbacks);
  auto pct = [&](int k) { return 100.0 * k / s.cases; };
  std::printf("success rate       %6.1f %%  (%d/%d: step exact, step time within 5 %%, loss within 1 %%)\n",
              pct(s.successes), s.successes, s.cases);
  std::printf("step-time RMSRE    %6.3f    (over %d cases with a true step time; missing = 1.0)\n",
              s.rmsre_step_time, s.time_cases);
  std::printf("field accuracy     step %.1f %%, total_steps %.1f %%, step_time_s %.1f %%, throughput %.1f %%, "
              "throughput_unit %.1f %%, loss %.1f %%\n",
              pct(s.step_ok), pct(s.total_ok), pct(s.time_ok), pct(s.throughput_ok), pct(s.unit_ok),
              pct(s.loss_ok));
  std::printf("latency            mean %.3f ms, p50 %.3f ms, max %.3f ms per log\n", s.latency_ms_mean,
              s.latency_ms_p50, s.latency_ms_max);
  for (bool noisy : {false, true}) {
    std::vector<CaseOutcome> part;
    for (const auto& o : outcomes)
      if (o.noisy == noisy) part.push_back(o);
    if (part.empty() || part.size() == outcomes.size()) continue;
    TrackerEvalSummary p = Summarize(part);
    std::printf("  %-16s %6.1f %% success (%d/%d), step-time RMSRE %.3f\n", noisy ? "noisy logs" : "clean logs",
                100.0 * p.successes / p.cases, p.successes, p.cases, p.rmsre_step_time);
  }
  PrintSplitTable(outcomes);
  std::printf("cascade            embedded confidence below %.2f on %d/%d logs (the LLM calls a cascade makes)\n",
              choice.cascade_threshold, unsure, s.cases);
  std::printf("stage-1 filter     %lld -> %lld lines, %lld -> %lld bytes (of the lines scanned)\n",
              (long long)s.stats.lines, (long long)s.stats.kept_lines, (long long)s.stats.bytes,
              (long long)s.stats.kept_bytes);
  bool header = false;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].success && !a.verbose) continue;
    if (!header) std::printf("\ncases%s:\n", a.verbose ? "" : " that failed");
    header = true;
    if (outcomes[i].success) {
      std::printf("  ok   %-6s %-40.40s\n", outcomes[i].id.c_str(), outcomes[i].framework.c_str());
    } else {
      PrintFailure(outcomes[i], (*cases)[i].truth);
    }
  }
}

}  // namespace

void AddEvalCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("eval", "Measure a component on a labelled dataset.");
  cmd->require_subcommand(1);
  auto a = std::make_shared<EvalLinesArgs>();
  CLI::App* lines = cmd->add_subcommand(
      "lines", "Confusion matrix of the stage-1 log-line classifier.");
  lines->add_option("--dataset", a->dataset, "category<TAB>line file")->capture_default_str();
  lines->add_option("--margin", a->margin, "Progress margin of the stage-1 filter")->capture_default_str();
  lines->callback([a] { EvalLines(*a); });

  auto t = std::make_shared<EvalTrackerArgs>();
  CLI::App* tracker = cmd->add_subcommand(
      "tracker", "Metric Tracker success rate, step-time RMSRE, per-field accuracy and latency\n"
                 "on a JSONL dataset of logs with truth (e.g. ../shared/realdata/progress.jsonl).");
  tracker->add_option("--dataset", t->dataset, "JSONL file: {id, framework, log, truth}")->required();
  tracker->add_option("--samples", t->samples, "Consistent samples N for steady-state values")
      ->capture_default_str()->check(CLI::Range(1, 1000));
  tracker->add_flag("--no-stage1", t->no_stage1, "Parse every line (skip the classifier filter)");
  tracker->add_flag("--no-tagger", t->no_tagger, "Key vocabulary only (skip the learned field tagger)");
  tracker->add_option("--tagger-weights", t->tagger_weights,
                      "Field tagger weights TSV (from `schedmate train field-tagger`) instead of the embedded ones");
  tracker->add_flag("--verbose,-v", t->verbose, "List every case, not only failures");
  tracker->add_flag("--json", t->json, "Print the metrics and per-case reports as JSON");
  tracker->add_option("--backend", t->backend, "embedded | llm | cascade")
      ->capture_default_str()->check(CLI::IsMember({"embedded", "llm", "cascade"}));
  AddLlmOptions(tracker, &t->llm);
  tracker->callback([t] { EvalTracker(*t); });
  AddEvalFailuresCommand(cmd);
  AddEvalAdvisorCommand(cmd);
}

}  // namespace schedmate
