// Whole-file reads with a size cap, so a gigantic input fails with a clear
// error instead of exhausting memory.
#ifndef SCHEDMATE_CORE_FILE_IO_H_
#define SCHEDMATE_CORE_FILE_IO_H_

#include <string>

#include "core/status.h"

namespace schedmate {

// NotFound when it cannot be opened, ResourceExhausted past `max_bytes`.
Result<std::string> ReadFileCapped(const std::string& path, size_t max_bytes = 256u << 20);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_FILE_IO_H_
