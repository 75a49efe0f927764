// The trace an experiment maps into the semantic world, and the workload
// catalog it maps onto (shared by `schedmate world map`, `materialize`,
// `calibrate` and the Lucid experiments, so they see the same world for the
// same settings).
#ifndef SCHEDMATE_EXPERIMENTS_WORLD_SETUP_H_
#define SCHEDMATE_EXPERIMENTS_WORLD_SETUP_H_

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
// shared/ beside the source tree, ../shared), or the FLOPs model. `source`
// (optional) says which; a command prints CatalogNotice so that numbers never
// change silently with the directory it runs in.
WorkloadCatalog LoadWorkloadCatalog(const std::string& shared_flag, std::string* source = nullptr);
// "" when the catalog holds measurements, else the notice a command prints.
std::string CatalogNotice(const WorkloadCatalog& catalog, const std::string& source);

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

#endif  // SCHEDMATE_EXPERIMENTS_WORLD_SETUP_H_
