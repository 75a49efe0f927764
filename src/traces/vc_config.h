// Virtual-cluster capacities: how many nodes each VC owns.
// Accepted CSV layouts (header row required):
//   vc,node num      (HeliosArtifact philly_vc.csv)
//   ,num             (Lucid vc_config.csv: unnamed first column)
//   vc,nodes         (schedmate)
#ifndef SCHEDMATE_TRACES_VC_CONFIG_H_
#define SCHEDMATE_TRACES_VC_CONFIG_H_

#include <istream>
#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct VcCapacity {
  std::string name;
  int32_t nodes = 0;
};

Result<std::vector<VcCapacity>> LoadVcConfig(std::istream& in,
                                             std::string source);
Result<std::vector<VcCapacity>> LoadVcConfigFile(const std::string& path);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACES_VC_CONFIG_H_
