// Outside inputs of the Advisor and the history on arbitrary bytes: launch
// commands, shell wrappers, YAML/JSON/TOML configs, Python sources, history
// records, and the extractor over a one-file repository.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "advisor/config_files.h"
#include "advisor/launch_command.h"
#include "advisor/metadata_extractor.h"
#include "advisor/python_source.h"
#include "core/json.h"
#include "advisor/entry_points.h"
#include "advisor/field_keys.h"
#include "advisor/shell_script.h"
#include "history/record.h"
#include "repo/snapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto spec = schedmate::ParseLaunchCommand(text);
  schedmate::FindShellLaunch(text, {{"a", "b"}, {}});
  schedmate::ParseConsoleScripts(text);
  schedmate::ClassifyKey(text);
  for (const char* path : {"c.yaml", "c.json", "c.toml"}) schedmate::ParseConfig(text, path);
  schedmate::PythonFacts py = schedmate::ParsePython(text);
  (void)py;
  if (auto j = schedmate::ParseJson(text, "fuzz"); j.ok()) schedmate::RecordFromJson(*j, "fuzz");
  auto snap = schedmate::MemorySnapshot({{"train.py", text}, {"conf.yaml", text}});
  auto md = schedmate::ExtractMetadata(*snap, "python train.py --config conf.yaml");
  if (md.ok() && (md->confidence < 0 || md->confidence > 1)) __builtin_trap();
  return 0;
}
