// The trace a `schedmate world …` command maps, and the mapping's
// parameters as command-line options (shared by map, materialize and
// calibrate, so the three see the same world for the same flags).
#ifndef SCHEDMATE_CLI_WORLD_TRACE_H_
#define SCHEDMATE_CLI_WORLD_TRACE_H_

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "core/status.h"
#include "world/trace_mapping.h"
#include "world/workload_catalog.h"

namespace schedmate {

struct WorldTraceArgs {
  std::string trace;              // a trace file, or
  std::string format = "auto";
  std::string synth;              // a synthesizer profile (seren, kalos, venus …)
  int32_t synth_jobs = 5000;
  std::string shared;               // "" = found (core/data_paths.h FindSharedDir)
  MappingParams params;
};

// The workload catalog from the shared data (--shared, $SCHEDMATE_SHARED, the
// shared/ beside the source tree, ../shared), or the FLOPs model with a loud
// notice on stderr: numbers never change silently with the directory a
// command runs in. `source` (optional) says which.
WorkloadCatalog LoadWorkloadCatalog(const std::string& shared_flag, std::string* source = nullptr);

void AddWorldTraceOptions(CLI::App* cmd, WorldTraceArgs* a);

struct MappedTrace {
  Trace trace;
  WorldMap world;
  std::string description;  // "philly.csv (82,247 jobs)"
};
Result<MappedTrace> LoadAndMap(const WorldTraceArgs& a, const WorkloadCatalog& catalog);

// `n` job indices drawn without replacement (seeded), in submit order; all when n <= 0 or n >= size.
std::vector<size_t> SampleJobs(size_t size, int64_t n, uint64_t seed);

// The mapping statistics as a few readable lines.
std::string DescribeMapping(const MappedTrace& m);

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_WORLD_TRACE_H_
