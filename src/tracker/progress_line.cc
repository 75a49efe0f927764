#include "tracker/progress_line.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "core/random.h"

namespace schedmate {
namespace {

bool In(std::string_view k, std::initializer_list<std::string_view> set) {
  for (auto s : set)
    if (k == s) return true;
  return false;
}

std::string_view FirstWord(std::string_view k) { return k.substr(0, k.find_first_of(" /")); }
std::string_view LastWord(std::string_view k) {
  size_t p = k.find_last_of(" /");
  return p == std::string_view::npos ? k : k.substr(p + 1);
}

bool IsEvalPrefix(std::string_view w) {
  return In(w, {"val", "valid", "validation", "test", "eval", "evaluation", "dev"});
}

// Words that mark a line as evaluation output rather than training
// (fairseq "valid on 'valid' subset", mmcv "Epoch(val)", nanoGPT
// "step 250: train loss …, val loss …", Lightning "Validation DataLoader").
bool IsEvalWord(std::string_view w) {
  return In(w, {"val", "valid", "validation", "validate", "validating", "eval",
                "evaluation", "evaluate", "evaluating", "test", "testing",
                "inference", "predict", "predicting"});
}

// Words of a progress bar that is not training: downloads, loading
// checkpoint shards, dataset preprocessing ("Map: 45%|…", "Tokenizing").
bool IsNonTrainingWord(std::string_view w) {
  return In(w, {"downloading", "download", "loading", "uploading", "upload", "extracting",
                "tokenizing", "tokenize", "map", "filter", "preprocessing", "processing",
                "saving", "writing", "reading", "resolving", "fetching", "compiling",
                "building", "shards", "caching", "unpacking", "copying", "generating", "finding"});
}

// Rank of a key as the step index; lower wins, -1 = not a step key.
int StepKeyRank(std::string_view k) {
  if (In(k, {"global step", "globalstep", "trainer/global step", "global steps"})) return 1;
  if (In(k, {"step", "iteration", "iter", "it", "train step", "training step",
             "optimizer step", "opt step", "current step", "cur step", "curr iter",
             "train/global step", "train iter", "niter", "n iter"}))
    return 2;
  if (In(k, {"num updates", "updates", "update"})) return 3;
  if (In(k, {"batch", "batch idx", "batch id"})) return 4;
  if (In(k, {"iters", "steps", "iterations", "#"})) return 5;  // "#": a table's count column
  // "the current batch 2000", "global iter 15": a step noun qualified by
  // position words (never by evaluation or size words, nor a loss's:
  // Lightning's "train/loss_step" is the loss at this step).
  std::string_view last = LastWord(k), first = FirstWord(k);
  bool qualifier_ok = !IsEvalPrefix(first) && k.find("size") == std::string_view::npos &&
                      k.find("per") == std::string_view::npos && k.find("num") == std::string_view::npos &&
                      k.find("total") == std::string_view::npos && k.find("max") == std::string_view::npos &&
                      k.find("loss") == std::string_view::npos;
  if (qualifier_ok && k.size() <= 24 && In(last, {"step", "iter", "iteration", "batch"})) return 6;
  return -1;
}

bool IsEpochKey(std::string_view k) {
  return In(k, {"epoch", "epochs", "train epoch", "current epoch", "ep"});
}

bool IsTotalKey(std::string_view k) {
  return In(k, {"total steps", "max steps", "total iters", "max iter", "max iters",
                "train iters", "num training steps", "total training steps",
                "total optimization steps", "max epochs steps"});
}

// Seconds per step from a key such as "time" or "batch_cost".
bool IsStepTimeKey(std::string_view k) {
  return In(k, {"time", "timer", "dt", "seconds", "iter time", "step time", "batch time", "time per step",
                "time per iteration", "elapsed time per iteration", "time/step",
                "time/iter", "batch cost", "avg batch cost", "iteration time",
                "train time per step", "seconds per step", "time per iter",
                "step time s", "train step time", "sec/step", "s/step", "s/it",
                "sec/it", "time/batch", "iter time s"});
}

// A clock since the start of training ("Elapsed_time: 2585.5", "10233 s
// elapsed"): differenced over the steps between records, like a stamp.
bool IsClockKey(std::string_view k) {
  return In(k, {"elapsed", "elapsed time", "time elapsed", "elapsed s", "elapsed sec", "elapsed secs", "elap"});
}

// Steps per second from a key (fairseq `ups`, TF `global_step/sec`).
bool IsStepRateKey(std::string_view k) {
  return In(k, {"ups", "global step/sec", "global step/s", "steps per second", "steps per sec", "steps/sec", "steps/s",
                "step/sec", "it/s", "it/sec", "iter/s", "iter/sec", "train steps per second",
                "iterations per second", "step/s", "batches per second"});
}

bool IsStepNoun(std::string_view n) {
  return In(n, {"it", "its", "iter", "iters", "iteration", "iterations", "step", "steps",
                "batch", "batches", "update", "updates", "epoch", "epochs"});
}

// A key with a step noun among its words ("iter time", "time per step").
bool NamesAStep(std::string_view k) {
  size_t start = 0;
  while (start < k.size()) {
    size_t end = k.find_first_of(" /", start);
    if (end == std::string_view::npos) end = k.size();
    if (IsStepNoun(k.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

bool IsSecondNoun(std::string_view n) { return In(n, {"s", "sec", "secs", "second", "seconds"}); }

double TimeUnitScale(std::string_view u) {
  if (u.empty() || In(u, {"s", "sec", "secs", "seconds"})) return 1;
  if (In(u, {"ms", "msec"})) return 1e-3;
  if (In(u, {"us"})) return 1e-6;
  if (In(u, {"min", "mins"})) return 60;
  return -1;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::vector<std::string_view> SplitSlash(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t p = s.find('/', start);
    parts.push_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) break;
    start = p + 1;
  }
  return parts;
}

// A loss key's rank; lower wins, -1 = not the training loss.
int LossKeyRank(std::string_view k) {
  if (k == "loss") return 0;
  if (k == "closs") return 1;
  // The whole loss named after the word "loss" ("loss_total 5.35" beside loss_a, loss_b).
  if (In(k, {"loss total", "loss overall", "loss sum", "loss all"})) return 1;
  // Lightning: "train_loss_step" is the current value, "…_epoch" the mean.
  if (k == "loss step" ||
      (k.size() > 10 && k.compare(k.size() - 10, 10, " loss step") == 0 && !IsEvalPrefix(FirstWord(k))))
    return 1;
  // "loss", or a loss function's glued name ("logloss", "binary logloss",
  // "CrossEntropyLoss"); not a part's ("RCNNL1Loss").
  std::string_view last = LastWord(k);
  bool lossy = last == "loss" || In(last, {"logloss", "mlogloss", "nllloss", "celoss", "bceloss", "mseloss",
                                           "crossentropyloss", "crossentropy"});
  if (!lossy || k.find("scale") != std::string_view::npos) return -1;
  std::string_view first = FirstWord(k);
  if (IsEvalPrefix(first)) return -1;
  // "train loss", "mean loss" — but "mean value loss" is one component of it.
  bool two_words = std::count(k.begin(), k.end(), ' ') == 1;
  if (two_words && In(first, {"lm", "total", "train", "training", "overall", "avg", "mean", "tr",
                              "batch", "running", "global", "weighted", "final"}))
    return 1;
  return 2;
}

// Throughput from a key when the unit is not printed (or a better name).
std::string ThroughputUnitFromKey(std::string_view k) {
  // DeepSpeed: "SamplesPerSec", "CurrSamplesPerSec", "RunningAvgSamplesPerSec"
  // (camelCase keys read as words: "curr samples per sec").
  if (k.size() >= 16 && k.compare(k.size() - 16, 16, " samples per sec") == 0) return "samples/s";
  if (In(k, {"samples per second", "samplespersec", "samples/sec", "samples per sec",
             "train samples per second", "sample/s"}))
    return "samples/s";
  if (In(k, {"tokens per second", "tokens per sec", "tokens/sec", "tok/s", "tokens/s"}))
    return "tokens/s";
  if (k == "wps" || k == "words per second") return "words/s";
  if (k == "ips") return "images/s";
  if (k == "fps") return "frames/s";  // RL environment frames, video frames
  if (k == "tps") return "tokens/s/GPU";  // torchtitan: tokens per second per device
  if (k == "tgs") return "tokens/s/GPU";  // InternEvo: tokens per GPU per second
  if (k == "tflops" || k == "tflop/s") return "TFLOP/s";
  return "";
}

int ThroughputRank(std::string_view unit) {
  std::string u = Lower(unit);
  if (u.find("flop") != std::string::npos) return 2;
  for (std::string_view noun : {"sample", "token", "tok", "word", "image", "img", "seq",
                                "sentence", "example", "frame", "pixel"})
    if (u.find(noun) != std::string::npos) return 0;
  return 1;
}

// Logger words that end up in front of the first key ("… INFO iter 5"):
// dropped before the key is matched.
std::string_view StripLogPrefix(std::string_view k) {
  while (true) {
    size_t sp = k.find(' ');
    if (sp == std::string_view::npos) return k;
    std::string_view w = k.substr(0, sp);
    if (!In(w, {"info", "debug", "warn", "warning", "notice", "root", "main", "log", "logger",
                "stdout", "stderr", "trainer", "train", "training"}))
      return k;
    k = k.substr(sp + 1);
  }
}

// A key that names a rate or a time by its parts ("Steps/second",
// "examples per sec", "train tokens/s/gpu", "secs per batch"): the rate
// written as the key, read as a unit would be. Leading qualifiers
// ("train", "avg", "current") are dropped; an evaluation key is none.
std::string RateUnitFromKey(std::string_view k) {
  std::vector<std::string_view> words;
  size_t start = 0;
  while (start <= k.size()) {
    size_t sp = k.find(' ', start);
    std::string_view w = k.substr(start, sp == std::string_view::npos ? std::string_view::npos : sp - start);
    if (!w.empty()) words.push_back(w);
    if (sp == std::string_view::npos) break;
    start = sp + 1;
  }
  if (words.empty() || words.size() > 5 || IsEvalPrefix(FirstWord(k))) return "";
  size_t i = 0;
  while (i + 1 < words.size() &&
         In(words[i], {"train", "training", "avg", "average", "mean", "curr", "current", "running", "global",
                       "overall", "total", "effective", "actual"}))
    ++i;
  std::string unit;
  for (; i < words.size(); ++i) {
    if (words[i] == "per") {
      if (unit.empty() || unit.back() == '/') return "";
      unit += '/';
      continue;
    }
    if (!unit.empty() && unit.back() != '/') return "";  // two nouns in a row: not a rate
    unit += words[i];
  }
  if (unit.find('/') == std::string::npos || unit.back() == '/' || unit.front() == '/') return "";
  return unit;
}

bool IsKnownKey(std::string_view k) {
  return StepKeyRank(k) >= 0 || IsEpochKey(k) || IsTotalKey(k) || LossKeyRank(k) >= 0 || IsStepTimeKey(k) ||
         IsStepRateKey(k) || !ThroughputUnitFromKey(k).empty();
}

// The key a field is read under: logger words dropped, and a namespaced key
// the vocabulary does not know read by its last part
// ("throughput/device/tokens_per_second" → "tokens per second") unless the
// namespace is an evaluation one ("val/…").
// A key written as a sentence: "loss is: [0.07]", "loss was 0.5".
std::string_view WithoutVerb(std::string_view k) {
  for (std::string_view verb : {" is", " was", " are"})
    if (k.size() > verb.size() && k.substr(k.size() - verb.size()) == verb) k.remove_suffix(verb.size());
  return k;
}

std::string KeyOf(std::string_view raw) {
  std::string_view k = WithoutVerb(StripLogPrefix(raw));
  size_t slash = k.rfind('/');
  if (slash == std::string_view::npos || slash + 1 >= k.size() || IsKnownKey(k) || IsEvalPrefix(FirstWord(k)))
    return std::string(k);
  std::string_view last = k.substr(slash + 1);
  // Under a loss namespace the leaf names which loss: "loss/train/total" is
  // the whole training loss, "loss/train/ce" one component of it.
  std::string_view first = k.substr(0, k.find('/'));
  if (first == "loss" || first == "losses") {
    for (std::string_view part : SplitSlash(k))
      if (IsEvalPrefix(part)) return "val loss";
    if (In(last, {"total", "train", "training", "all", "overall", "sum", "loss"})) return "loss";
    return std::string(last) + " loss";
  }
  return std::string(last);
}

// An integer small enough to be a step count (and to convert exactly).
bool IsCount(const ScannedField& f) { return f.integer && f.value >= 0 && f.value < 1e15; }

// A step key's value may be printed as a whole float ("global_step: 649.0"
// from a CSV or pandas column).
bool IsWholeCount(const ScannedField& f) {
  return IsCount(f) || (f.value >= 0 && f.value < 1e15 && f.value == std::floor(f.value));
}

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
    if (loss_key >= 0 && LastWord(k) != "loss" && !trained && FirstWord(k) != "loss") loss_key = -1;
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

// A finished bar that prints only its elapsed time (old Keras: "1464/1464
// [=====] - 240s - loss: 2.83"): a duration without a key after the bar's
// complete counter took the bar's steps.
std::optional<double> FinishedBarTime(const ScannedLine& scanned, const ProgressLine& p) {
  if (!scanned.has_bar || !p.step || !p.total_steps || *p.step != *p.total_steps || *p.step <= 0) return std::nullopt;
  bool after_counter = false;
  for (const auto& f : scanned.fields) {
    if (f.total) {
      after_counter = static_cast<int64_t>(f.value) == *p.step;
      continue;
    }
    double scale = TimeUnitScale(Lower(f.unit));
    if (after_counter && f.key.empty() && !f.unit.empty() && scale > 0 && !f.parenthesised && f.value > 0)
      return f.value * scale / static_cast<double>(*p.step);
  }
  return std::nullopt;
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
  if (!out.step_time_s) out.step_time_s = FinishedBarTime(scanned, out);
  if (b.clock_s) {  // the run's own clock times its records better than the logger's stamp
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
  if (b.loss_rank == 2 && b.components >= 2) out.loss.reset();
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
