// `schedmate train field-tagger`: fits the Metric Tracker's field tagger
// (tracker/field_tagger.h) on labelled logs and writes its weights TSV
// (data/field_tagger.tsv is the embedded default). Only development records
// are read: a record whose "split" is "val" is never trained on.
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "failure/evaluation.h"
#include "failure/failure_model.h"
#include "tracker/evaluation.h"
#include "tracker/field_tagger.h"
#include "tracker/tagger_training.h"

namespace schedmate {
namespace {

struct TrainTaggerArgs {
  std::vector<std::string> datasets;
  std::vector<double> weights;
  std::string out = "data/field_tagger.tsv";
  int epochs = 30;
  double rate = 0.2, l2 = 1e-4, earlier_weight = 0.5, min_weight = 0.01;
};

void TrainTagger(const TrainTaggerArgs& a) {
  std::vector<FieldTagger::Example> examples;
  for (size_t d = 0; d < a.datasets.size(); ++d) {
    auto cases = LoadTrackerCases(a.datasets[d]);
    if (!cases.ok()) CommandFailed(cases.status());
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
    std::printf("%s: %d logs (%d validation logs left out), truth record found in %d; %d fields (%d ambiguous left out)\n",
                a.datasets[d].c_str(), st.logs + val, val, st.logs_used, st.fields, st.ambiguous);
    std::printf("  ");
    for (int k = 0; k < kNumFieldRoles; ++k)
      std::printf("%s %d%s", std::string(FieldRoleName(static_cast<FieldRole>(k))).c_str(), st.by_role[k],
                  k + 1 < kNumFieldRoles ? ", " : "\n");
  }
  if (examples.empty()) CommandFailed(InvalidArgument("no training fields: no record of the datasets prints its truth"));
  FieldTagger::TrainOptions o;
  o.epochs = a.epochs;
  o.rate = a.rate;
  o.l2 = a.l2;
  std::fprintf(stderr, "training on %zu fields, %d epochs…\n", examples.size(), a.epochs);
  FieldTagger t = FieldTagger::Train(examples, o);
  int right = 0;
  for (const auto& ex : examples) {
    auto p = t.Probabilities(ex.features);
    int best = 0;
    for (int k = 1; k < kNumFieldRoles; ++k)
      if (p[k] > p[best]) best = k;
    right += best == static_cast<int>(ex.role);
  }
  std::printf("training accuracy %.1f %% over %zu fields\n", 100.0 * right / examples.size(), examples.size());
  std::ofstream out(a.out, std::ios::binary);
  if (!out) CommandFailed(NotFound(a.out + ": cannot write"));
  out << "# The field tagger's weights (src/tracker/field_tagger.h): feature<TAB>role<TAB>weight.\n"
         "# Written by `schedmate train field-tagger`; do not edit by hand. Trained on:";
  for (const auto& d : a.datasets) out << ' ' << d;
  out << " (development records only).\n" << t.Dump(a.min_weight);
  std::printf("wrote %s\n", a.out.c_str());
}

struct TrainFailureArgs {
  std::vector<std::string> datasets;
  std::string out_dir = "data";
  int epochs = 30;
  double rate = 0.2, l2 = 1e-4, min_weight = 0.01, root_weight = 8;
};

void TrainFailureModel(const TrainFailureArgs& a) {
  std::vector<LinearModel::Example> line, klass;
  SignatureTrust trust;
  const SignatureBase& base = SignatureBase::Default();
  for (const auto& d : a.datasets) {
    auto cases = LoadFailureCases(d);
    if (!cases.ok()) CommandFailed(cases.status());
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
    std::printf("%s: %d logs trained on (%d validation logs left out)\n", d.c_str(), used, val);
  }
  if (klass.empty()) CommandFailed(InvalidArgument("no training logs"));
  LinearModel::TrainOptions o;
  o.epochs = a.epochs;
  o.rate = a.rate;
  o.l2 = a.l2;
  std::fprintf(stderr, "training on %zu lines and %zu logs…\n", line.size(), klass.size());
  LinearModel lm = LinearModel::Train(RootLineClassNames(), line, o);
  LinearModel km = LinearModel::Train(FailureClassNames(), klass, o);
  int right = 0;
  for (const auto& ex : klass) right += km.Best(ex.features) == ex.label;
  std::printf("class model training accuracy %.1f %% over %zu logs\n", 100.0 * right / klass.size(), klass.size());
  auto write = [&](const std::string& name, const LinearModel& m, const char* what) {
    std::string path = a.out_dir + "/" + name;
    std::ofstream out(path, std::ios::binary);
    if (!out) CommandFailed(NotFound(path + ": cannot write"));
    out << "# The Failure Handler's " << what << " (src/failure/failure_model.h): feature<TAB>class<TAB>weight.\n"
        << "# Written by `schedmate train failure-model`; do not edit by hand. Trained on:";
    for (const auto& d : a.datasets) out << ' ' << d;
    out << " (development records only).\n" << m.Dump(a.min_weight);
    std::printf("wrote %s\n", path.c_str());
  };
  write("failure_line_model.tsv", lm, "root-line model");
  write("failure_class_model.tsv", km, "class model");
  std::string path = a.out_dir + "/failure_signature_trust.tsv";
  std::ofstream out(path, std::ios::binary);
  out << "# How often each signature's reading matched the labels of the development logs it decided\n"
      << "# (src/failure/failure_model.h): signature<TAB>decided<TAB>right. Written by `schedmate train\n"
      << "# failure-model`; do not edit by hand.\n"
      << DumpSignatureTrust(trust);
  if (!out) CommandFailed(NotFound(path + ": cannot write"));
  int distrusted = 0;
  FailureModel probe;
  probe.signatures = trust;
  for (const auto& [id, r] : trust) distrusted += !probe.Trusts(id);
  std::printf("wrote %s (%zu signatures decided training logs; %d not trusted)\n", path.c_str(), trust.size(), distrusted);
}

}  // namespace

void AddTrainCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("train", "Fit a learned component on labelled data.");
  cmd->require_subcommand(1);
  auto a = std::make_shared<TrainTaggerArgs>();
  CLI::App* t = cmd->add_subcommand(
      "field-tagger",
      "Fit the Metric Tracker's field tagger on logs with truth (JSONL, the `eval tracker` format).\n"
      "Records with \"split\": \"val\" are never read. Example:\n"
      "  schedmate gen-logs progress --count 400 --noisy-fraction 0 -o /tmp/syn.jsonl\n"
      "  schedmate train field-tagger --dataset data/eval/tracker_real.jsonl \\\n"
      "    --dataset ../shared/realdata/progress.jsonl --dataset /tmp/syn.jsonl --weight 1 --weight 1 --weight 0.3");
  t->add_option("--dataset", a->datasets, "JSONL logs with truth (repeatable)")->required();
  t->add_option("--weight", a->weights, "Weight of each dataset's examples, in --dataset order (default 1)");
  t->add_option("-o,--out", a->out, "Weights TSV to write")->capture_default_str();
  t->add_option("--epochs", a->epochs, "Passes over the examples")->capture_default_str()->check(CLI::Range(1, 500));
  t->add_option("--rate", a->rate, "Learning rate of the first pass")->capture_default_str();
  t->add_option("--l2", a->l2, "L2 penalty")->capture_default_str();
  t->add_option("--earlier-weight", a->earlier_weight,
                "Weight of the records before the truth record (labelled by position)")
      ->capture_default_str();
  t->add_option("--min-weight", a->min_weight, "Weights smaller than this are not written (a smaller model)")
      ->capture_default_str();
  t->callback([a] { TrainTagger(*a); });

  auto f = std::make_shared<TrainFailureArgs>();
  CLI::App* fm = cmd->add_subcommand(
      "failure-model",
      "Fit the Failure Handler's learned classifier (root-line and class models) on failed logs with labels\n"
      "(JSONL, the `eval failures` format); records with \"split\": \"val\" are never read. Example:\n"
      "  schedmate train failure-model --dataset data/eval/failure_real.jsonl \\\n"
      "    --dataset ../shared/realdata/failures.jsonl --out-dir data");
  fm->add_option("--dataset", f->datasets, "JSONL failed logs with labels (repeatable)")->required();
  fm->add_option("--out-dir", f->out_dir, "Directory for failure_line_model.tsv and failure_class_model.tsv")
      ->capture_default_str();
  fm->add_option("--epochs", f->epochs, "Passes over the examples")->capture_default_str()->check(CLI::Range(1, 500));
  fm->add_option("--rate", f->rate, "Learning rate of the first pass")->capture_default_str();
  fm->add_option("--l2", f->l2, "L2 penalty")->capture_default_str();
  fm->add_option("--root-weight", f->root_weight, "Weight of the root-cause line among a log's lines")
      ->capture_default_str();
  fm->add_option("--min-weight", f->min_weight, "Weights smaller than this are not written")->capture_default_str();
  fm->callback([f] { TrainFailureModel(*f); });
}

}  // namespace schedmate
