#include "experiments/world_setup.h"

#include <algorithm>
#include <numeric>

#include <cstdio>

#include "core/data_paths.h"
#include "core/random.h"
#include "core/str_format.h"
#include "traces/synthesizer.h"
#include "traces/trace_loader.h"

namespace schedmate {

WorkloadCatalog LoadWorkloadCatalog(const std::string& shared_flag, std::string* source) {
  SharedDir shared = FindSharedDir(shared_flag);
  WorkloadCatalog catalog =
      shared.found() ? WorkloadCatalog::FromSharedOrModel(shared.path) : WorkloadCatalog::Build(nullptr, nullptr);
  std::string said = catalog.HasMeasurements()
                         ? "workload catalog: measurements under " + shared.path
                         : "workload catalog: the FLOPs model only (" + DescribeSharedSearch(shared) +
                               "); numbers differ from a run with the measurements";
  if (source) *source = said;
  return catalog;
}

std::string CatalogNotice(const WorkloadCatalog& catalog, const std::string& source) {
  return catalog.HasMeasurements() ? "" : "note: " + source;
}

Result<MappedTrace> LoadAndMap(const WorldTraceArgs& a, const WorkloadCatalog& catalog) {
  if (a.trace.empty() == a.synth.empty()) return InvalidArgument("give one of --trace FILE or --synth PROFILE");
  MappedTrace m;
  if (!a.trace.empty()) {
    ASSIGN_OR_RETURN(TraceFormat f, ParseTraceFormat(a.format));
    ASSIGN_OR_RETURN(m.trace, LoadTraceFile(a.trace, f));
  } else {
    ASSIGN_OR_RETURN(ClusterProfile profile, FindProfile(a.synth));
    SynthOptions o;
    o.jobs = a.synth_jobs;
    o.seed = a.params.seed;
    ASSIGN_OR_RETURN(m.trace, SynthesizeTrace(profile, o));
  }
  m.description = StrFormat("%s (%zu jobs, format %s)", a.trace.empty() ? ("synthetic " + a.synth).c_str() : a.trace.c_str(),
                            m.trace.jobs.size(), m.trace.format.c_str());
  if (m.trace.jobs.empty()) return InvalidArgument(m.description + ": no jobs to map");
  m.world = MapTrace(m.trace, catalog, a.params);
  return m;
}

std::vector<size_t> SampleJobs(size_t size, int64_t n, uint64_t seed) {
  std::vector<size_t> idx(size);
  std::iota(idx.begin(), idx.end(), 0);
  if (n <= 0 || static_cast<size_t>(n) >= size) return idx;
  Rng rng(seed ^ 0x5a3b1eULL);
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) std::swap(idx[i], idx[i + rng.Below(size - i)]);
  idx.resize(static_cast<size_t>(n));
  std::sort(idx.begin(), idx.end());
  return idx;
}

std::string DescribeMapping(const MappedTrace& m) {
  const MappingStats& s = m.world.stats;
  auto pct = [](int64_t x, int64_t n) { return n ? 100.0 * static_cast<double>(x) / static_cast<double>(n) : 0.0; };
  std::string out = StrFormat("%s\n  %lld jobs in %lld projects (%.2f jobs per project); %.1f %% rejoin a project, "
                              "%.1f %% of them as renamed copies, %lld edited, %lld same-named with another model or data\n",
                              m.description.c_str(), (long long)s.jobs, (long long)s.projects,
                              s.projects ? static_cast<double>(s.jobs) / static_cast<double>(s.projects) : 0.0,
                              pct(s.resubmissions, s.jobs), pct(s.renamed_copies, s.resubmissions), (long long)s.edited,
                              (long long)s.swapped);
  static const char* const kBuckets[] = {"<1 GPU-h", "1-10", "10-100", ">=100"};
  out += "  GPU-time bucket   jobs   new projects: small / medium / large families\n";
  for (int b = 0; b < 4; ++b)
    out += StrFormat("  %-14s %7lld   %lld / %lld / %lld\n", kBuckets[b], (long long)s.bucket_jobs[b],
                     (long long)s.bucket_class_projects[b][0], (long long)s.bucket_class_projects[b][1],
                     (long long)s.bucket_class_projects[b][2]);
  out += StrFormat("  failed jobs %lld (%.1f %%), of which infrastructure %.1f %%; end states drawn for %lld jobs "
                   "(the trace has none)\n",
                   (long long)s.failed, pct(s.failed, s.jobs), pct(s.failed_infrastructure, s.failed), (long long)s.drawn_states);
  return out;
}

}  // namespace schedmate
