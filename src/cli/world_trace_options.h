// The mapping's parameters as command-line options (shared by world map,
// materialize and calibrate, so the three see the same world for the same flags).
#ifndef SCHEDMATE_CLI_WORLD_TRACE_OPTIONS_H_
#define SCHEDMATE_CLI_WORLD_TRACE_OPTIONS_H_

#include <CLI/CLI.hpp>

#include "experiments/world_setup.h"

namespace schedmate {

void AddWorldTraceOptions(CLI::App* cmd, WorldTraceArgs* a);

// The catalog for a command's --shared, with the FLOPs-model notice on stderr.
WorkloadCatalog LoadCatalogForCommand(const std::string& shared_flag, std::string* source = nullptr);

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_WORLD_TRACE_OPTIONS_H_
