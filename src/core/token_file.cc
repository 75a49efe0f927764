#include "core/token_file.h"

#include <sys/stat.h>

#include "core/file_io.h"

namespace schedmate {

Result<std::string> ReadTokenFile(const std::string& path, const std::string& flag) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return NotFound(flag + " " + path + ": does not exist");
  if (st.st_mode & 077) return InvalidArgument(flag + " " + path + ": readable by others (chmod 600 it)");
  ASSIGN_OR_RETURN(std::string text, ReadFileCapped(path, 4096));
  std::string token = text.substr(0, text.find_first_of("\r\n"));
  if (token.size() < 16) return InvalidArgument(flag + " " + path + ": the token needs at least 16 characters");
  return token;
}

}  // namespace schedmate
