#include "core/file_io.h"

#include <fstream>

namespace schedmate {

Result<std::string> ReadFileCapped(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": cannot open");
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof(buf)) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes)
      return ResourceExhausted(path + ": larger than " + std::to_string(max_bytes) + " bytes");
  }
  return text;
}

}  // namespace schedmate
