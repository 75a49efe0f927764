// What `schedmate lucid` reads and writes besides the runs themselves: the
// experiment file (paths resolved against it and the shared data), the
// ablation set, and the output directory's files.
#ifndef SCHEDMATE_EXPERIMENTS_LUCID_FILES_H_
#define SCHEDMATE_EXPERIMENTS_LUCID_FILES_H_

#include <string>
#include <vector>

#include "core/status.h"
#include "experiments/lucid_experiment.h"

namespace schedmate {

// The experiment JSON at `path`: `shared` and `trace.path` resolved —
// ${SHARED}/… under the shared data directory (`shared_flag` when given,
// else the file's own `shared`, else found), anything else relative to the file.
Result<LucidExperimentConfig> ReadLucidConfigFile(const std::string& path, const std::string& shared_flag);

// Each consumption point alone and the threshold, detection-rate, hit-rate
// and LLM-latency sweeps, after the full Lucid + schedmate.
std::vector<LucidVariant> LucidAblations();

// summary.json, table.txt, the plots and <label>_jobs.csv per run under `dir`
// (created). A run's label becomes its file name with every character other
// than letters, digits, '.' and '-' as '_'.
Status WriteLucidOutputs(const LucidComparison& c, const std::string& dir);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_LUCID_FILES_H_
