// Training configs read into dotted keys with their line numbers (for
// provenance): YAML (libyaml), JSON (nlohmann) and TOML (toml++). Hydra's
// `defaults:` list is returned so the extractor can load the group files.
// Parse errors come back as Status naming the file (and line when known);
// the libraries' exceptions never escape.
#ifndef SCHEDMATE_ADVISOR_CONFIG_FILES_H_
#define SCHEDMATE_ADVISOR_CONFIG_FILES_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct ConfigEntry {
  std::string key;    // dotted: "model.d_model", "optimizer.lr", "layers.0"
  std::string value;  // scalar text (lists of scalars are joined with ',')
  int line = 0;       // 1-based; 0 when the format keeps no positions
  bool list = false;  // the value was a list of scalars ([0] is one device, not zero)
};

struct ConfigFile {
  std::vector<ConfigEntry> entries;
  // Hydra defaults: (group, option) pairs, e.g. ("model", "gpt2"); "_self_" skipped.
  std::vector<std::pair<std::string, std::string>> defaults;
  const ConfigEntry* Find(std::string_view key) const;  // the last entry with this key
};

// The format follows the extension (.yaml, .yml, .json, .toml).
Result<ConfigFile> ParseConfig(std::string_view text, std::string_view path);

bool IsConfigPath(std::string_view path);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_CONFIG_FILES_H_
