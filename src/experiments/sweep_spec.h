// A sweep file: experiments (an existing schedmate command, its config and
// arguments) crossed with settings and seeds, expanded into one task per
// run — the unit `schedmate experiments run` executes locally or as one
// SLURM array task. docs/experiments.md describes the format.
//
//   {"name": "policies", "seeds": [1, 2],
//    "experiments": [{"name": "philly-syn", "command": "simulate",
//                     "args": ["--synthetic", "philly", "--jobs", "300", "--nodes", "4"],
//                     "matrix": {"--policy": ["fifo", "sjf"]}}]}
//
// Every task's argv ends with the flags the sweep owns: --seed S, --json,
// --progress off (and --out DIR/task-<i>/out with keep_outputs), so a
// sweep's args may not set them. Unknown fields are errors, and every error
// names the file, the line and the field.
#ifndef SCHEDMATE_EXPERIMENTS_SWEEP_SPEC_H_
#define SCHEDMATE_EXPERIMENTS_SWEEP_SPEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "core/status.h"

namespace schedmate {

// The commands whose --json output `experiments merge` understands.
const std::vector<std::string>& SweepCommands();

struct SweepSetting {
  std::string name;  // "" for the one setting of an experiment without settings
  std::vector<std::string> args;
};

struct SweepExperiment {
  std::string name, command;
  std::string config;  // absolute path, or "" for none
  std::vector<std::string> args;
  std::vector<SweepSetting> settings;  // the explicit list crossed with the matrix
  std::vector<int64_t> seeds;
  bool keep_outputs = false;  // add --out <task dir>/out
};

struct SweepSpec {
  std::string name;
  std::string file;  // absolute path of the sweep file
  std::string cwd;   // where tasks run: the sweep file's directory (relative args resolve there)
  std::vector<std::string> sbatch_args;
  std::vector<SweepExperiment> experiments;
  // The research table this sweep reproduces (docs/experiments.md, "Research
  // suites"); null when absent. Validated by experiments/research_report.h.
  Json research;
};

// Parses `text` (the contents of the file `path`); relative paths in it are
// relative to the file's directory.
Result<SweepSpec> ParseSweep(std::string_view text, const std::string& path);
Result<SweepSpec> ReadSweepFile(const std::string& path);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SWEEP_SPEC_H_
