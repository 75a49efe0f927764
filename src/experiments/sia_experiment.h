// Sia and Sia + schedmate on Sia's workload files (issue 17): each file's
// jobs replayed by plain Sia and by Sia with a history (a match skips the
// cold-start profile; src/integrations/sia_schedmate.h) on the same cluster,
// per file; experiments/sia_report prints them. cli/ only parses flags.
#ifndef SCHEDMATE_EXPERIMENTS_SIA_EXPERIMENT_H_
#define SCHEDMATE_EXPERIMENTS_SIA_EXPERIMENT_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/data_paths.h"
#include "core/status.h"
#include "integrations/sia_schedmate.h"
#include "policies/sia/sia_simulator.h"
#include "world/trace_mapping.h"

namespace schedmate {

enum class SiaRuns { kBoth, kSia, kSchedmate };

struct SiaExperimentConfig {
  std::string workloads, profiles;  // a workload CSV or folder; the profile folder
  sia::SiaCluster cluster = sia::DefaultSiaCluster();
  sia::SiaParams params;
  sia::SiaSimOptions options;
  SiaRuns runs = SiaRuns::kBoth;
  // "sqlite" (a fresh file per workload file) or "redis://host:port[/prefix]"
  // (a fresh prefix per workload file).
  std::string history = "sqlite";
  MappingParams mapping;  // the semantic world's seed and project parameters
  std::string shared;     // the --shared flag, for the workload catalog
};

// Errors name the config file and the field.
Result<SiaExperimentConfig> ReadSiaExperimentConfig(const std::string& path, const SharedDir& shared);
Result<sia::Bootstrap> ParseSiaBootstrap(const std::string& s, const std::string& where);
Result<SiaRuns> ParseSiaRuns(const std::string& s, const std::string& where);

struct SiaFileResult {
  std::string file;
  std::optional<sia::SiaRunResult> sia, schedmate;
  std::optional<SiaSchedmateStats> stats;  // with the schedmate run
};

struct SiaComparison {
  std::vector<SiaFileResult> files;
};

// Workload files of `path` in natural order (workload-2 before -10), at most
// max_files (0 = all). `on_file` is called as each file finishes.
std::vector<std::string> SiaWorkloadFiles(const std::string& path, int max_files);
Result<SiaComparison> RunSiaComparison(const SiaExperimentConfig& c, int max_files,
                                       const std::function<void(const SiaFileResult&)>& on_file = {});

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SIA_EXPERIMENT_H_
