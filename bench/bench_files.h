// Large input files for benchmarks, written once to $TMPDIR (default /tmp)
// and reused by later runs, and the whole-file read that is their baseline.
#ifndef SCHEDMATE_BENCH_BENCH_FILES_H_
#define SCHEDMATE_BENCH_BENCH_FILES_H_

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace schedmate {

// The path of `name` in $TMPDIR; `write` fills it unless a file of at
// least `min_bytes` is already there.
inline std::string BenchFile(const std::string& name, int64_t min_bytes,
                             const std::function<void(std::ofstream&)>& write) {
  const char* dir = std::getenv("TMPDIR");
  std::string p = std::string(dir ? dir : "/tmp") + "/" + name;
  struct stat st;
  if (stat(p.c_str(), &st) == 0 && st.st_size >= min_bytes) return p;
  std::ofstream out(p, std::ios::binary);
  write(out);
  return p;
}

// Reads the whole file once (the least a forward-scanning tool pays).
inline int64_t ReadWholeFile(const std::string& path) {
  std::vector<char> buf(1 << 20);
  int fd = open(path.c_str(), O_RDONLY);
  int64_t total = 0;
  ssize_t n;
  while ((n = read(fd, buf.data(), buf.size())) > 0) total += n;
  close(fd);
  return total;
}

}  // namespace schedmate

#endif  // SCHEDMATE_BENCH_BENCH_FILES_H_
