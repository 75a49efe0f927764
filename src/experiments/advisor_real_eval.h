// `schedmate eval advisor --real MANIFEST --mirrors DIR`: the embedded
// extractor on real public repositories (docs/advisor-real-corpus.md), per
// field accuracy and confidently-wrong rate on the development and the
// validation part, per style, command variants, and the misses.
#ifndef SCHEDMATE_EXPERIMENTS_ADVISOR_REAL_EVAL_H_
#define SCHEDMATE_EXPERIMENTS_ADVISOR_REAL_EVAL_H_

#include <cstdio>
#include <string>

#include "core/status.h"

namespace schedmate {

struct AdvisorRealEvalOptions {
  std::string manifest;  // data/eval/advisor_real.jsonl
  std::string mirrors = "/work/.mirror";
  std::string only;  // one item id or repository
  bool json = false, misses = false, progress = false;
};

// The report as the command prints it (a table, or JSON with `json`); a
// "skipped: …" line when no repository is mirrored. With `progress`, a
// progress line goes to `progress_out` (may be null). An error only when
// the manifest cannot be read.
Result<std::string> RunAdvisorRealEval(const AdvisorRealEvalOptions& options, std::FILE* progress_out);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_ADVISOR_REAL_EVAL_H_
