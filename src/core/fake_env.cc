#include "core/fake_env.h"

#include <algorithm>
#include <set>

namespace schedmate {
namespace {

std::string AsDirPrefix(const std::string& dir) { return dir.empty() || dir.back() == '/' ? dir : dir + "/"; }

}  // namespace

Result<std::string> FakeEnv::ReadFile(const std::string& path, int64_t offset, int64_t max_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  ++reads_;
  clock_.AdvanceMs(read_delay_ms_);
  if (failing_read_ && *failing_read_ == path) return Unavailable(path + ": cannot read: injected I/O error");
  auto it = files_.find(path);
  if (it == files_.end()) return NotFound(path + ": No such file or directory");
  const std::string& d = it->second.data;
  if (offset >= static_cast<int64_t>(d.size()) || max_bytes <= 0) return std::string();
  return d.substr(static_cast<size_t>(offset), static_cast<size_t>(max_bytes));
}

Status FakeEnv::WriteFileAtomic(const std::string& path, std::string_view data) {
  std::lock_guard<std::mutex> lock(mu_);
  if (short_write_) {
    size_t n = std::min(*short_write_, data.size());
    short_write_.reset();
    return Unavailable(path + ".tmp: short write: No space left on device (injected after " + std::to_string(n) +
                       " bytes)");
  }
  files_[path] = File{std::string(data), clock_.NowMs()};
  ++writes_;
  return Status::Ok();
}

Result<std::vector<std::string>> FakeEnv::ListDir(const std::string& dir) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string prefix = AsDirPrefix(dir);
  std::set<std::string> names;
  for (const auto& [path, f] : files_) {
    if (path.rfind(prefix, 0) != 0) continue;
    std::string rest = path.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
  }
  if (names.empty()) return NotFound(dir + ": cannot list: No such file or directory");
  return std::vector<std::string>(names.begin(), names.end());
}

Result<FileInfo> FakeEnv::Stat(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = files_.find(path); it != files_.end())
    return FileInfo{static_cast<int64_t>(it->second.data.size()), it->second.mtime_ms, true};
  const std::string prefix = AsDirPrefix(path);
  auto next = files_.lower_bound(prefix);
  if (next != files_.end() && next->first.rfind(prefix, 0) == 0) return FileInfo{0, 0, false};
  return NotFound(path + ": cannot stat: No such file or directory");
}

void FakeEnv::SetFile(const std::string& path, std::string data) {
  std::lock_guard<std::mutex> lock(mu_);
  files_[path] = File{std::move(data), clock_.NowMs()};
}

void FakeEnv::AppendFile(const std::string& path, std::string_view data) {
  std::lock_guard<std::mutex> lock(mu_);
  File& f = files_[path];
  f.data.append(data);
  f.mtime_ms = clock_.NowMs();
}

void FakeEnv::RemoveFile(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  files_.erase(path);
}

std::optional<std::string> FakeEnv::Contents(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return std::nullopt;
  return it->second.data;
}

void FakeEnv::AdvanceMs(int64_t ms) {
  std::lock_guard<std::mutex> lock(mu_);
  clock_.AdvanceMs(ms);
}

void FakeEnv::SetReadDelayMs(int64_t ms) {
  std::lock_guard<std::mutex> lock(mu_);
  read_delay_ms_ = ms;
}

void FakeEnv::FailNextWriteAfter(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  short_write_ = bytes;
}

void FakeEnv::FailReadsOf(std::optional<std::string> path) {
  std::lock_guard<std::mutex> lock(mu_);
  failing_read_ = std::move(path);
}

int64_t FakeEnv::reads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reads_;
}

int64_t FakeEnv::writes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return writes_;
}

}  // namespace schedmate
