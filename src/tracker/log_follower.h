// Follows a growing log file by byte offset (DESIGN §1.2 step 1). Each Poll
// returns the complete lines written since the previous one, cleaned
// (line_cleaner.h). It survives:
//  - rotation: the path now names another file — the rest of the old file
//    is read first, then the new file from its start;
//  - truncation: the file shrank below the offset — reading restarts at 0;
//  - a partial last line: held back until its newline arrives;
//  - giant lines: cut at max_line_bytes (the rest of that line is skipped);
//  - binary garbage: bytes pass through; control bytes become spaces.
// Memory is bounded by max_line_bytes + read_chunk; each Poll reads at most
// max_poll_bytes so a huge backlog is consumed over several polls.
// Not thread safe.
#ifndef SCHEDMATE_TRACKER_LOG_FOLLOWER_H_
#define SCHEDMATE_TRACKER_LOG_FOLLOWER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct FollowerOptions {
  size_t max_line_bytes = 1u << 20;
  size_t max_poll_bytes = 64u << 20;
  size_t read_chunk = 1u << 16;
  // Where the first file opened is read from (e.g. the end of what a
  // reverse scan already covered); a rotated-in file is read from 0.
  int64_t start_offset = 0;
};

class LogFollower {
 public:
  explicit LogFollower(std::string path, FollowerOptions options = {});
  ~LogFollower();
  LogFollower(const LogFollower&) = delete;
  LogFollower& operator=(const LogFollower&) = delete;

  // Appends new complete lines to `lines`. A missing file is not an error
  // (nothing yet); an unreadable one is.
  Status Poll(std::vector<std::string>* lines);

  // The unterminated last line seen so far, cleaned: a live tqdm bar that
  // refreshes with CR and has not printed its newline yet.
  std::string PartialLine() const;

  int64_t offset() const { return offset_; }       // in the current file
  int64_t lines_read() const { return lines_read_; }
  int rotations() const { return rotations_; }
  int truncations() const { return truncations_; }

 private:
  Status Open();
  Status ReadAvailable(std::vector<std::string>* lines, size_t* budget);
  void Emit(std::vector<std::string>* lines);

  std::string path_;
  FollowerOptions options_;
  int fd_ = -1;
  uint64_t inode_ = 0, device_ = 0;
  int64_t offset_ = 0;
  std::string partial_;
  bool skipping_ = false;  // inside a line already cut at max_line_bytes
  int64_t lines_read_ = 0;
  int rotations_ = 0, truncations_ = 0;
  bool opened_once_ = false;
};

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_LOG_FOLLOWER_H_
