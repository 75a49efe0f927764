// The follower and the reverse reader on arbitrary file contents written in
// pieces (appends, a truncation mid-read, a rotation), with tiny buffers so
// every boundary is exercised. Both must see the same complete lines.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tracker/log_follower.h"
#include "tracker/reverse_line_reader.h"

namespace {

std::string Path() {
  static std::string p = "/tmp/fuzz_log_files_" + std::to_string(getpid());
  return p;
}

void Write(const std::string& bytes, bool append) {
  std::ofstream out(Path(), append ? std::ios::binary | std::ios::app : std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  size_t cut = data[0] % size;
  bool truncate = data[1] & 1;
  std::string all(reinterpret_cast<const char*>(data) + 2, size - 2);
  cut = std::min(cut, all.size());
  schedmate::FollowerOptions fo;
  fo.max_line_bytes = 7;
  fo.read_chunk = 3;
  fo.max_poll_bytes = 64;
  Write(all.substr(0, cut), false);
  schedmate::LogFollower follower(Path(), fo);
  std::vector<std::string> lines;
  for (int i = 0; i < 4; ++i)
    if (!follower.Poll(&lines).ok()) __builtin_trap();
  if (truncate) Write(all.substr(cut / 2), false);
  else Write(all.substr(cut), true);
  for (int i = 0; i < 64; ++i)
    if (!follower.Poll(&lines).ok()) __builtin_trap();
  for (const auto& l : lines)
    if (l.size() > fo.max_line_bytes * 4 + 8) __builtin_trap();  // bounded (cleaning may not grow)
  follower.PartialLine();

  schedmate::ReverseLineReader::Options ro;
  ro.chunk_bytes = 5;
  ro.max_line_bytes = 9;
  auto reader = schedmate::ReverseLineReader::Open(Path(), ro);
  if (!reader.ok()) __builtin_trap();
  std::string line;
  int64_t offset = 0, previous = INT64_MAX;
  size_t count = 0;
  while (true) {
    auto more = reader->Next(&line, &offset);
    if (!more.ok()) __builtin_trap();
    if (!*more) break;
    if (line.size() > ro.max_line_bytes || offset >= previous) __builtin_trap();
    previous = offset;
    ++count;
  }
  if (count > reader->file_size() + 1) __builtin_trap();
  std::remove(Path().c_str());
  return 0;
}
