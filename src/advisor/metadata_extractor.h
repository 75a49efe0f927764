// The embedded metadata extractor (DESIGN §1.1 step 2; docs/advisor.md): an
// agent loop over the two repository tools that starts from the launch
// command (through shell wrappers with their variables and #SBATCH lines,
// `python -m` modules and console-script entry points), follows the entry
// point's local imports and every config file the run merges, and resolves
// each schema field with the precedence a training run itself applies:
//   documented library defaults (HF TrainingArguments) < imported modules'
//   values < entry file (argparse/click/absl/dataclass/fire defaults,
//   constants, Trainer / DataLoader kwargs, from_pretrained / timm /
//   torchvision / load_dataset) < config files (YAML/JSON/TOML with their
//   _BASE_/includes, Hydra defaults and groups, Python configs with _base_,
//   gin) in merge order < command-line overrides.
// A key feeds a field by its words (advisor/field_keys.h); the model type
// comes from a lexicon (advisor/model_type.h). Every value carries its
// provenance (file, line); a field nothing fixes stays null with a reason.
// Nothing is executed.
#ifndef SCHEDMATE_ADVISOR_METADATA_EXTRACTOR_H_
#define SCHEDMATE_ADVISOR_METADATA_EXTRACTOR_H_

#include <string>

#include "advisor/extract_options.h"
#include "core/facts.h"
#include "core/status.h"
#include "repo/snapshot.h"

namespace schedmate {

// InvalidArgument when the command launches no Python entry point found in
// the snapshot (the caller falls back).
Result<WorkloadMetadata> ExtractMetadata(const RepoSnapshot& snapshot, const std::string& command,
                                         const ExtractOptions& options = {});

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_METADATA_EXTRACTOR_H_
