#include "failure/node_health.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

#include "core/facts.h"
#include "core/subprocess.h"
#include "failure/signatures.h"

namespace schedmate {
namespace {

constexpr size_t kEvidenceCap = 300;

std::string WithNode(std::string text, const std::string& node) {
  for (size_t at; (at = text.find("{node}")) != std::string::npos;) text.replace(at, 6, node);
  return text;
}

std::string Capped(std::string s) {
  if (s.size() > kEvidenceCap) s.resize(kEvidenceCap);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// Evidence only a trusted writer produced: root's or ours, and no one else may write it.
bool TrustedWriter(const struct stat& st) {
  bool owner_ok = st.st_uid == 0 || st.st_uid == geteuid();
  return owner_ok && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

// The newest line of `text` that a hardware or node signature matches.
std::string HardwareLine(const std::string& text) {
  const SignatureBase& base = SignatureBase::Default();
  std::string found;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string lower = text.substr(start, end - start);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    const Signature* s = base.Match(lower);
    if (s && s->kind == SignatureKind::kRoot && ComponentLivesInNode(s->component))
      found = text.substr(start, end - start);
    start = end + 1;
  }
  return found;
}

}  // namespace

std::string_view NodeHealthName(NodeHealth h) {
  switch (h) {
    case NodeHealth::kHealthy: return "healthy";
    case NodeHealth::kFaulty: return "faulty";
    case NodeHealth::kUnknown: return "unknown";
  }
  return "unknown";
}

bool ValidNodeName(std::string_view node) {
  if (node.empty() || node.size() > 255 || node.front() == '-') return false;
  return std::all_of(node.begin(), node.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '.' || c == '-' || c == '_';
  });
}

HealthReport CommandHealthCheck::Check(const std::string& node) {
  HealthReport r;
  r.check = "command: " + command_;
  if (!ValidNodeName(node)) {
    r.evidence = "refused to run: the node name is not a plain host name";
    return r;
  }
  auto run = RunCommand({"/bin/sh", "-c", WithNode(command_, node)}, timeout_ms_, 16 * 1024);
  if (!run.ok()) {
    r.evidence = run.status().message();
    return r;
  }
  if (run->timed_out) r.evidence = "no answer within " + std::to_string(timeout_ms_ / 1000) + " s";
  else if (run->exit_code == 0) r.health = NodeHealth::kHealthy;
  else if (run->exit_code >= 1 && run->exit_code <= 125) r.health = NodeHealth::kFaulty;
  if (r.evidence.empty()) r.evidence = "exit " + std::to_string(run->exit_code) + (run->output.empty() ? "" : ": " + Capped(run->output));
  return r;
}

HealthReport NodeLogHealthCheck::Check(const std::string& node) {
  HealthReport r;
  r.check = "node log: " + path_;
  if (!ValidNodeName(node)) {
    r.evidence = "refused to read: the node name is not a plain host name";
    return r;
  }
  std::string path = WithNode(path_, node);
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    r.evidence = path + ": cannot be read";
    return r;
  }
  struct stat st{};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !TrustedWriter(st)) {
    close(fd);
    r.evidence = path + ": not a regular file that only root or this service can write, so not evidence";
    return r;
  }
  off_t from = st.st_size > static_cast<off_t>(tail_bytes_) ? st.st_size - static_cast<off_t>(tail_bytes_) : 0;
  std::string tail(static_cast<size_t>(st.st_size - from), '\0');
  ssize_t n = pread(fd, tail.data(), tail.size(), from);
  close(fd);
  tail.resize(n > 0 ? static_cast<size_t>(n) : 0);
  std::string line = HardwareLine(tail);
  if (line.empty()) {
    r.evidence = path + ": no hardware or node fault in its last " + std::to_string(tail.size()) + " bytes";
    return r;  // silence is not health: unknown
  }
  r.health = NodeHealth::kFaulty;
  r.evidence = Capped(line);
  return r;
}

HealthReport NodeHealthChecks::Check(const std::string& node) {
  if (checks_.empty())
    return {NodeHealth::kUnknown, "none", "no node-side health check is configured: infrastructure verdicts are advice only"};
  std::vector<HealthReport> reports;
  for (const auto& c : checks_) reports.push_back(c->Check(node));
  auto first = [&](NodeHealth h) {
    auto it = std::find_if(reports.begin(), reports.end(), [&](const HealthReport& r) { return r.health == h; });
    return it == reports.end() ? nullptr : &*it;
  };
  const HealthReport* faulty = first(NodeHealth::kFaulty);
  const HealthReport* healthy = first(NodeHealth::kHealthy);
  if (faulty && healthy)
    return {NodeHealth::kUnknown, faulty->check + "; " + healthy->check,
            "the checks disagree (faulty: " + faulty->evidence + "; healthy: " + healthy->evidence + ")"};
  if (faulty) return *faulty;
  if (healthy) return *healthy;
  return reports.front();
}

}  // namespace schedmate
