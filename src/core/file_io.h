// Reads of outside files that stay bounded: whole-file reads with a size
// cap, so a gigantic input fails with a clear error instead of exhausting
// memory, and opens that a FIFO or a device cannot hang.
#ifndef SCHEDMATE_CORE_FILE_IO_H_
#define SCHEDMATE_CORE_FILE_IO_H_

#include <cstdint>
#include <string>

#include "core/status.h"

namespace schedmate {

// NotFound when it cannot be opened, ResourceExhausted past `max_bytes`.
Result<std::string> ReadFileCapped(const std::string& path, size_t max_bytes = 256u << 20);

// A regular file open for reading; the caller owns `fd` and closes it.
struct OpenedFile {
  int fd = -1;
  int64_t size = 0;
  uint64_t device = 0, inode = 0;  // its identity, to notice a rotated log
};

// Opens with O_NONBLOCK, so that a FIFO with no writer or a device returns
// at once instead of blocking open(), then refuses anything fstat does not
// call a regular file: InvalidArgument "PATH: a FIFO, not a regular file".
// When it cannot be opened: NotFound (absent), PermissionDenied or
// Unavailable, with the reason.
Result<OpenedFile> OpenRegularFile(const std::string& path);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_FILE_IO_H_
