// `schedmate train field-tagger`: fits the Metric Tracker's field tagger
// (tracker/field_tagger.h) on labelled logs and writes its weights TSV
// (data/field_tagger.tsv is the embedded default). Only development records
// are read: a record whose "split" is "val" is never trained on.
#ifndef SCHEDMATE_TRACKER_TAGGER_REPORT_H_
#define SCHEDMATE_TRACKER_TAGGER_REPORT_H_

#include <cstdio>
#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct TaggerTrainingOptions {
  std::vector<std::string> datasets;
  std::vector<double> weights;
  std::string out = "data/field_tagger.tsv";
  int epochs = 30;
  // l2 chosen by 5-fold cross-validation by project over the development
  // corpus (scripts/cv_tracker.sh, 332 logs): 1e-4 75.0 %, 3e-4 75.9 %,
  // 1e-3 76.2 %, 3e-3 75.3 %.
  double rate = 0.2, l2 = 1e-3, earlier_weight = 0.5, min_weight = 0.01;
};

// Trains, writes `out`, and returns what the command prints (per dataset,
// training accuracy, the file written); the training notice goes to `log`
// (may be null).
Result<std::string> TrainFieldTagger(const TaggerTrainingOptions& options, std::FILE* log);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_TAGGER_REPORT_H_
