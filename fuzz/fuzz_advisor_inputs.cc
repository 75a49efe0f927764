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
  // Other command shapes reach other parsing paths: registry names and named
  // config sections (--params=NAME, --configs NAME), a package module run with
  // -m whose code joins configs to its own directory, a shell wrapper, and a
  // repository's own launcher running a script.
  auto pkg = schedmate::MemorySnapshot({{"train.py", text},
                                        {"configs.yaml", text},
                                        {"configs/small.yaml", text},
                                        {"pkg/__init__.py", ""},
                                        {"pkg/train.py", text},
                                        {"pkg/config/default.yaml", text},
                                        {"run.sh", text},
                                        {"tools/launch.py", text}});
  for (const char* command : {"python train.py --params=abc_def --configs small", "python -m pkg.train --lr 0.1",
                              "bash run.sh --epochs 3", "python tools/launch.py --nproc_per_node 2 train.py"}) {
    auto m = schedmate::ExtractMetadata(*pkg, command);
    if (m.ok() && (m->confidence < 0 || m->confidence > 1)) __builtin_trap();
  }
  return 0;
}
