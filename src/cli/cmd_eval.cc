// `schedmate eval lines`: the stage-1 line classifier's confusion matrix on a
// labelled set (default: data/line_labels_dev.tsv, run from the checkout).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "text/line_classifier.h"

namespace schedmate {
namespace {

struct EvalLinesArgs {
  std::string dataset = "data/line_labels_dev.tsv";
  float margin = 0.05f;
};

void EvalLines(const EvalLinesArgs& a) {
  std::ifstream in(a.dataset, std::ios::binary);
  if (!in) CommandFailed(NotFound(a.dataset + ": cannot open (category<TAB>line rows)"));
  const LineClassifier& c = LineClassifier::Default();
  auto scratch = c.MakeScratch();
  int matrix[kNumLineCategories][kNumLineCategories] = {};
  int n = 0, correct = 0, progress = 0, progress_kept = 0, other = 0, other_kept = 0;
  std::string row;
  int line_no = 0;
  double seconds = 0;
  while (std::getline(in, row)) {
    ++line_no;
    if (row.empty() || row[0] == '#') continue;
    size_t tab = row.find('\t');
    if (tab == std::string::npos)
      CommandFailed(InvalidArgument(a.dataset + ":" + std::to_string(line_no) + ": expected category<TAB>line"));
    auto truth = ParseLineCategory(row.substr(0, tab));
    if (!truth.ok()) CommandFailed(truth.status().WithContext(a.dataset + ":" + std::to_string(line_no)));
    std::string_view line = std::string_view(row).substr(tab + 1);
    auto t0 = std::chrono::steady_clock::now();
    LineScores r = c.Classify(line, scratch);
    bool kept = LineClassifier::IsProgressCandidate(r, a.margin);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++matrix[static_cast<int>(*truth)][static_cast<int>(r.best)];
    ++n;
    correct += r.best == *truth;
    if (*truth == LineCategory::kProgress) { ++progress; progress_kept += kept; }
    else { ++other; other_kept += kept; }
  }
  if (n == 0) CommandFailed(InvalidArgument(a.dataset + ": no labelled lines"));
  std::printf("line classifier on %s (%d lines)\n\ntruth \\ predicted", a.dataset.c_str(), n);
  for (int k = 0; k < kNumLineCategories; ++k)
    std::printf(" %8s", std::string(LineCategoryName(static_cast<LineCategory>(k))).c_str());
  std::printf("\n");
  for (int t = 0; t < kNumLineCategories; ++t) {
    std::printf("%-17s", std::string(LineCategoryName(static_cast<LineCategory>(t))).c_str());
    for (int p = 0; p < kNumLineCategories; ++p) std::printf(" %8d", matrix[t][p]);
    std::printf("\n");
  }
  std::printf("\naccuracy %.3f\nstage-1 filter (margin %.2f): keeps %d/%d progress lines, %d/%d others\n"
              "latency %.2f us/line\n",
              double(correct) / n, a.margin, progress_kept, progress, other_kept, other,
              1e6 * seconds / n);
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
}

}  // namespace schedmate
