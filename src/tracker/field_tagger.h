// The field tagger of stage 2: which role each number of a training record
// plays — step, total, epoch, a time (per step, per logging interval, or a
// cumulative clock), a rate, a throughput, the loss, or nothing we report —
// learned from labelled logs instead of listed key by key.
//
// Each field is described by features of its key (whole, words, first and
// last word), unit, value shape, position, the keys around it, what the
// hand-written key vocabulary says of it (progress_line.h), and how it moved
// since the previous record of the same layout (counters climb by whole
// steps, cumulative clocks grow with the step, per-step times stay level).
// A multinomial logistic model scores the roles; its weights are a TSV
// (data/field_tagger.tsv, embedded) written by `schedmate train
// field-tagger` from the development corpus, the shared development logs
// and the synthetic generator.
#ifndef SCHEDMATE_TRACKER_FIELD_TAGGER_H_
#define SCHEDMATE_TRACKER_FIELD_TAGGER_H_

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "text/linear_model.h"
#include "tracker/field_scanner.h"

namespace schedmate {

enum class FieldRole : int {
  kOther = 0,
  kStep,            // the step / iteration / batch counter (an a/b counter's a)
  kTotal,           // total steps printed as its own field
  kEpoch,           // the epoch counter
  kStepTime,        // seconds per step (after the unit)
  kIntervalTime,    // seconds since the previous record: ÷ steps between records
  kCumulativeTime,  // a clock since the start: difference it over steps
  kStepRate,        // steps per second
  kThroughput,      // samples / tokens / images per second
  kLoss,            // the training loss
};
inline constexpr int kNumFieldRoles = 10;

std::string_view FieldRoleName(FieldRole r);
std::optional<FieldRole> ParseFieldRole(std::string_view name);

// Seconds per unit of a time unit ("ms" → 0.001, "" → 1); -1 when not a time.
double SecondsPerUnit(std::string_view unit);

// The features of field `i` of `line`; `previous` is the record of the same
// layout printed before it (same number of fields), or null.
std::vector<std::string> FieldFeatures(const ScannedLine& line, size_t i, const ScannedLine* previous);

class FieldTagger {
 public:
  using Scores = std::array<double, kNumFieldRoles>;

  // The embedded model (data/field_tagger.tsv); empty (every field kOther
  // with probability 1/kNumFieldRoles) if that file holds no weights.
  static const FieldTagger& Default();
  // "feature<TAB>role<TAB>weight" rows; '#' comments. Errors name the line.
  static Result<FieldTagger> Parse(std::string_view tsv);

  struct Example {
    std::vector<std::string> features;
    FieldRole role = FieldRole::kOther;
    double weight = 1;
  };
  using TrainOptions = LinearModel::TrainOptions;
  static FieldTagger Train(const std::vector<Example>& examples, const TrainOptions& options);

  // Role probabilities of one field (softmax over the roles).
  Scores Probabilities(const std::vector<std::string>& features) const;
  bool empty() const { return model_.empty(); }
  // The model as TSV; weights smaller than `min_weight` in size are left out.
  std::string Dump(double min_weight = 1e-4) const { return model_.Dump(min_weight); }

 private:
  LinearModel model_;
};

// One record read by the tagger: the field chosen for each role and the
// values it gives, in seconds and per step.
struct TaggedRecord {
  std::optional<int64_t> step, total_steps;
  std::optional<double> step_time_s, throughput, loss;
  std::string throughput_unit;
  double step_p = 0, time_p = 0, throughput_p = 0, loss_p = 0;  // the chosen fields' probabilities
  FieldRole time_role = FieldRole::kOther;  // how the time field was read
  int step_field = -1;  // index of the field read as the step
  int time_field = -1;  // index of the field read as the time
};

// Reads `line` with `tagger`; `previous` as for FieldFeatures. A role is
// filled by the field most probable for it, when that probability is at
// least `min_p`, each field used once.
TaggedRecord TagRecord(const FieldTagger& tagger, const ScannedLine& line, const ScannedLine* previous,
                       double min_p = 0.5);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_FIELD_TAGGER_H_
