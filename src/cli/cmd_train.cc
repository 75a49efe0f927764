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
#include "failure/failure_training.h"
#include "tracker/tagger_report.h"

namespace schedmate {
namespace {

void TrainTagger(const TaggerTrainingOptions& a) {
  Result<std::string> report = TrainFieldTagger(a, stderr);
  if (!report.ok()) CommandFailed(report.status());
  std::fputs(report->c_str(), stdout);
}

void TrainFailureModel(const FailureTrainingOptions& a) {
  Result<std::string> report = TrainFailureModels(a, stderr);
  if (!report.ok()) CommandFailed(report.status());
  std::fputs(report->c_str(), stdout);
}

}  // namespace

void AddTrainCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("train", "Fit a learned component on labelled data.");
  cmd->require_subcommand(1);
  auto a = std::make_shared<TaggerTrainingOptions>();
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

  auto f = std::make_shared<FailureTrainingOptions>();
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
  fm->add_option("--min-logs", f->min_logs, "Drop class-model features seen in fewer training logs than this")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  fm->add_option("--seed", f->seed, "Order in which examples are visited (compare features over several seeds)")
      ->capture_default_str();
  fm->add_option("--ensemble", f->ensemble, "Average this many runs (seeds seed, seed+1, ...) into each model")
      ->capture_default_str()
      ->check(CLI::Range(1, 50));
  fm->callback([f] { TrainFailureModel(*f); });
}

}  // namespace schedmate
