#include "tracker/tagger_report.h"

#include <fstream>

#include "core/str_format.h"
#include "tracker/evaluation.h"
#include "tracker/field_tagger.h"
#include "tracker/tagger_training.h"

namespace schedmate {

Result<std::string> TrainFieldTagger(const TaggerTrainingOptions& a, std::FILE* log) {
  std::string out;
  std::vector<FieldTagger::Example> examples;
  for (size_t d = 0; d < a.datasets.size(); ++d) {
    auto cases = LoadTrackerCases(a.datasets[d]);
    if (!cases.ok()) return cases.status();
    double w = d < a.weights.size() ? a.weights[d] : 1.0;
    LabelStats st;
    int val = 0;
    for (const auto& c : *cases) {
      if (c.split == "val") {
        ++val;
        continue;
      }
      for (auto& ex : LabelledFields(c, &st, a.earlier_weight)) {
        ex.weight *= w;
        examples.push_back(std::move(ex));
      }
    }
    out += StrFormat(
        "%s: %d logs (%d validation logs left out), truth record found in %d; %d fields (%d ambiguous left out)\n",
        a.datasets[d].c_str(), st.logs + val, val, st.logs_used, st.fields, st.ambiguous);
    out += StrFormat("  ");
    for (int k = 0; k < kNumFieldRoles; ++k)
      out += StrFormat("%s %d%s", std::string(FieldRoleName(static_cast<FieldRole>(k))).c_str(), st.by_role[k],
                       k + 1 < kNumFieldRoles ? ", " : "\n");
  }
  if (examples.empty()) return InvalidArgument("no training fields: no record of the datasets prints its truth");
  FieldTagger::TrainOptions o;
  o.epochs = a.epochs;
  o.rate = a.rate;
  o.l2 = a.l2;
  if (log) std::fprintf(log, "training on %zu fields, %d epochs…\n", examples.size(), a.epochs);
  FieldTagger t = FieldTagger::Train(examples, o);
  int right = 0;
  for (const auto& ex : examples) {
    auto p = t.Probabilities(ex.features);
    int best = 0;
    for (int k = 1; k < kNumFieldRoles; ++k)
      if (p[k] > p[best]) best = k;
    right += best == static_cast<int>(ex.role);
  }
  out += StrFormat("training accuracy %.1f %% over %zu fields\n", 100.0 * right / examples.size(), examples.size());
  std::ofstream file(a.out, std::ios::binary);
  if (!file) return NotFound(a.out + ": cannot write");
  file << "# The field tagger's weights (src/tracker/field_tagger.h): feature<TAB>role<TAB>weight.\n"
          "# Written by `schedmate train field-tagger`; do not edit by hand. Trained on:";
  for (const auto& d : a.datasets) file << ' ' << d;
  file << " (development records only).\n" << t.Dump(a.min_weight);
  out += StrFormat("wrote %s\n", a.out.c_str());
  return out;
}

}  // namespace schedmate
