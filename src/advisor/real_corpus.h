// The Advisor's real-repository corpus (docs/advisor-real-corpus.md): a
// manifest of launch commands in public repositories at pinned commits, each
// hand-labelled for every schema field, and the scoring of extracted
// metadata against those labels. The repositories themselves are local git
// mirrors (never part of the tree); an item whose mirror is absent is
// skipped, not failed.
#ifndef SCHEDMATE_ADVISOR_REAL_CORPUS_H_
#define SCHEDMATE_ADVISOR_REAL_CORPUS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/facts.h"
#include "core/json.h"
#include "core/status.h"

namespace schedmate {

// The scored fields, in report order.
const std::vector<std::string>& RealCorpusFields();

struct RealCorpusItem {
  std::string id, repo, commit, workdir, command, command_source, split, notes;
  std::vector<std::string> styles;
  std::string where;  // "manifest.jsonl:12"
  // Field → label: a string, a list of equivalent strings, a number, or null.
  std::map<std::string, Json> labels;
  std::map<std::string, std::string> evidence;
};

// Every line checked: keys present and typed, commit 40 hex digits, split
// dev|val, every field labelled, ids unique. Errors name file:line and field.
Result<std::vector<RealCorpusItem>> LoadRealCorpus(const std::string& path);

// The git directory of `repo` ("owner/name") under `mirrors`, trying the
// layouts owner+name/repo (the session fetch tool's), owner+name and
// owner/name; nullopt when none is a git directory.
std::optional<std::string> FindMirror(const std::string& mirrors, const std::string& repo);

enum class FieldOutcome {
  kCorrect,       // equal to the label (null = null counts)
  kMissing,       // label set, extractor said null
  kWrong,         // extractor gave a value that is not the label (confidently wrong)
};

// The extracted value of `field` as JSON (null when unknown).
Json ExtractedValue(const WorkloadMetadata& md, const std::string& field);

// Compares an extracted value with a label. Strings fold case and
// punctuation and also match on their last '/'-segment; numbers compare
// exactly, learning rates within 1e-6 relative.
FieldOutcome ScoreField(const std::string& field, const Json& label, const Json& extracted);

// Per-field counts of a set of scored items.
struct RealTally {
  int items = 0, failed = 0;  // failed: extraction returned an error (every field missing or wrong vs null)
  std::map<std::string, int> correct, wrong, missing, labelled_null;
  void Add(const std::map<std::string, FieldOutcome>& outcomes, const std::map<std::string, Json>& labels);
  double Accuracy(const std::string& field) const;
  double WrongRate(const std::string& field) const;
  double MeanAccuracy() const;  // over the fields
  double MeanWrongRate() const;
};

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_REAL_CORPUS_H_
