// The embedded metadata extractor (DESIGN §1.1 step 2): an agent loop over
// the two repository tools that starts from the launch command, follows the
// entry point's local imports and config files, and resolves each schema
// field with the precedence a training run itself applies:
//   imported modules' values < entry file (argparse/click defaults,
//   constants, HF TrainingArguments / Lightning Trainer / DataLoader kwargs,
//   from_pretrained / timm / torchvision / load_dataset) < config files
//   (--config, Hydra defaults and config groups) < command-line overrides.
// Every value carries its provenance (file, line). Nothing is executed.
#ifndef SCHEDMATE_ADVISOR_METADATA_EXTRACTOR_H_
#define SCHEDMATE_ADVISOR_METADATA_EXTRACTOR_H_

#include <string>

#include "core/facts.h"
#include "core/status.h"
#include "repo/snapshot.h"

namespace schedmate {

struct ExtractOptions {
  int max_files = 48;          // files read per job (the agent's step budget)
  size_t max_file_bytes = 256u << 10;
  int max_import_depth = 3;
};

// InvalidArgument when the command launches no Python entry point found in
// the snapshot (the caller falls back).
Result<WorkloadMetadata> ExtractMetadata(const RepoSnapshot& snapshot, const std::string& command,
                                         const ExtractOptions& options = {});

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_METADATA_EXTRACTOR_H_
