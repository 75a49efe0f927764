// The semantic world written to disk for inspection and for the real
// components to read (`schedmate world materialize`): generated
// repositories per family and style, each with COMMAND and TRUTH; or a
// mapped trace's sampled jobs with their repositories (once per content
// key), their logs and a jobs.jsonl of the truth.
#ifndef SCHEDMATE_EXPERIMENTS_WORLD_EXPORT_H_
#define SCHEDMATE_EXPERIMENTS_WORLD_EXPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/status.h"
#include "experiments/world_setup.h"

namespace schedmate {

struct GeneratedReposOptions {
  std::string out, family;  // family "": all 15
  std::string style = "all";
  int count = 1;  // per family and style
  uint64_t seed = 1;
};

// Repositories written under <out>/<family>-<style>-<i>/; InvalidArgument
// naming the flag for an unknown family or style.
Result<int> WriteGeneratedRepos(const GeneratedReposOptions& options);

struct WorldExportOptions {
  std::string out;
  int64_t sample = 200;        // jobs (seeded sample)
  uint64_t seed = 1;           // the mapping's seed: the sample's and the logs'
  bool metadata_only = false;  // jobs.jsonl only: no repositories, no logs
};

struct WorldExport {
  size_t jobs = 0, failed = 0, repositories = 0;
};

Result<WorldExport> ExportMappedTrace(const MappedTrace& m, const WorldExportOptions& options);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_WORLD_EXPORT_H_
