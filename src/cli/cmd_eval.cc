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
#include "tracker/eval_report.h"
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
  TrackerEvalReportOptions ro;
  ro.dataset = a.dataset;
  ro.backend = a.backend;
  ro.json = a.json;
  ro.verbose = a.verbose;
  ro.no_stage1 = a.no_stage1;
  TrackerEvalCounts n{choice.backend != TrackerBackend::kEmbedded, choice.cascade_threshold, llm_answers, fallbacks,
                      unsure};
  std::fputs(FormatTrackerEval(*cases, outcomes, ro, n).c_str(), stdout);
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
