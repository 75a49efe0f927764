// Locates the failure in a log (DESIGN §1.3 step 1): a binary search over
// byte-offset chunks for the boundary "mostly normal → mostly failure", so a
// multi-GB log is located reading O(chunk × log n) bytes. A chunk is
// "failing" when at least `threshold` of its lines are failure lines
// (signatures, exception lines, error words), which tolerates normal output
// interleaved after the fault — counting only lines that are not background:
// failure-looking lines whose template also recurs in the log's normal
// stretches (its first and middle chunks), such as periodic retries. When the
// search finds no boundary the tail is scanned instead, and `path` says so. Chunks are realigned to line starts. Then the
// context — `context_lines` lines around the first failure line of the
// boundary chunks — is read for classification.
#ifndef SCHEDMATE_FAILURE_LOCATOR_H_
#define SCHEDMATE_FAILURE_LOCATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>

#include "core/status.h"
#include "failure/root_cause.h"

namespace schedmate {

// Random access to a log's bytes: a file, or a string in tests and the
// evaluation.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual int64_t size() const = 0;
  // Up to n bytes at offset (fewer at the end).
  virtual Status Read(int64_t offset, size_t n, std::string* out) const = 0;
};
Result<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path);
std::unique_ptr<ByteSource> StringSource(std::string text);

struct LocateOptions {
  size_t chunk_bytes = 64u << 10;
  double threshold = 0.25;   // failing = at least this fraction of failure lines
  int context_lines = 500;   // lines classified around the located line
  // 0-based line numbers: counts the newlines before the window, when there
  // are at most `max_numbering_bytes` of them to read (a 1 GB log whose
  // failure is near its end keeps byte offsets instead: Located says so).
  bool number_lines = true;
  int64_t max_numbering_bytes = int64_t{64} << 20;
};

struct Located {
  int64_t offset = 0;              // first byte of the located failure line
  LineWindow window;               // the context, with line numbers or byte offsets
  bool lines_are_offsets = false;  // the window's (and the diagnosis's) line indexes are byte offsets
  int64_t bytes_read = 0;          // distinct bytes the search, the context and the numbering read
  int probes = 0;                  // chunks examined by the search
  bool searched = false;           // false: the log was small enough to read whole
  // How it was found: "whole log", "binary search", or "tail scan" (the
  // search found no boundary between normal and failing output).
  std::string path = "whole log";
  // Failure-looking lines the job printed all along (their template — digits
  // folded — recurs in the log's normal stretches): retried reads, socket
  // retries, warnings. The chunk test and the classifier skip them.
  std::unordered_set<std::string> background;
};

// A line's template: lower case, every run of digits (and hex after 0x) one
// '#', at most 160 bytes — what a periodic message keeps from print to print.
std::string LineTemplate(std::string_view line);

// The window without the background lines (what the classifier reads).
LineWindow ForegroundWindow(const Located& located);

Result<Located> LocateFailure(const ByteSource& log, const LocateOptions& options = {});

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_LOCATOR_H_
