// The run's Python sources (part of advisor/metadata_extractor.h): the entry
// file and its local imports, breadth-first, scanned for settings (argparse,
// click and absl defaults, module constants, dataclass fields, entry
// functions' parameters, keyword arguments of training calls), for model and
// dataset names (from_pretrained, create_model, torchvision, load_dataset,
// dataset classes), for what the code calls and imports, and for mixed
// precision and multi-GPU evidence. Also the documented library defaults a
// run inherits.
#ifndef SCHEDMATE_ADVISOR_EXTRACTION_PYTHON_H_
#define SCHEDMATE_ADVISOR_EXTRACTION_PYTHON_H_

#include <string>

#include "advisor/extraction_configs.h"
#include "advisor/extraction_state.h"

namespace schedmate::extraction {

// The entry file, then its local imports breadth-first, scanned for values
// (imported files first, so the entry's own values win). Returns the Hydra
// config the sources name, if any.
HydraMain ReadPythonSources(State& st, const std::string& entry, const ExtractOptions& options);

// HF TrainingArguments' and Lightning Trainer's documented defaults, when the
// run builds them.
void LibraryDefaults(State& st);

}  // namespace schedmate::extraction

#endif  // SCHEDMATE_ADVISOR_EXTRACTION_PYTHON_H_
