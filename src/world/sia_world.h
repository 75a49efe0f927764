// The semantic world for Sia's workloads (issue 17): every job of a Sia
// workload gets a generated repository whose code trains that job's
// application, so the real Advisor has code to read at submit.
//
// Sia's workloads name the application (cifar10, imagenet, bert, …) but no
// user, project or code. The world's trace mapping (world/trace_mapping.h)
// decides the project structure — which jobs are resubmissions of one code
// base, renamed copies or edits, each project's code style and layout — with
// the application as the owner, so a project never spans two applications.
// Each job's repository then trains its application's model on its dataset
// (SiaAppWorkloadFor, after Pollux/Sia's application list) at the job's
// requested batch size. Every job runs to its target in Sia's simulation, so
// no end states are drawn.
#ifndef SCHEDMATE_WORLD_SIA_WORLD_H_
#define SCHEDMATE_WORLD_SIA_WORLD_H_

#include <optional>
#include <string>
#include <unordered_map>

#include "core/job_spec.h"
#include "world/trace_mapping.h"
#include "world/workload_catalog.h"

namespace schedmate {

// What an application's code trains: a world family (for the code's shape)
// and the model, task and dataset the code names.
struct SiaAppWorkload {
  std::string family, model_name, model_type, dataset;
};

// nullopt for an application the world has no code for.
std::optional<SiaAppWorkload> SiaAppWorkloadFor(const std::string& app);

struct SiaWorld {
  WorldMap world;  // parallel to the trace's jobs
  std::unordered_map<std::string, size_t> by_job_id;

  // nullptr for a job not in the trace or whose application has no code.
  const MappedJob* Find(const std::string& job_id) const;
};

// REQUIRES: a Sia workload trace (JobSpec::type = application), sorted by submit time.
SiaWorld MapSiaTrace(const Trace& trace, const WorkloadCatalog& catalog, MappingParams params = {});

}  // namespace schedmate

#endif  // SCHEDMATE_WORLD_SIA_WORLD_H_
