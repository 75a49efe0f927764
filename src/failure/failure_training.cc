#include "failure/failure_training.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "core/str_format.h"
#include "failure/evaluation.h"
#include "failure/failure_model.h"

namespace schedmate {

Result<std::string> TrainFailureModels(const FailureTrainingOptions& a, std::FILE* log) {
  std::string out;
  std::vector<LinearModel::Example> line, klass;
  SignatureTrust trust;
  const SignatureBase& base = SignatureBase::Default();
  for (const auto& d : a.datasets) {
    auto cases = LoadFailureCases(d);
    if (!cases.ok()) return cases.status();
    int used = 0, val = 0;
    for (const auto& c : *cases) {
      if (c.split == "val") {
        ++val;
        continue;
      }
      FailureExamples(c, base, &line, &klass, a.root_weight);
      if (auto outcome = SignatureOutcome(c, base)) {
        ++trust[outcome->first].decided;
        trust[outcome->first].right += outcome->second;
      }
      ++used;
    }
    out += StrFormat("%s: %d logs trained on (%d validation logs left out)\n", d.c_str(), used, val);
  }
  if (klass.empty()) return InvalidArgument("no training logs");
  if (a.min_logs > 1) {
    std::map<std::string, int> logs_with;
    for (const auto& ex : klass)
      for (const auto& f : std::set<std::string>(ex.features.begin(), ex.features.end())) ++logs_with[f];
    for (auto& ex : klass)
      std::erase_if(ex.features, [&](const std::string& f) { return logs_with[f] < a.min_logs; });
  }
  LinearModel::TrainOptions o;
  o.epochs = a.epochs;
  o.rate = a.rate;
  o.l2 = a.l2;
  if (log)
    std::fprintf(log, "training on %zu lines and %zu logs (%d runs averaged)…\n", line.size(), klass.size(),
                 std::max(a.ensemble, 1));
  std::vector<LinearModel> lms, kms;
  for (int run = 0; run < std::max(a.ensemble, 1); ++run) {
    o.seed = a.seed + static_cast<uint64_t>(run);
    lms.push_back(LinearModel::Train(RootLineClassNames(), line, o));
    kms.push_back(LinearModel::Train(FailureClassNames(), klass, o));
  }
  LinearModel lm = LinearModel::Average(lms);
  LinearModel km = LinearModel::Average(kms);
  int right = 0;
  for (const auto& ex : klass) right += km.Best(ex.features) == ex.label;
  out += StrFormat("class model training accuracy %.1f %% over %zu logs\n", 100.0 * right / klass.size(), klass.size());
  auto write = [&](const std::string& name, const LinearModel& m, const char* what) -> Status {
    std::string path = a.out_dir + "/" + name;
    std::ofstream file(path, std::ios::binary);
    if (!file) return NotFound(path + ": cannot write");
    file << "# The Failure Handler's " << what << " (src/failure/failure_model.h): feature<TAB>class<TAB>weight.\n"
         << "# Written by `schedmate train failure-model`; do not edit by hand. Trained on:";
    for (const auto& d : a.datasets) file << ' ' << d;
    file << " (development records only).\n" << m.Dump(a.min_weight);
    out += StrFormat("wrote %s\n", path.c_str());
    return Status::Ok();
  };
  RETURN_IF_ERROR(write("failure_line_model.tsv", lm, "root-line model"));
  RETURN_IF_ERROR(write("failure_class_model.tsv", km, "class model"));
  std::string path = a.out_dir + "/failure_signature_trust.tsv";
  std::ofstream file(path, std::ios::binary);
  file << "# How often each signature's reading matched the labels of the development logs it decided\n"
       << "# (src/failure/failure_model.h): signature<TAB>decided<TAB>right. Written by `schedmate train\n"
       << "# failure-model`; do not edit by hand.\n"
       << DumpSignatureTrust(trust);
  if (!file) return NotFound(path + ": cannot write");
  int distrusted = 0;
  FailureModel probe;
  probe.signatures = trust;
  for (const auto& [id, r] : trust) distrusted += !probe.Trusts(id);
  out += StrFormat("wrote %s (%zu signatures decided training logs; %d not trusted)\n", path.c_str(), trust.size(),
                   distrusted);
  return out;
}

}  // namespace schedmate
