// printf-style formatting into a std::string (the generators build many
// lines this way; std::format is not in g++ 12).
#ifndef SCHEDMATE_CORE_STR_FORMAT_H_
#define SCHEDMATE_CORE_STR_FORMAT_H_

#include <string>

namespace schedmate {

std::string StrFormat(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_STR_FORMAT_H_
