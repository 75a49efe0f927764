// What a scanned line means for training progress: the key vocabulary and
// layout knowledge of stage 2. Keys are matched as words, not per-framework
// regular expressions; the few layout facts that words cannot tell
// (DeepSpeed's "epoch/step, SamplesPerSec=", fairseq's `ups`, mmcv's
// evaluation bar in task/s, Keras' epoch summary) are listed in the .cc with
// the framework they come from.
#ifndef SCHEDMATE_TRACKER_PROGRESS_LINE_H_
#define SCHEDMATE_TRACKER_PROGRESS_LINE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tracker/field_scanner.h"

namespace schedmate {

struct ProgressLine {
  std::optional<int64_t> step;
  std::optional<int64_t> total_steps;
  std::optional<double> step_time_s;
  std::optional<double> throughput;
  std::string throughput_unit;
  std::optional<double> loss;            // NaN when printed nan
  // The step is a keyless "[N]" leading the record (XGBoost, LightGBM
  // rounds): a step only where it climbs from record to record.
  bool step_positional = false;
  std::optional<int64_t> epoch_as_step;  // integer epoch of an epoch-level record: tells records apart, never the step
  std::optional<double> timestamp_s;  // the logger's stamp, or a printed clock since the start
  double timestamp_resolution_s = 1;
  bool is_eval = false;      // validation/test/inference, or other non-training output (downloads, loading)
  bool is_training = false;  // carries training progress
  // An evaluation record that also prints the training loss at its step
  // ("[400/3000] Train loss: 0.12, Valid loss: 0.13"): the run's record only
  // when the log prints no plain training records.
  bool is_train_and_eval = false;
  // Only parts of the loss are printed, a list of unnamed values after the
  // key: no tagger reads a whole loss into it. (Named components leave the
  // tagger free: withholding there lost more logs than it gained.)
  bool loss_withheld = false;
  // The step time's key or unit names its step ("time per batch", "s/it"):
  // a step's time even in an epoch-level record.
  bool time_names_step = false;
  // The step time is a finished counter's keyless duration over its steps
  // with no bar drawn (tf.keras verbose=2 "19/19 - 12s"): the scan withholds
  // it where earlier records show the duration times an interval.
  bool duration_times_steps = false;
  // Identifies the line's layout (the ordered keys it prints), so samples of
  // one logger can be told from another's.
  uint64_t layout = 0;
  // Number of progress facts found (step, time, throughput, loss, total).
  int Facts() const;
};

// Interprets one cleaned line (one record of it: see SplitGluedRecords).
ProgressLine InterpretLine(std::string_view line);
ProgressLine InterpretScanned(const ScannedLine& scanned);

// A line that announces an evaluation pass and prints no record ("Evaluation",
// "Test on Epoch 30", "Validating..."): at most an epoch number.
bool AnnouncesEvaluation(const ScannedLine& s);

// A record's layout: its keys in order (counters as "#/#", parenthesised
// values left out) and whether it draws a bar. Records of one logger share it.
std::string LayoutSignature(const ScannedLine& s);

// What the hand-written key vocabulary says of one field, as short words
// ("step", "epoch", "total", "time", "rate", "throughput", "loss", "eval",
// "lr"): features of the learned field tagger (field_tagger.h).
std::vector<std::string> VocabularyHints(const ScannedField& f);

// "toks/s/device" → "tokens/s/device", "samples/" → "samples/s".
std::string NormalizeThroughputUnit(std::string_view unit);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_PROGRESS_LINE_H_
