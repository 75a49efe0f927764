#include "text/line_eval.h"

#include <chrono>
#include <fstream>

#include "core/str_format.h"
#include "text/line_classifier.h"

namespace schedmate {

Result<std::string> RunLineEval(const std::string& dataset, float margin) {
  std::string out;
  std::ifstream in(dataset, std::ios::binary);
  if (!in) return NotFound(dataset + ": cannot open (category<TAB>line rows)");
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
      return InvalidArgument(dataset + ":" + std::to_string(line_no) + ": expected category<TAB>line");
    auto truth = ParseLineCategory(row.substr(0, tab));
    if (!truth.ok()) return truth.status().WithContext(dataset + ":" + std::to_string(line_no));
    std::string_view line = std::string_view(row).substr(tab + 1);
    auto t0 = std::chrono::steady_clock::now();
    LineScores r = c.Classify(line, scratch);
    bool kept = LineClassifier::IsProgressCandidate(r, margin);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++matrix[static_cast<int>(*truth)][static_cast<int>(r.best)];
    ++n;
    correct += r.best == *truth;
    if (*truth == LineCategory::kProgress) {
      ++progress;
      progress_kept += kept;
    } else {
      ++other;
      other_kept += kept;
    }
  }
  if (n == 0) return InvalidArgument(dataset + ": no labelled lines");
  out += StrFormat("line classifier on %s (%d lines)\n\ntruth \\ predicted", dataset.c_str(), n);
  for (int k = 0; k < kNumLineCategories; ++k)
    out += StrFormat(" %8s", std::string(LineCategoryName(static_cast<LineCategory>(k))).c_str());
  out += StrFormat("\n");
  for (int t = 0; t < kNumLineCategories; ++t) {
    out += StrFormat("%-17s", std::string(LineCategoryName(static_cast<LineCategory>(t))).c_str());
    for (int p = 0; p < kNumLineCategories; ++p) out += StrFormat(" %8d", matrix[t][p]);
    out += StrFormat("\n");
  }
  out += StrFormat(
      "\naccuracy %.3f\nstage-1 filter (margin %.2f): keeps %d/%d progress lines, %d/%d others\n"
      "latency %.2f us/line\n",
      double(correct) / n, margin, progress_kept, progress, other_kept, other, 1e6 * seconds / n);
  return out;
}

}  // namespace schedmate
