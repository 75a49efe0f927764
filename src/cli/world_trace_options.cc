#include "cli/world_trace_options.h"

#include <cstdio>

namespace schedmate {

void AddWorldTraceOptions(CLI::App* cmd, WorldTraceArgs* a) {
  cmd->add_option("--trace", a->trace, "Trace file to map (Philly, Helios, Acme, Sia, Lucid or native)");
  cmd->add_option("--format", a->format, "Trace format (auto detects from the header)")->capture_default_str();
  cmd->add_option("--synth", a->synth, "Map a synthetic trace of this profile instead (seren and kalos are Acme's clusters)");
  cmd->add_option("--synth-jobs", a->synth_jobs, "Jobs in the synthetic trace")->capture_default_str()->check(CLI::Range(1, 10000000));
  cmd->add_option("--shared", a->shared,
                  "Shared data directory with traces/lucid and traces/sia for the workload catalog "
                  "(default: $SCHEDMATE_SHARED, else the shared/ beside the source tree, else ../shared)");
  MappingParams& p = a->params;
  cmd->add_option("--seed", p.seed, "Mapping seed")->capture_default_str();
  cmd->add_option("--resubmit-prob", p.resubmit_prob, "Chance a job reruns or copies an open project of its owner")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--duration-tolerance", p.duration_tolerance, "How far (x) a run's duration may be from its project's typical one")
      ->capture_default_str()->check(CLI::Range(1.0, 1e6));
  cmd->add_option("--rename-prob", p.rename_prob, "Chance a project member is a renamed copy")->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--edit-prob", p.edit_prob, "Chance a member changed its batch size or budget")->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--swap-model-prob", p.swap_model_prob, "Chance a same-named job trains another model")->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--swap-dataset-prob", p.swap_dataset_prob, "Chance a same-named job uses another dataset")->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--fail-rate", p.unknown_fail_rate, "Failed share for traces without end states")->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--gpu-type", p.gpu_type, "Catalog GPU type for step times")->capture_default_str();
}

WorkloadCatalog LoadCatalogForCommand(const std::string& shared_flag, std::string* source) {
  std::string said;
  WorkloadCatalog catalog = LoadWorkloadCatalog(shared_flag, &said);
  if (std::string notice = CatalogNotice(catalog, said); !notice.empty()) std::fprintf(stderr, "%s\n", notice.c_str());
  if (source) *source = said;
  return catalog;
}

}  // namespace schedmate
