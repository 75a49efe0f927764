#include "failure/locator.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/file_io.h"

namespace schedmate {
namespace {

class FileSource : public ByteSource {
 public:
  FileSource(int fd, int64_t size) : fd_(fd), size_(size) {}
  ~FileSource() override { close(fd_); }
  int64_t size() const override { return size_; }
  Status Read(int64_t offset, size_t n, std::string* out) const override {
    out->resize(n);
    size_t done = 0;
    while (done < n) {
      ssize_t r = pread(fd_, out->data() + done, n - done, offset + static_cast<int64_t>(done));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return Unavailable(std::string("log read failed: ") + std::strerror(errno));
      if (r == 0) break;
      done += static_cast<size_t>(r);
    }
    out->resize(done);
    return Status::Ok();
  }

 private:
  int fd_;
  int64_t size_;
};

class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string text) : text_(std::move(text)) {}
  int64_t size() const override { return static_cast<int64_t>(text_.size()); }
  Status Read(int64_t offset, size_t n, std::string* out) const override {
    if (offset >= size()) {
      out->clear();
      return Status::Ok();
    }
    *out = text_.substr(static_cast<size_t>(offset), n);
    return Status::Ok();
  }

 private:
  std::string text_;
};

// The log as the locator reads it: every read goes through here, and the
// distinct bytes read are counted once however often the search comes back
// to them (chunk 0 for the background, then for the head test), so
// bytes_read never exceeds the log's size. Not thread safe.
class ReadTally : public ByteSource {
 public:
  explicit ReadTally(const ByteSource& log) : log_(log) {}
  int64_t size() const override { return log_.size(); }
  Status Read(int64_t offset, size_t n, std::string* out) const override {
    RETURN_IF_ERROR(log_.Read(offset, n, out));
    Cover(offset, offset + static_cast<int64_t>(out->size()));
    return Status::Ok();
  }
  int64_t distinct_bytes() const {
    int64_t total = 0;
    for (const auto& [begin, end] : ranges_) total += end - begin;
    return total;
  }

 private:
  // Merges [begin, end) into the disjoint ranges read so far.
  void Cover(int64_t begin, int64_t end) const {
    if (begin >= end) return;
    auto it = ranges_.upper_bound(begin);
    if (it != ranges_.begin() && std::prev(it)->second >= begin) {
      --it;
      begin = it->first;
    }
    while (it != ranges_.end() && it->first <= end) {
      end = std::max(end, it->second);
      it = ranges_.erase(it);
    }
    ranges_[begin] = end;
  }

  const ByteSource& log_;
  mutable std::map<int64_t, int64_t> ranges_;  // begin → end
};

constexpr size_t kMaxLine = 64u << 10;  // longer lines are cut for matching

struct Chunk {
  int64_t start = 0;  // offset of its first whole line
  std::vector<std::pair<int64_t, std::string>> lines;  // (offset, text)
};

// The lines that start within [offset, offset + n), realigned to a line start.
Status ReadChunk(const ByteSource& log, int64_t offset, size_t n, Chunk* c) {
  std::string buf;
  RETURN_IF_ERROR(log.Read(offset, n + 4096, &buf));
  // The last line starting inside the chunk may run past it: read on (capped).
  size_t last_nl = buf.rfind('\n');
  while ((last_nl == std::string::npos || last_nl < n) && buf.size() < n + kMaxLine &&
         offset + static_cast<int64_t>(buf.size()) < log.size()) {
    std::string more;
    RETURN_IF_ERROR(log.Read(offset + static_cast<int64_t>(buf.size()), 16384, &more));
    if (more.empty()) break;
    buf += more;
    last_nl = buf.rfind('\n');
  }
  size_t pos = 0;
  if (offset > 0) {
    std::string prev;
    RETURN_IF_ERROR(log.Read(offset - 1, 1, &prev));
    if (prev != "\n") {
      size_t nl = buf.find('\n');
      pos = nl == std::string::npos ? buf.size() : nl + 1;
    }
  }
  c->start = offset + static_cast<int64_t>(pos);
  c->lines.clear();
  while (pos < buf.size() && pos < n) {
    size_t nl = buf.find('\n', pos);
    size_t end = nl == std::string::npos ? buf.size() : nl;
    c->lines.emplace_back(offset + static_cast<int64_t>(pos), buf.substr(pos, std::min(end - pos, kMaxLine)));
    pos = end + 1;
  }
  return Status::Ok();
}

double FailureFraction(const Chunk& c, const std::unordered_set<std::string>& background) {
  int lines = 0, failing = 0;
  for (const auto& [off, text] : c.lines) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++lines;
    failing += IsFailureLine(text) && (background.empty() || !background.count(LineTemplate(text)));
  }
  return lines == 0 ? 0.0 : static_cast<double>(failing) / lines;
}

// Templates of the failure-looking lines that recur (twice or more) in a
// normal stretch of the log.
void AddBackground(const Chunk& c, std::unordered_set<std::string>* background) {
  std::unordered_map<std::string, int> seen;
  for (const auto& [off, text] : c.lines)
    if (IsFailureLine(text)) ++seen[LineTemplate(text)];
  for (const auto& [t, n] : seen)
    if (n >= 2) background->insert(t);
}

// The first line of the region where failure lines become dense: a failure
// line with at least `threshold` of the next kRunLines non-blank lines (itself
// included, at least kRunMin) failure lines too. A cascade (SIGTERMs, NCCL
// aborts, launcher exits) follows the error that started it, so when no line
// of the region names a root cause, the run's first line is where the error
// is — not the region's end, hundreds of cascade lines later. -1: no run.
constexpr int kRunLines = 20, kRunMin = 4;
int64_t FirstDenseRun(const LineWindow& region, double threshold) {
  std::vector<size_t> nonblank;
  std::vector<char> failing;
  for (size_t i = 0; i < region.size(); ++i) {
    if (region[i].second.find_first_not_of(" \t\r") == std::string::npos) continue;
    nonblank.push_back(i);
    failing.push_back(IsFailureLine(region[i].second) ? 1 : 0);
  }
  const int need = std::max(kRunMin, static_cast<int>(threshold * kRunLines + 0.999));
  int count = 0;  // failure lines among nonblank[k, k + kRunLines)
  for (size_t k = 0; k < nonblank.size() && k < static_cast<size_t>(kRunLines); ++k) count += failing[k];
  for (size_t k = 0; k < nonblank.size(); ++k) {
    if (failing[k] && count >= need) return region[nonblank[k]].first;
    count -= failing[k];
    if (k + kRunLines < nonblank.size()) count += failing[k + kRunLines];
  }
  return -1;
}

constexpr int64_t kMaxContextBytes = int64_t{32} << 20;

// Splits `buf` (starting at file offset `base`) into lines (offset, text).
void SplitLines(const std::string& buf, int64_t base, std::vector<std::pair<int64_t, std::string>>* out) {
  size_t pos = 0;
  while (pos < buf.size()) {
    size_t nl = buf.find('\n', pos);
    size_t e = nl == std::string::npos ? buf.size() : nl;
    out->emplace_back(base + static_cast<int64_t>(pos), buf.substr(pos, std::min(e - pos, kMaxLine)));
    pos = e + 1;
  }
}

// `before` whole lines before `offset` and `after` lines from it on (each
// side reads at most kMaxContextBytes).
Status ReadAround(const ByteSource& log, int64_t offset, int before, int after,
                  std::vector<std::pair<int64_t, std::string>>* out) {
  const int64_t step = 64 << 10;
  std::vector<std::string> blocks;  // newest first
  int64_t start = offset, newlines = 0;
  while (start > 0 && newlines <= before && offset - start < kMaxContextBytes) {
    int64_t s = std::max<int64_t>(0, start - step);
    std::string buf;
    RETURN_IF_ERROR(log.Read(s, static_cast<size_t>(start - s), &buf));
    newlines += std::count(buf.begin(), buf.end(), '\n');
    blocks.push_back(std::move(buf));
    start = s;
  }
  std::string back;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) back += *it;
  std::vector<std::pair<int64_t, std::string>> lines;
  if (!back.empty()) {
    back.pop_back();  // the newline that ends the line before `offset`
    size_t pos = 0;   // every '\n'-separated piece is a line, empty ones too
    while (true) {
      size_t nl = back.find('\n', pos);
      size_t e = nl == std::string::npos ? back.size() : nl;
      lines.emplace_back(start + static_cast<int64_t>(pos), back.substr(pos, std::min(e - pos, kMaxLine)));
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
  }
  if (start > 0 && !lines.empty()) lines.erase(lines.begin());  // may be partial
  if (static_cast<int>(lines.size()) > before) lines.erase(lines.begin(), lines.end() - before);
  *out = std::move(lines);
  std::string fwd;
  int64_t at = offset;
  newlines = 0;
  while (at < log.size() && newlines < after && at - offset < kMaxContextBytes) {
    std::string buf;
    RETURN_IF_ERROR(log.Read(at, static_cast<size_t>(step), &buf));
    if (buf.empty()) break;
    newlines += std::count(buf.begin(), buf.end(), '\n');
    at += static_cast<int64_t>(buf.size());
    fwd += buf;
  }
  std::vector<std::pair<int64_t, std::string>> ahead;
  SplitLines(fwd, offset, &ahead);
  if (static_cast<int>(ahead.size()) > after) ahead.resize(static_cast<size_t>(after));
  for (auto& l : ahead) out->push_back(std::move(l));
  return Status::Ok();
}

// Newlines in [0, end), or nullopt when that head is longer than `budget`
// bytes: numbering a line deep in a huge log would read the log whole.
Result<std::optional<int64_t>> NewlinesBefore(const ByteSource& log, int64_t end, int64_t budget) {
  if (end > budget) return std::optional<int64_t>();
  int64_t count = 0, at = 0;
  std::string buf;
  while (at < end) {
    RETURN_IF_ERROR(log.Read(at, static_cast<size_t>(std::min<int64_t>(1 << 20, end - at)), &buf));
    if (buf.empty()) break;
    count += std::count(buf.begin(), buf.end(), '\n');
    at += static_cast<int64_t>(buf.size());
  }
  return std::optional<int64_t>(count);
}

// The window's byte offsets become 0-based line numbers when the head before
// it is within the budget; otherwise they stay offsets, and Located says so.
Status NumberLines(const ByteSource& log, int64_t budget, Located* out) {
  if (out->window.empty()) return Status::Ok();
  ASSIGN_OR_RETURN(std::optional<int64_t> first, NewlinesBefore(log, out->window[0].first, budget));
  if (!first) return Status::Ok();
  int64_t line = *first;
  for (auto& [index, text] : out->window) index = line++;
  out->lines_are_offsets = false;
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path) {
  ASSIGN_OR_RETURN(OpenedFile file, OpenRegularFile(path));
  return std::unique_ptr<ByteSource>(new FileSource(file.fd, file.size));
}

std::unique_ptr<ByteSource> StringSource(std::string text) {
  return std::make_unique<MemorySource>(std::move(text));
}

std::string LineTemplate(std::string_view line) {
  std::string t;
  t.reserve(std::min<size_t>(line.size(), 160));
  for (size_t i = 0; i < line.size() && t.size() < 160; ++i) {
    char c = line[i];
    if (c >= '0' && c <= '9') {
      bool hex = i + 1 < line.size() && c == '0' && (line[i + 1] == 'x' || line[i + 1] == 'X');
      if (hex) i += 2;
      while (i < line.size() && ((line[i] >= '0' && line[i] <= '9') ||
                                 (hex && ((line[i] >= 'a' && line[i] <= 'f') || (line[i] >= 'A' && line[i] <= 'F')))))
        ++i;
      --i;
      t += '#';
      continue;
    }
    t += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return t;
}

LineWindow ForegroundWindow(const Located& located) {
  if (located.background.empty()) return located.window;
  LineWindow out;
  for (const auto& line : located.window)
    if (!located.background.count(LineTemplate(line.second))) out.push_back(line);
  return out.empty() ? located.window : out;
}

Result<Located> LocateFailure(const ByteSource& source, const LocateOptions& o) {
  const ReadTally log(source);
  Located out;
  const int64_t size = log.size();
  const int64_t chunk = static_cast<int64_t>(std::max<size_t>(o.chunk_bytes, 1024));
  const int64_t n = (size + chunk - 1) / chunk;
  int64_t region_begin = 0;
  if (n > 4) {
    out.searched = true;
    out.path = "binary search";
    Chunk c;
    // The background: what the job's normal stretches print that looks like failure.
    for (int64_t k : {int64_t{0}, n / 2}) {
      RETURN_IF_ERROR(ReadChunk(log, k * chunk, static_cast<size_t>(chunk), &c));
      ++out.probes;
      AddBackground(c, &out.background);
    }
    auto failing = [&](int64_t k, bool* result) -> Status {
      RETURN_IF_ERROR(ReadChunk(log, k * chunk, static_cast<size_t>(chunk), &c));
      ++out.probes;
      *result = FailureFraction(c, out.background) >= o.threshold;
      return Status::Ok();
    };
    bool tail = false, head = false;
    RETURN_IF_ERROR(failing(n - 1, &tail));
    RETURN_IF_ERROR(failing(0, &head));
    int64_t lo = 0, hi = n - 1;
    if (!tail) {
      lo = n - 2;  // no dense failure at the end: scan the last chunks
      out.path = "tail scan";
    } else if (head) {
      hi = 0;
    } else {
      while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        bool f = false;
        RETURN_IF_ERROR(failing(mid, &f));
        (f ? hi : lo) = mid;
      }
    }
    region_begin = std::max<int64_t>(0, std::min(lo, hi)) * chunk;
  }
  // The root-like failure line of the region: the boundary chunks of a
  // searched log, or the whole of a small one.
  Chunk c;
  LineWindow region;
  int64_t region_end = out.searched ? std::min(size, region_begin + 2 * chunk) : size;
  for (int64_t at = region_begin; at < region_end; at += chunk) {
    RETURN_IF_ERROR(ReadChunk(log, at, static_cast<size_t>(chunk), &c));
    for (auto& line : c.lines)
      if (out.background.empty() || !out.background.count(LineTemplate(line.second))) region.push_back(std::move(line));
  }
  RootCauseDetail d = DiagnoseWindow(region);
  int64_t first = d.diagnosis.root_cause_line_index.value_or(-1);
  if (first < 0) first = FirstDenseRun(region, o.threshold);  // no root line: where failure starts
  if (first < 0) first = region.empty() ? 0 : region.back().first;  // nothing found: the end
  out.offset = first;
  RETURN_IF_ERROR(ReadAround(log, first, o.context_lines / 2, o.context_lines - o.context_lines / 2, &out.window));
  out.lines_are_offsets = !out.window.empty();
  if (o.number_lines) RETURN_IF_ERROR(NumberLines(log, o.max_numbering_bytes, &out));
  out.bytes_read = log.distinct_bytes();
  return out;
}

}  // namespace schedmate
