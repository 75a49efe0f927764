// The key vocabulary of stage 2: word lists and key ranks (key_vocabulary.h).
// The Builder in progress_line.cc reads a scanned line's fields with them.
#include "tracker/key_vocabulary.h"

#include <algorithm>
#include <cmath>

#include "tracker/field_scanner.h"

namespace schedmate::tracker_internal {

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
                "sec/it", "time/batch", "iter time s"}) ||
         NamesATimePerStep(k);
}

// A key composed of a time word and a step noun ("time per batch", "itr
// time", "seconds per update"): the time of one step, whatever the order.
// Not an evaluation key's, nor a part of the step's time (data loading), nor
// a clock or what is left ("total", "elapsed", "eta"), nor a rate ("steps
// per sec", "step/sec").
bool NamesATimePerStep(std::string_view k) {
  bool time = false, step = false, after_per = false;
  size_t start = 0, words = 0;
  while (start <= k.size()) {
    size_t end = k.find_first_of(" /", start);
    if (end == std::string_view::npos) end = k.size();
    std::string_view w = k.substr(start, end - start);
    bool after_slash = start > 0 && k[start - 1] == '/';
    start = end + 1;
    if (w.empty()) continue;
    if (++words == 1 && IsEvalPrefix(w)) return false;
    if (In(w, {"data", "load", "loading", "total", "elapsed", "eta", "remaining", "left", "epoch", "epochs"}))
      return false;
    bool time_word = In(w, {"time", "sec", "secs", "seconds", "duration"});
    if (time_word && (after_per || after_slash)) return false;  // a rate
    after_per = w == "per";
    time = time || time_word;
    step = step || In(w, {"it", "iter", "itr", "iteration", "step", "batch", "update"});
  }
  return time && step && words <= 4;
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
  return In(n, {"it", "its", "iter", "iters", "itr", "itrs", "iteration", "iterations", "step", "steps",
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
  if (NamesTheWholeLoss(k)) return 1;
  // Lightning: "train_loss_step" is the current value, "…_epoch" the mean.
  if (k == "loss step" ||
      (k.size() > 10 && k.compare(k.size() - 10, 10, " loss step") == 0 && !IsEvalPrefix(FirstWord(k))))
    return 1;
  // "loss", or a loss function's glued name ("logloss", "binary logloss",
  // "CrossEntropyLoss"); not a part's ("RCNNL1Loss").
  std::string_view last = LastWord(k);
  bool lossy = last == "loss" || In(last, {"logloss", "mlogloss", "nllloss", "celoss", "bceloss", "mseloss",
                                           "crossentropyloss", "crossentropy", "mse", "xent", "nll", "bce"});
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

// The word "loss" with a word of the whole ("Tot Loss" beside "Loc Loss" and
// "Cls Loss", "Gen Loss Total"): the whole loss of the record, not one of its
// parts. Not an evaluation key's.
bool NamesTheWholeLoss(std::string_view k) {
  bool loss = false, whole = false;
  size_t start = 0, words = 0;
  while (start <= k.size()) {
    size_t end = k.find_first_of(" /", start);
    if (end == std::string_view::npos) end = k.size();
    std::string_view w = k.substr(start, end - start);
    start = end + 1;
    if (w.empty()) continue;
    if (++words == 1 && IsEvalPrefix(w)) return false;
    loss = loss || w == "loss";
    whole = whole || In(w, {"total", "tot", "sum", "overall", "all", "full"});
  }
  return loss && whole && words <= 4;
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
  if (slash == std::string_view::npos || slash + 1 >= k.size() || IsEvalPrefix(FirstWord(k))) return std::string(k);
  std::string_view last = k.substr(slash + 1);
  // Under a loss namespace the leaf names which loss: "loss/train/total" and
  // "losses/loss" are the whole training loss, "loss/train/ce" and
  // "losses/loss_q" components of it — also when the whole key looks known.
  std::string_view first = k.substr(0, k.find('/'));
  if (first == "loss" || first == "losses") {
    for (std::string_view part : SplitSlash(k))
      if (IsEvalPrefix(part)) return "val loss";
    if (In(last, {"total", "train", "training", "all", "overall", "sum", "loss"})) return "loss";
    if (LossKeyRank(last) >= 0) return std::string(last);  // "loss/total_loss"
    return std::string(last) + " loss";
  }
  if (IsKnownKey(k)) return std::string(k);
  return std::string(last);
}

// An integer small enough to be a step count (and to convert exactly).
bool IsCount(const ScannedField& f) { return f.integer && f.value >= 0 && f.value < 1e15; }

// A step key's value may be printed as a whole float ("global_step: 649.0"
// from a CSV or pandas column).
bool IsWholeCount(const ScannedField& f) {
  return IsCount(f) || (f.value >= 0 && f.value < 1e15 && f.value == std::floor(f.value));
}

}  // namespace schedmate::tracker_internal
