// Interpreting a scanned line as training progress: the Builder reads each
// field under the key vocabulary (key_vocabulary.h), then the record's
// layout facts decide step, loss, time and whether it is training output.
#include "tracker/progress_line.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "core/random.h"
#include "tracker/key_vocabulary.h"

namespace schedmate {

using namespace tracker_internal;

namespace {

struct Builder {
  ProgressLine out;
  int step_rank = 100, loss_rank = 100, tp_rank = 100, time_rank = 100;
  int components = 0;  // component losses ("d loss", "value loss")
  bool train_loss = false;  // a loss named the training one ("train loss"), or a bare "loss"
  bool has_counter = false, evidence = false, deepspeed_timer = false;
  bool after_bare_counter = false;  // the previous field was a counter without a key
  std::optional<double> clock_s;
  std::optional<double> rate_time_s;  // 1 / a step rate
  bool time_names_step = false;       // the time's key names a step ("iteration time", "sec/step")
  double clock_resolution_s = 0;
  std::optional<int64_t> bar_count;  // a bar's count without a total ("1086it [01:06")
  // A bar described as the epoch ("Epoch: 100%|██| 5/5 [00:57<00:00, 11.43s/it]",
  // the outer bar of nested tqdm): its counter and rate are per epoch.
  bool epoch_bar = false;
  // Keys that name only a loss function ("mse: 0.41"), read as the loss
  // when the record is plainly a training step (InterpretScanned).
  int loss_function_names = 0;
  double loss_function_value = 0;

  void Field(const ScannedField& printed) {
    ScannedField f = WithUnitsRead(printed);
    const std::string k = KeyOf(f.key);
    std::string unit = Lower(f.unit);
    bool nested = after_bare_counter;
    after_bare_counter = f.total && k.empty();
    if (unit == "%" && IsEpochKey(k)) epoch_bar = true;
    if (f.total) return Counter(f, nested);
    if (f.follows_bar && unit == "it" && IsCount(f)) bar_count = static_cast<int64_t>(f.value);
    if (epoch_bar && (unit == "it/s" || unit == "s/it")) return;
    if (UnitRate(f, unit)) return;
    if (unit.empty() && !IsKnownKey(k) && KeyRate(f, std::string(StripLogPrefix(f.key)))) return;
    if (f.parenthesised) return;  // running averages such as "(0.9249)"
    // A parameter group's learning rate ("lr_swin", "lr-AdamW", "lr_0") is one too.
    if (In(k, {"lr", "learning rate", "eta", "grad norm", "gnorm"}) || FirstWord(k) == "lr") evidence = true;
    // A component loss ("Loss_D", "l_g_gan", "d loss") is training output even when it is not the loss.
    if (!IsEvalPrefix(FirstWord(k)) && (k.rfind("loss ", 0) == 0 || LastWord(k) == "loss" || k.find(" loss ") != std::string::npos))
      evidence = true;
    // A plural count ("iterations: 0") of zero is more often a tally of
    // skipped or failed ones than the step.
    if (int r = StepKeyRank(k); r >= 0 && IsWholeCount(f) && r + 10 < step_rank && !(r == 5 && f.value == 0)) {
      step_rank = r + 10;
      out.step = static_cast<int64_t>(f.value);
    }
    if (IsEpochKey(k) && IsCount(f) && unit != "%") out.epoch_as_step = static_cast<int64_t>(f.value);
    if (IsTotalKey(k) && IsCount(f) && f.value > 0 && !out.total_steps)
      out.total_steps = static_cast<int64_t>(f.value);
    int loss_key = LossKeyRank(k);
    // A loss function's name alone ("logloss : 0.56") is as often an
    // evaluation metric; named the training one ("train-logloss") it is the loss.
    bool trained = In(FirstWord(f.key), {"train", "training", "tr"});
    if (loss_key >= 0 && LastWord(k) != "loss" && !trained && FirstWord(k) != "loss" && !NamesTheWholeLoss(k)) {
      loss_key = -1;
      if (!IsEvalPrefix(FirstWord(k)) && !f.parenthesised && std::isfinite(f.value)) {
        ++loss_function_names;
        loss_function_value = f.value;
      }
    }
    if (int r = loss_key; r >= 0) {
      components += r == 2;
      train_loss = train_loss || trained || k == "loss";  // "Loss: 0.4, Val Loss: 0.5"
      if (r < loss_rank) {
        loss_rank = r;
        out.loss = f.value;
      }
    }
    if (IsStepTimeKey(k)) {
      double scale = TimeUnitScale(unit);
      if (scale > 0 && f.value > 0 && std::isfinite(f.value) && time_rank > 1) {
        SetTime(f.value * scale, 1);
        time_names_step = NamesAStep(k);
      }
    }
    if (IsStepRateKey(k) && f.value > 0 && std::isfinite(f.value)) SetRateTime(1.0 / f.value);
    if (IsClockKey(k) && TimeUnitScale(unit) > 0 && f.value >= 0 && std::isfinite(f.value)) {
      clock_s = f.value * TimeUnitScale(unit);
      clock_resolution_s = f.integer ? 1 : 0;  // printed to its own precision
    }
    if (std::string u = ThroughputUnitFromKey(k); !u.empty() && std::isfinite(f.value)) {
      if (k == "ips" && !f.unit.empty()) u = NormalizeThroughputUnit(f.unit);
      // A running average is second choice to the current value.
      bool average = k.rfind("running", 0) == 0 || k.rfind("avg", 0) == 0 || k.rfind("mean", 0) == 0;
      SetThroughput(f.value, u, average ? 1 : 0);
    }
    if (k == "samples per sec") deepspeed_timer = true;  // DeepSpeed's "0/2000, SamplesPerSec="
    if ((k == "throughput" || k == "throughput per gpu" || k == "speed") && !f.unit.empty())
      SetThroughput(f.value, NormalizeThroughputUnit(f.unit));
  }

  // Units a logger writes where the scanner does not look for them: a
  // magnitude suffix ("16.2K tokens/s", "step:50K" → 16200, 50000) and a
  // time unit as the key's last word ("elapsed_time_per_iteration_ms: 41.2").
  static ScannedField WithUnitsRead(const ScannedField& printed) {
    ScannedField f = printed;
    if (f.unit == "K" || f.unit == "k" || f.unit == "M" || f.unit == "G") {
      f.value *= f.unit == "G" ? 1e9 : f.unit == "M" ? 1e6 : 1e3;
      f.integer = f.value == std::floor(f.value);
      f.unit.clear();
    }
    if (f.unit.empty()) {
      size_t sp = f.key.rfind(' ');
      if (sp != std::string::npos && sp > 0) {
        std::string_view last = std::string_view(f.key).substr(sp + 1);
        std::string rest = f.key.substr(0, sp);
        if (In(last, {"ms", "msec", "s", "sec", "secs", "seconds", "us"}) &&
            (IsStepTimeKey(rest) || IsClockKey(rest))) {
          f.unit = std::string(last);
          f.key = rest;
        }
      }
    }
    return f;
  }

  // "26.05s/it", "0.18it/s", "16ms/step", "1771 toks/s/device", "(16.765 sec/step)".
  bool UnitRate(const ScannedField& f, const std::string& unit) {
    if (unit.find('/') == std::string::npos || !std::isfinite(f.value)) return false;
    auto parts = SplitSlash(unit);
    std::string_view num = parts[0], den = parts[1];
    if (IsStepNoun(num) && IsSecondNoun(den)) {
      if (f.value > 0) SetTime(1.0 / f.value, 0);
      return true;
    }
    if (TimeUnitScale(num) > 0 && !num.empty() && (IsStepNoun(den) || den.empty())) {
      if (f.value > 0) SetTime(f.value * TimeUnitScale(num), 0);
      return true;
    }
    if (In(num, {"b", "kb", "mb", "gb", "kib", "mib", "gib", "bytes"})) return true;  // downloads, I/O
    if (num == "task" && IsSecondNoun(den)) {  // mmcv ProgressBar: evaluation only
      out.is_eval = true;
      return true;
    }
    if (IsSecondNoun(den) || (den.empty() && parts.size() == 2)) {
      SetThroughput(f.value, NormalizeThroughputUnit(f.unit));
      return true;
    }
    return false;
  }

  // A rate named by the key, not the unit ("Steps/second: 0.014",
  // "examples_per_sec: 512"): read as the unit would be, when its parts are
  // a step or data noun over a time, or a time over a step noun.
  bool KeyRate(const ScannedField& f, const std::string& k) {
    std::string key_unit = RateUnitFromKey(k);
    if (key_unit.empty()) return false;
    auto parts = SplitSlash(key_unit);
    std::string_view num = parts[0], den = parts[1];
    bool step_rate = IsStepNoun(num) && num != "epoch" && num != "epochs" && IsSecondNoun(den);
    bool step_time = TimeUnitScale(num) > 0 && IsStepNoun(den) && den != "epoch" && den != "epochs";
    bool data_rate = IsSecondNoun(den) && ThroughputRank(num) == 0;
    if (!step_rate && !step_time && !data_rate) return false;
    if (f.parenthesised || !std::isfinite(f.value) || f.value <= 0) return true;
    if (step_rate) SetRateTime(1.0 / f.value);
    else if (step_time) SetTime(f.value * TimeUnitScale(num), 1);
    else SetThroughput(f.value, key_unit);  // as the key writes it ("img/sec")
    return true;
  }

  // `nested`: this counter follows another without a key ("[1/20][30/32]",
  // epoch then batch): the inner one is the step.
  void Counter(const ScannedField& f, bool nested = false) {
    const std::string k(WithoutVerb(StripLogPrefix(f.key)));  // "Epoch is [1/600]"
    // A counter is the step unless its key names something else: the epoch
    // ("Epoch 7/10"), a rank, a file, a shard ("Processing files 3/100").
    // The key may carry a logger prefix ("INFO train: [30/117]").
    std::string_view last = LastWord(k);
    if (IsEpochKey(last) && IsCount(f) && !out.epoch_as_step) out.epoch_as_step = static_cast<int64_t>(f.value);
    if (IsEpochKey(last) || (epoch_bar && f.follows_bar)) return;
    bool stepish = StepKeyRank(k) >= 0 ||
                   !In(last, {"rank", "ranks", "gpu", "gpus", "node", "nodes", "worker", "workers",
                              "device", "devices", "shard", "shards", "file", "files", "part",
                              "chunk", "fold", "stage", "trial", "run", "layer", "layers",
                              "channel", "batches", "sample", "samples", "task", "tasks", "job"});
    if (!stepish || !IsCount(f) || *f.total <= 0 || *f.total >= 1e15) return;
    has_counter = true;
    int rank = f.follows_bar ? -1 : 0;  // YOLO prints "epoch/epochs" first, the bar's counter later
    if (nested && k.empty()) rank = std::min(rank, step_rank - 1);
    // Of several counters, a global one over an inner one ("inner iter 3/8 | global iter 15/5000").
    std::string_view first = FirstWord(k);
    if (first == "global" || first == "total" || first == "overall") rank -= 2;
    if (In(first, {"inner", "sub", "micro", "local", "ppo", "mini"})) rank += 1;
    if (step_rank <= rank) return;
    step_rank = rank;
    out.step = static_cast<int64_t>(f.value);
    out.total_steps = static_cast<int64_t>(*f.total);
  }

  // A step rate ("ups: 2.00", "Steps/second") gives the time of one step.
  // A "time" key beside it that is far longer (time × rate ≥ 1.5: "ups:
  // 2.00, time: 50s 169ms" every 100 updates) times the logging interval
  // or the run, not a step: the rate wins.
  void SetRateTime(double seconds) {
    rate_time_s = seconds;
    SetTime(seconds, 2);
  }
  // Only a time that does not name its step ("time", not "iteration time":
  // beside "Steps per second" of an RL environment) gives way.
  void ReconcileTimeWithRate() {
    if (time_rank == 1 && !time_names_step && rate_time_s && out.step_time_s && *out.step_time_s >= 1.5 * *rate_time_s)
      out.step_time_s = rate_time_s;
  }

  void SetTime(double seconds, int rank) {
    if (rank < time_rank) {
      time_rank = rank;
      out.step_time_s = seconds;
    }
  }

  void SetThroughput(double value, const std::string& unit, int penalty = 0) {
    int r = 2 * ThroughputRank(unit) + penalty;
    if (r < tp_rank) {
      tp_rank = r;
      out.throughput = value;
      out.throughput_unit = unit;
    }
  }
};

// The keyless duration after a finished counter, in seconds: what its steps
// took. Old Keras draws a bar ("1464/1464 [=====] - 240s - loss: 2.83");
// tf.keras verbose=2 prints the counter alone ("19/19 - 12s - loss: 0.03"),
// the duration right after it. Also its unit's scale (the print's resolution).
struct FinishedDuration {
  double seconds, unit_scale;
};
std::optional<FinishedDuration> FinishedCounterDuration(const ScannedLine& scanned, const ProgressLine& p) {
  if (!p.step || !p.total_steps || *p.step != *p.total_steps || *p.step <= 0) return std::nullopt;
  bool after_counter = false, right_after = false;
  for (const auto& f : scanned.fields) {
    if (f.total) {
      after_counter = right_after = static_cast<int64_t>(f.value) == *p.step;
      continue;
    }
    double scale = TimeUnitScale(Lower(f.unit));
    if (after_counter && (scanned.has_bar || right_after) && f.key.empty() && !f.unit.empty() && scale > 0 &&
        !f.parenthesised && f.value > 0)
      return FinishedDuration{f.value * scale, scale};
    right_after = false;
  }
  return std::nullopt;
}

std::optional<double> FinishedBarTime(const ScannedLine& scanned, const ProgressLine& p) {
  auto d = FinishedCounterDuration(scanned, p);
  if (!d) return std::nullopt;
  return d->seconds / static_cast<double>(*p.step);
}

// A per-step time printed as one or two whole units ("338s 1s/step": 0.5 to
// 1.5 s) beside the finished counter's duration, which times the steps to
// within 5 %: the duration over the steps is the step's time.
void RefineWholeUnitStepTime(const ScannedLine& scanned, ProgressLine& p) {
  if (!p.step_time_s) return;
  auto d = FinishedCounterDuration(scanned, p);
  if (!d || 0.5 * d->unit_scale > 0.05 * d->seconds) return;
  const double fine = d->seconds / static_cast<double>(*p.step);
  for (const auto& f : scanned.fields) {
    if (!f.integer || f.value <= 0 || f.value > 2 || !f.key.empty()) continue;
    auto parts = SplitSlash(Lower(f.unit));
    if (parts.size() != 2 || parts[0].empty()) continue;
    double scale = TimeUnitScale(parts[0]);
    if (scale <= 0 || std::fabs(f.value * scale - *p.step_time_s) > 1e-9 * *p.step_time_s) continue;
    if (std::fabs(fine - *p.step_time_s) <= 0.5 * scale * (1 + 1e-9)) p.step_time_s = fine;
    return;
  }
}

}  // namespace

std::string LayoutSignature(const ScannedLine& s) {
  std::string sig = s.has_bar ? "bar|" : "";
  for (const auto& f : s.fields) {
    if (f.parenthesised) continue;
    sig += f.total ? "#/#" : f.key;
    sig += '|';
  }
  return sig;
}

int ProgressLine::Facts() const {
  return (step ? 1 : 0) + (total_steps ? 1 : 0) + (step_time_s ? 1 : 0) +
         (throughput ? 1 : 0) + (loss ? 1 : 0);
}

std::string NormalizeThroughputUnit(std::string_view unit) {
  auto parts = SplitSlash(unit);
  std::string noun = Lower(parts[0]);
  if (noun == "toks" || noun == "tok" || noun == "token") parts[0] = "tokens";
  else if (noun == "sample") parts[0] = "samples";
  else if (noun == "img" || noun == "imgs") parts[0] = "images";
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string_view p = parts[i];
    if (i == 1 && (p.empty() || In(Lower(p), {"sec", "second", "secs"}))) p = "s";
    if (i > 0) out += '/';
    out += p;
  }
  if (parts.size() == 1) out += "/s";
  return out;
}

namespace {

// "Train loss 7 5.797815 Grad Norm 6.96": a whole number between a loss key
// and a keyless fraction is the record's counter; the fraction is the loss.
bool CounterBeforeValue(const std::vector<ScannedField>& fields, size_t i) {
  const ScannedField& f = fields[i];
  if (i + 1 >= fields.size() || !f.integer || f.total || !f.unit.empty() || f.parenthesised) return false;
  const ScannedField& v = fields[i + 1];
  if (!v.key.empty() || v.integer || !v.unit.empty() || v.parenthesised || v.total) return false;
  return LossKeyRank(KeyOf(f.key)) >= 0;
}

}  // namespace

ProgressLine InterpretScanned(const ScannedLine& scanned) {
  Builder b;
  b.out.timestamp_s = scanned.timestamp_s;
  b.out.timestamp_resolution_s = scanned.timestamp_resolution_s;
  for (size_t i = 0; i < scanned.fields.size(); ++i) {
    if (!CounterBeforeValue(scanned.fields, i)) {
      b.Field(scanned.fields[i]);
      continue;
    }
    ScannedField counter = scanned.fields[i], value = scanned.fields[i + 1];
    value.key = counter.key;
    counter.key = "step";
    b.Field(counter);
    b.Field(value);
    ++i;
  }
  b.ReconcileTimeWithRate();
  ProgressLine& out = b.out;
  // A loss function's name alone is as often an evaluation metric — but on a
  // record that counts its steps and times them, with no other loss, it is
  // what the step minimised ("step: [2/6] time: 37.051s, mse: 0.410").
  if (!out.loss && b.loss_rank == 100 && b.loss_function_names == 1 && (b.has_counter || out.step) && out.step_time_s)
    out.loss = b.loss_function_value;
  out.time_names_step = out.step_time_s && b.time_names_step;
  if (!out.step_time_s) {
    out.step_time_s = FinishedBarTime(scanned, out);
    out.duration_times_steps = out.step_time_s && !scanned.has_bar;
  }
  else RefineWholeUnitStepTime(scanned, out);
  // The run's own clock times its records better than the logger's stamp,
  // unless the stamp is the finer ("Elapsed Time: 00:01:02" beside a stamp
  // in milliseconds).
  if (b.clock_s && (!scanned.timestamp_s || b.clock_resolution_s <= scanned.timestamp_resolution_s)) {
    out.timestamp_s = b.clock_s;
    out.timestamp_resolution_s = b.clock_resolution_s;
  }
  // No step key: a keyless "[N]" leading the record is its round
  // ("[12000]\teval-logloss:0.91\ttrain-logloss:0.002"), once it climbs (ProgressScan).
  if (!out.step && !b.has_counter && !scanned.fields.empty()) {
    const ScannedField& first = scanned.fields[0];
    if (first.bracketed && first.key.empty() && IsCount(first)) {
      out.step = static_cast<int64_t>(first.value);
      out.step_positional = true;
    }
  }
  // A bar without a total that prints the loss counts the training loop's
  // steps live; a step field beside it is a stale description ("step 1080
  // …: 1086it") or another counter ("env_step=250000").
  if (b.bar_count && out.loss && b.step_rank >= 0) out.step = b.bar_count;
  // Several component losses and no whole one: the run's loss is not printed.
  // (The tagger may not read one in either.)
  if (b.loss_rank == 2 && b.components >= 2) {
    out.loss.reset();
    out.loss_withheld = true;
  }
  // A loss key over a list of unnamed values ("loss:0.3555 0.3044 2.7294
  // 0.1937"): the parts of the loss, none of them the whole.
  for (size_t i = 0; i + 2 < scanned.fields.size() && out.loss; ++i) {
    const ScannedField& f = scanned.fields[i];
    if (KeyOf(f.key) != "loss" || f.value != *out.loss) continue;
    int unnamed = 0;
    for (size_t j = i + 1; j < scanned.fields.size(); ++j) {
      const ScannedField& g = scanned.fields[j];
      if (!g.key.empty() || !g.unit.empty() || g.parenthesised || g.total || g.integer) break;
      ++unnamed;
    }
    if (unnamed >= 2) {
      out.loss.reset();
      out.loss_withheld = true;
    }
  }
  // DeepSpeed's timer prints "epoch/global_step, SamplesPerSec=…".
  if (b.deepspeed_timer && b.step_rank <= 0) {
    out.step = out.total_steps;
    out.total_steps.reset();
  }
  bool non_training = false;
  int eval_words = 0;
  for (const auto& w : scanned.words) {
    if (IsEvalWord(w)) ++eval_words;
    non_training = non_training || IsNonTrainingWord(w);
  }
  // A record with no step that prints the training loss ("Epoch: 3 | train
  // loss: 0.32 | test accuracy: 0.91"): evaluation words that only begin keys
  // name its columns, not the record.
  int eval_columns = 0;
  if (!out.step && b.train_loss && out.loss)
    for (const auto& f : scanned.fields)
      if (IsEvalWord(FirstWord(f.key))) ++eval_columns;
  if (eval_words > eval_columns) out.is_eval = true;
  // Keys in an evaluation namespace ("val/loss", "validation/main/loss")
  // make an evaluation record unless it also prints training facts (a
  // metrics table with a column for each).
  bool eval_keys = std::any_of(scanned.fields.begin(), scanned.fields.end(), [](const ScannedField& f) {
    return f.key.find('/') != std::string::npos && IsEvalPrefix(FirstWord(f.key));
  });
  if (eval_keys && !out.loss && !out.step_time_s && !out.throughput) out.is_eval = true;
  if (non_training && !out.loss) out.is_eval = true;  // not training progress either
  if (out.step || b.has_counter) out.epoch_as_step.reset();
  // A boosting round "[1500]\tvalidation_0-rmse:3.65873" prints its metrics
  // each round: its round is the progress, whatever the metrics evaluate.
  bool round_metrics = out.step_positional && scanned.fields.size() >= 2;
  for (size_t i = 1; i < scanned.fields.size() && round_metrics; ++i) {
    const ScannedField& f = scanned.fields[i];
    round_metrics = !f.key.empty() && !f.total && !f.integer;  // named metrics, not "Channel 00/02 : 0 1 2 3"
  }
  bool evidence =
      b.evidence || scanned.has_bar || out.loss || out.step_time_s || out.throughput || b.clock_s || round_metrics;
  out.is_training = !out.is_eval && evidence && (out.Facts() > 0 || out.epoch_as_step);
  out.is_train_and_eval = out.is_eval && !non_training && b.train_loss && out.step && out.loss;
  out.layout = StableHash(LayoutSignature(scanned));
  return out;
}

std::vector<std::string> VocabularyHints(const ScannedField& f) {
  std::vector<std::string> out;
  const std::string k = KeyOf(f.key);
  std::string unit = Lower(f.unit);
  if (StepKeyRank(k) >= 0) out.push_back("step");
  if (IsEpochKey(k) || IsEpochKey(LastWord(k))) out.push_back("epoch");
  if (IsTotalKey(k)) out.push_back("total");
  if (IsStepTimeKey(k)) out.push_back("time");
  if (IsStepRateKey(k)) out.push_back("rate");
  if (!ThroughputUnitFromKey(k).empty()) out.push_back("throughput");
  if (LossKeyRank(k) >= 0) out.push_back("loss");
  if (IsEvalPrefix(FirstWord(k))) out.push_back("eval");
  if (In(k, {"lr", "learning rate"})) out.push_back("lr");
  if (unit.find('/') != std::string::npos) {
    auto parts = SplitSlash(unit);
    if (IsStepNoun(parts[0]) && IsSecondNoun(parts[1])) out.push_back("unit-rate");
    else if (TimeUnitScale(parts[0]) > 0 && !parts[0].empty() && (IsStepNoun(parts[1]) || parts[1].empty()))
      out.push_back("unit-time");
    else if (IsSecondNoun(parts[1])) out.push_back("unit-throughput");
  }
  return out;
}

ProgressLine InterpretLine(std::string_view line) { return InterpretScanned(ScanLine(line)); }

bool AnnouncesEvaluation(const ScannedLine& s) {
  if (s.words.empty() || s.words.size() > 6 || s.fields.size() > 1 || s.has_bar) return false;
  if (s.fields.size() == 1 && (!s.fields[0].integer || !IsEpochKey(LastWord(s.fields[0].key)))) return false;
  bool eval = false;
  for (const auto& w : s.words) {
    if (IsNonTrainingWord(w)) return false;
    eval = eval || IsEvalWord(w);
  }
  return eval;
}

}  // namespace schedmate
