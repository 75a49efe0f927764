// The config files a run merges, in merge order, and the command line's
// overrides on top (part of advisor/metadata_extractor.h): YAML/JSON/TOML with
// their includes, Hydra defaults, groups and experiment choices, Python
// configs (mmengine `_base_`, YOLOX `Exp`, ml_collections), gin and key=value
// text configs, configs the code loads itself, config flags' default files,
// registry entries and named experiment sections.
#ifndef SCHEDMATE_ADVISOR_EXTRACTION_CONFIGS_H_
#define SCHEDMATE_ADVISOR_EXTRACTION_CONFIGS_H_

#include <string>

#include "advisor/extraction_launch.h"
#include "advisor/extraction_state.h"

namespace schedmate::extraction {

// The Hydra config an entry file names (@hydra.main or any call with both a
// config path and a config name).
struct HydraMain {
  std::string path, name;  // config_path (from the repository root), config_name
};

// One config file and, first, the files it includes, at precedence `prec`;
// `group` prefixes its keys (a Hydra group file). Each file is read once.
void ReadConfigFile(State& st, const std::string& path, int prec, const std::string& group, int depth);

// Config files (the script's --config, positional config paths, DeepSpeed
// and accelerate configs, Hydra and its group choices), then the command
// line's overrides, which win. `entry` is "" for a CLI installed from elsewhere.
void ReadConfigsAndOverrides(State& st, const Launch& l, const std::string& entry, const HydraMain& hydra);

}  // namespace schedmate::extraction

#endif  // SCHEDMATE_ADVISOR_EXTRACTION_CONFIGS_H_
