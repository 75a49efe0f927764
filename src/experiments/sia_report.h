// What `schedmate sia` prints: the text rows per workload file and the mean ±
// std over the files, or the same as one JSON object (--json). Both read the
// same per-run metrics, so the two outputs never disagree.
#ifndef SCHEDMATE_EXPERIMENTS_SIA_REPORT_H_
#define SCHEDMATE_EXPERIMENTS_SIA_REPORT_H_

#include <string>

#include "core/json.h"
#include "experiments/sia_experiment.h"

namespace schedmate {

std::string FormatSiaHeader(const SiaExperimentConfig& c);
std::string FormatSiaFile(const SiaFileResult& r);
std::string FormatSiaSummary(const SiaComparison& c);

// {"config": {...}, "files": [{"file", "path", "runs": {"sia": {...},
// "sia_schedmate": {...}}, "schedmate": {...}}], "summary": {"files", "runs":
// {"sia": {metric: {"mean", "std"}}, ...}, ...}}; a run absent from --runs is
// absent. Hours end in _h; std is over files (population), as the text.
// "runs": [{"label": "sia" | "sia+schedmate", "files", "jobs", metric: mean
// over files, ...}] holds the same means flat, for `experiments merge`; the
// schedmate row adds hit_rate_pct, avg_jct_change_pct, profile_gpu_h_saved.
Json SiaComparisonToJson(const SiaExperimentConfig& config, const SiaComparison& c);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SIA_REPORT_H_
