// Reads a file's lines newest first, in chunks from the end, so the Tracker
// touches only the tail of a multi-GB log (DESIGN §1.2 step 3). An
// unterminated last line is returned first (a live tqdm bar). A line longer
// than max_line_bytes keeps only its last max_line_bytes bytes — for a
// CR-refreshed bar that is the newest state. Memory: one chunk plus one line.
// Not thread safe.
#ifndef SCHEDMATE_TRACKER_REVERSE_LINE_READER_H_
#define SCHEDMATE_TRACKER_REVERSE_LINE_READER_H_

#include <cstdint>
#include <string>

#include "core/status.h"

namespace schedmate {

class ReverseLineReader {
 public:
  struct Options {
    size_t chunk_bytes = 1u << 16;
    size_t max_line_bytes = 1u << 20;
    // Searching a giant line for its start stops after this many bytes: the
    // line is returned with the offset of its kept tail (newlines before it
    // still number it right) and nothing older is read.
    int64_t max_line_scan_bytes = int64_t{256} << 20;
  };
  static Result<ReverseLineReader> Open(const std::string& path, Options options);
  static Result<ReverseLineReader> Open(const std::string& path) { return Open(path, Options()); }
  ReverseLineReader(ReverseLineReader&& o) noexcept;
  ReverseLineReader& operator=(ReverseLineReader&&) = delete;
  ~ReverseLineReader();

  // The previous line (raw bytes, without its newline). False at the start
  // of the file. `offset` is the line's first byte (or, past
  // max_line_scan_bytes, its kept tail's; the reader is then exhausted).
  Result<bool> Next(std::string* line, int64_t* offset);

  int64_t file_size() const { return size_; }
  int64_t bytes_read() const { return bytes_read_; }

 private:
  ReverseLineReader(int fd, int64_t size, Options options);
  Status Fill();

  int fd_;
  int64_t size_;
  Options options_;
  int64_t chunk_start_;   // file offset of buf_[0]
  std::string buf_;       // bytes [chunk_start_, line_end_) not yet returned
  int64_t bytes_read_ = 0;
  bool first_ = true;
  bool exhausted_ = false;
};

// Number of '\n' bytes in [begin, end) of the file: absolute line numbers
// for lines a reverse scan found.
Result<int64_t> CountNewlines(const std::string& path, int64_t begin, int64_t end);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_REVERSE_LINE_READER_H_
