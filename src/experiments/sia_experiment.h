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

// Which of a folder's workload files run: in natural order (workload-2
// before -10), starting at the `first`-th (0-based, wrapping around the
// folder), at most `max` of them (0 = all).
struct SiaFileSelection {
  int max = 0;
  int first = 0;
};

// Workload files of `path` as `selection` picks them; a file path is itself.
std::vector<std::string> SiaWorkloadFiles(const std::string& path, SiaFileSelection selection = {});
// `on_file` is called as each file finishes.
Result<SiaComparison> RunSiaComparison(const SiaExperimentConfig& c, SiaFileSelection selection,
                                       const std::function<void(const SiaFileResult&)>& on_file = {});

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SIA_EXPERIMENT_H_
