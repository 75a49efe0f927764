// The hand-written key vocabulary of stage 2 (progress_line.h): which
// normalised keys (field_scanner.h ScannedField::key), key words and units
// name a step, an epoch, a total, a step time, a clock, a rate, a
// throughput or the loss, and which words mark evaluation or non-training
// output. Internal to src/tracker.
#ifndef SCHEDMATE_TRACKER_KEY_VOCABULARY_H_
#define SCHEDMATE_TRACKER_KEY_VOCABULARY_H_

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

struct ScannedField;

namespace tracker_internal {

bool In(std::string_view k, std::initializer_list<std::string_view> set);
// The key's first / last word, words split at ' ' and '/'.
std::string_view FirstWord(std::string_view k);
std::string_view LastWord(std::string_view k);
std::string Lower(std::string_view s);
// "a/b/c" → {"a", "b", "c"}.
std::vector<std::string_view> SplitSlash(std::string_view s);

// "val", "test", "eval", …: the first word of an evaluation key.
bool IsEvalPrefix(std::string_view w);
// Words that mark a line as evaluation output rather than training.
bool IsEvalWord(std::string_view w);
// Words of a progress bar that is not training (downloads, loading, preprocessing).
bool IsNonTrainingWord(std::string_view w);

// Rank of a key as the step index; lower wins, -1 = not a step key.
int StepKeyRank(std::string_view k);
bool IsEpochKey(std::string_view k);
bool IsTotalKey(std::string_view k);
// Seconds per step from a key such as "time" or "batch_cost".
bool IsStepTimeKey(std::string_view k);
// A time word and a step noun in one key ("time per batch", "itr time").
bool NamesATimePerStep(std::string_view k);
// A clock since the start of training ("Elapsed_time: 2585.5").
bool IsClockKey(std::string_view k);
// Steps per second from a key (fairseq `ups`, TF `global_step/sec`).
bool IsStepRateKey(std::string_view k);
bool IsStepNoun(std::string_view n);
// A key with a step noun among its words ("iter time", "time per step").
bool NamesAStep(std::string_view k);
bool IsSecondNoun(std::string_view n);
// Seconds per unit of a time unit ("" and "s" → 1, "ms" → 1e-3); -1 when none.
double TimeUnitScale(std::string_view u);
// A loss key's rank; lower wins, -1 = not the training loss.
int LossKeyRank(std::string_view k);
// "loss" beside a word of the whole ("tot loss", "gen loss total").
bool NamesTheWholeLoss(std::string_view k);
// Throughput from a key when the unit is not printed (or a better name); "" when none.
std::string ThroughputUnitFromKey(std::string_view k);
// 0 for data per second (samples, tokens, images…), 2 for FLOP/s, else 1.
int ThroughputRank(std::string_view unit);
// Logger words in front of the first key ("info", "trainer", …) dropped.
std::string_view StripLogPrefix(std::string_view k);
// A key that names a rate or a time by its parts ("Steps/second",
// "examples per sec"): the rate as a unit ("steps/second"), else "".
std::string RateUnitFromKey(std::string_view k);
bool IsKnownKey(std::string_view k);
// A key written as a sentence: "loss is: [0.07]", "loss was 0.5".
std::string_view WithoutVerb(std::string_view k);
// The key a field is read under: logger words dropped, and a namespaced key
// the vocabulary does not know read by its last part.
std::string KeyOf(std::string_view raw);
// An integer small enough to be a step count (and to convert exactly).
bool IsCount(const ScannedField& f);
// IsCount, or a whole float ("global_step: 649.0").
bool IsWholeCount(const ScannedField& f);

}  // namespace tracker_internal
}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_KEY_VOCABULARY_H_
