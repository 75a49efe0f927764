#include "core/str_format.h"

#include <cstdarg>
#include <cstdio>

namespace schedmate {

std::string StrFormat(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list copy;
  va_copy(copy, ap);
  // One pass for the usual short line; a longer one is formatted again into
  // a string of its measured size.
  char buf[256];
  int n = std::vsnprintf(buf, sizeof buf, fmt, copy);
  va_end(copy);
  std::string out;
  if (n > 0 && static_cast<size_t>(n) < sizeof buf) {
    out.assign(buf, static_cast<size_t>(n));
  } else if (n > 0) {
    out.resize(static_cast<size_t>(n));
    std::vsnprintf(out.data(), out.size() + 1, fmt, ap);
  }
  va_end(ap);
  return out;
}

}  // namespace schedmate
