#include "experiments/sia_inputs.h"

#include <vector>

#include "world/sia_profiles.h"

namespace schedmate {
namespace {

std::vector<sia::StepSample> Steps(const std::vector<SiaStepRow>& rows) {
  std::vector<sia::StepSample> out;
  for (const auto& r : rows) out.push_back({r.nodes, r.replicas, r.local_bsz, r.step_time_s, r.sync_time_s, r.placement});
  return out;
}

}  // namespace

Result<std::map<std::string, sia::AppProfile>> LoadSiaAppProfiles(const std::string& dir) {
  auto tables = LoadSiaAppTables(dir);
  if (!tables.ok()) return tables.status();
  std::map<std::string, sia::AppProfile> out;
  for (const auto& [app, t] : *tables) {
    sia::AppProfile& p = out[app];
    p.name = app;
    for (const auto& [type, rows] : t.placements) p.gpu_types[type].placements = Steps(rows);
    for (const auto& [type, rows] : t.scalability) p.gpu_types[type].scalability = Steps(rows);
    for (const auto& [bsz, rows] : t.validation)
      for (const auto& r : rows) p.validation[bsz].push_back({r.progress, r.grad_sqr, r.grad_var});
  }
  return out;
}

}  // namespace schedmate
