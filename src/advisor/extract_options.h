// Options of the embedded metadata extractor (advisor/metadata_extractor.h),
// in a header of their own so the extractor's parts (advisor/extraction_*.h)
// need not include the driver's.
#ifndef SCHEDMATE_ADVISOR_EXTRACT_OPTIONS_H_
#define SCHEDMATE_ADVISOR_EXTRACT_OPTIONS_H_

#include <cstddef>
#include <string>

namespace schedmate {

struct ExtractOptions {
  int max_files = 64;          // files read per job (the agent's step budget)
  size_t max_file_bytes = 256u << 10;
  int max_import_depth = 3;
  std::string workdir;         // directory inside the snapshot the command runs from ("" = root)
};

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_EXTRACT_OPTIONS_H_
