// The schema from the extractor's state (part of advisor/metadata_extractor.h):
// each field's value with its provenance, or null with a reason; the budget
// and its unit, precision, GPUs, framework and model type.
#ifndef SCHEDMATE_ADVISOR_EXTRACTION_ASSEMBLY_H_
#define SCHEDMATE_ADVISOR_EXTRACTION_ASSEMBLY_H_

#include <string>

#include "advisor/extraction_launch.h"
#include "advisor/extraction_state.h"
#include "core/facts.h"

namespace schedmate::extraction {

WorkloadMetadata Assemble(State& st, const Launch& l, const std::string& entry);

}  // namespace schedmate::extraction

#endif  // SCHEDMATE_ADVISOR_EXTRACTION_ASSEMBLY_H_
