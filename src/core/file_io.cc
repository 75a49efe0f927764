#include "core/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace schedmate {
namespace {

const char* FileKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

Status OpenError(const std::string& path, int err) {
  std::string m = path + ": " + std::strerror(err);
  if (err == ENOENT || err == ENOTDIR) return NotFound(m);
  if (err == EACCES || err == EPERM) return PermissionDenied(m);
  return Unavailable(m);
}

}  // namespace

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

Result<OpenedFile> OpenRegularFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return OpenError(path, errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return OpenError(path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return InvalidArgument(path + ": " + FileKind(st.st_mode) + ", not a regular file");
  }
  return OpenedFile{fd, static_cast<int64_t>(st.st_size), static_cast<uint64_t>(st.st_dev),
                    static_cast<uint64_t>(st.st_ino)};
}

}  // namespace schedmate
