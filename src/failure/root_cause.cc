#include "failure/root_cause.h"

#include <algorithm>

namespace schedmate {
namespace {

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

// Drops launcher and logger prefixes: "[rank3]: ", "[default0]:",
// "2024-11-20 14:37:16 ", "E0330 21:37:34.807000 155011 file.py:869] ".
std::string_view StripPrefixes(std::string_view s) {
  for (int round = 0; round < 4; ++round) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '>')) s.remove_prefix(1);
    if (!s.empty() && s.front() == '[') {
      size_t close = s.find(']');
      if (close != std::string_view::npos && close < 48) {
        size_t next = close + 1;
        if (next < s.size() && s[next] == ':') ++next;
        s.remove_prefix(next);
        continue;
      }
    }
    if (s.size() > 19 && s[4] == '-' && s[7] == '-' && s[13] == ':') {  // "2024-11-20 14:37:16"
      size_t sp = s.find(' ', 11);
      s.remove_prefix(sp == std::string_view::npos ? s.size() : sp);
      continue;
    }
    break;
  }
  return s;
}

bool IsContinuation(std::string_view next) {
  size_t i = 0;
  while (i < next.size() && (next[i] == ' ' || next[i] == '\t')) ++i;
  return i > 0 && i < next.size() && next[i] == '(';
}

// Spaces after launcher prefixes ("[rank5]:     raise …" → 5).
size_t IndentAfterPrefix(std::string_view s) {
  while (!s.empty() && s.front() == '[') {
    size_t close = s.find(']');
    if (close == std::string_view::npos || close > 48) break;
    s.remove_prefix(close + 1);
    if (!s.empty() && s.front() == ':') s.remove_prefix(1);
  }
  size_t n = 0;
  while (n < s.size() && (s[n] == ' ' || s[n] == '\t')) ++n;
  return n;
}

// Source code echoed by a Python traceback: an indented line after
// `File "…", line N`, or a `raise …` statement. It names an error without
// being one. (The exception line itself is not indented.)
bool IsTracebackCode(const LineWindow& w, size_t i) {
  std::string_view s = StripPrefixes(w[i].second);
  if (s.rfind("raise ", 0) == 0) return true;
  if (i == 0 || IndentAfterPrefix(w[i].second) < 2) return false;
  std::string_view prev = StripPrefixes(w[i - 1].second);
  return prev.rfind("File \"", 0) == 0 && prev.find("\", line ") != std::string_view::npos;
}

bool IsErrorWordLine(std::string_view lower) {
  for (std::string_view w : {"error", "exception", "traceback", "fatal", "failed", "failure", "killed",
                             "abort", "segmentation fault", "core dumped", "sigterm", "sigkill"})
    if (lower.find(w) != std::string_view::npos) return true;
  return false;
}

// Python's and PyTorch's shared memory lives in /dev/shm: multiprocessing
// locks and queues are POSIX semaphores there, and DataLoader workers hand
// tensors over in /dev/shm/torch_* files. "No space left on device" among
// these says the container's /dev/shm is too small (framework, by the corpus
// conventions), not that a disk is full.
bool SharedMemoryContext(const LineWindow& w) {
  for (const auto& [n, text] : w) {
    std::string lower = ToLower(std::string_view(text).substr(0, 4096));
    for (std::string_view k : {"/dev/shm", "shared memory", "semlock", "sem_open", "shm_open", "</torch_",
                               "multiprocessing/synchronize", "multiprocessing/queues", "_multiprocessing_helpers"})
      if (lower.find(k) != std::string::npos) return true;
  }
  return false;
}

// Characters that end a path-like token ("/gpfs/home/x.py", 'File "…"').
bool TokenEnd(char c) {
  return c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '(' || c == ')' || c == '[' || c == ']' ||
         c == '<' || c == '>' || c == '=' || c == ',';
}

// The occurrence lower[pos, pos + len) is part of a path: its token has a
// '/' outside the occurrence ("/ibm/gpfs-homes/…", "…/tpu/preempted_hook.py").
// A path in a C++ source location — "[…/gloo/transport/tcp/pair.cc:598]"
// opening the message, as c10d, Gloo and NCCL print their errors — is the
// code that raised the error, so it names what failed: not a mere path.
bool InsidePath(std::string_view lower, size_t pos, size_t len) {
  size_t b = pos;
  while (b > 0 && !TokenEnd(lower[b - 1])) --b;
  size_t e = pos + len;
  while (e < lower.size() && !TokenEnd(lower[e])) ++e;
  bool path = lower.substr(b, pos - b).find('/') != std::string_view::npos ||
              lower.substr(pos + len, e - pos - len).find('/') != std::string_view::npos;
  if (!path) return false;
  // "[path:digits]": the token sits between '[' and ']' and ends in ":<line>".
  if (b > 0 && lower[b - 1] == '[' && e < lower.size() && lower[e] == ']') {
    size_t colon = lower.rfind(':', e);
    if (colon != std::string_view::npos && colon > pos + len && colon + 1 < e &&
        lower.substr(colon + 1, e - colon - 1).find_first_not_of("0123456789") == std::string_view::npos)
      return false;
  }
  return true;
}

// The occurrence is one of several alternatives the message lists: "or"
// right after it ("preempted or failed", "got preempted, or crashed") or
// earlier in the same clause ("exited or there was a network error").
bool OneOfAlternatives(std::string_view lower, size_t pos, size_t len) {
  size_t a = pos + len;
  while (a < lower.size() && (lower[a] == ' ' || lower[a] == ',')) ++a;
  if (lower.substr(a, 3) == "or ") return true;
  size_t start = pos > 24 ? pos - 24 : 0;
  std::string_view before = lower.substr(start, pos - start);
  size_t cut = before.find_last_of(".;:(");
  if (cut != std::string_view::npos) before.remove_prefix(cut + 1);
  return before.find(" or ") != std::string_view::npos || before.rfind("or ", 0) == 0;
}

struct Candidate {
  size_t pos;
  int weight;
  const Signature* sig;  // nullptr: generic exception
};

}  // namespace

bool IsTracebackCodeLine(const LineWindow& window, size_t i) { return IsTracebackCode(window, i); }

bool WeakInfrastructureMatch(std::string_view lower, const Signature& sig) {
  if (sig.category != FailureDiagnosis::ErrorType::kInfrastructure) return false;
  bool matched = false;
  for (const auto& alt : sig.any_of) {
    bool all = true, weak = false;
    for (const std::string& t : alt) {
      size_t pos = lower.find(t);
      if (pos == std::string_view::npos) {
        all = false;
        break;
      }
      bool every_weak = true;  // every occurrence of the term is in a path or an alternative
      for (; pos != std::string_view::npos && every_weak; pos = lower.find(t, pos + 1))
        every_weak = InsidePath(lower, pos, t.size()) || OneOfAlternatives(lower, pos, t.size());
      weak = weak || every_weak;
    }
    if (!all) continue;
    matched = true;
    if (!weak) return false;  // one alternative reports the event plainly
  }
  return matched;
}

std::string_view WithoutLogPrefixes(std::string_view line) { return StripPrefixes(line); }

std::string ExceptionType(std::string_view line) {
  std::string_view s = StripPrefixes(line);
  size_t i = 0;
  while (i < s.size() && IsIdentChar(s[i])) ++i;
  if (i == 0 || i >= s.size() || s[i] != ':') return "";
  std::string_view name = s.substr(0, i);
  size_t dot = name.rfind('.');
  std::string_view last = dot == std::string_view::npos ? name : name.substr(dot + 1);
  for (std::string_view suffix : {"Error", "Exception", "Exit", "Interrupt", "Failure"})
    if (last.size() > suffix.size() && last.compare(last.size() - suffix.size(), suffix.size(), suffix) == 0)
      return std::string(last);
  if (last == "Exception") return "Exception";
  return "";
}

bool IsFailureLine(std::string_view line, const SignatureBase& base) {
  std::string lower = ToLower(line.substr(0, 4096));
  return base.Match(lower) != nullptr || !ExceptionType(line).empty() || IsErrorWordLine(lower);
}

RootCauseDetail DiagnoseWindow(const LineWindow& window, const SignatureBase& base) {
  using E = FailureDiagnosis::ErrorType;
  RootCauseDetail out;
  std::vector<Candidate> candidates;
  bool gpu_fault_seen = false;
  for (size_t i = 0; i < window.size(); ++i) {
    if (IsTracebackCode(window, i)) continue;
    std::string lower = ToLower(std::string_view(window[i].second).substr(0, 4096));
    if (i + 1 < window.size() && IsContinuation(window[i + 1].second))
      lower += " " + ToLower(std::string_view(window[i + 1].second).substr(0, 1024));
    const Signature* sig = base.Match(lower);
    if (sig && sig->kind == SignatureKind::kRoot && !WeakInfrastructureMatch(lower, *sig)) {
      candidates.push_back({i, sig->weight, sig});
      if (sig->component == "gpu" && sig->weight >= 8) gpu_fault_seen = true;
      continue;
    }
    if (sig && sig->kind != SignatureKind::kRoot) continue;  // a wrapper or a cascade line
    std::string type = ExceptionType(window[i].second);
    if (!type.empty() && type.find("Warning") == std::string::npos) candidates.push_back({i, 3, nullptr});
  }
  if (candidates.empty()) return out;
  const Candidate* best = &candidates[0];
  for (const Candidate& c : candidates)
    if (c.weight > best->weight) best = &c;  // earliest of the highest weight
  FailureDiagnosis& d = out.diagnosis;
  d.error_type = best->sig ? best->sig->category : E::kUserScript;
  if (best->sig && !best->sig->component.empty()) d.faulty_component = best->sig->component;
  out.signature_id = best->sig ? best->sig->id : "generic-exception";
  out.weight = best->weight;
  // An OOM next to a GPU hardware fault is the GPU's (a faulty GPU loses memory).
  if (best->sig && best->sig->id == "user.cuda_oom" && gpu_fault_seen) {
    d.error_type = E::kInfrastructure;
    d.faulty_component = "gpu";
  }
  if (best->sig && best->sig->id == "storage.full" && SharedMemoryContext(window)) {
    d.error_type = E::kFramework;
    d.faulty_component.reset();
    out.signature_id = "storage.full+shm";
  }
  d.root_cause_line = window[best->pos].second;
  d.root_cause_line_index = window[best->pos].first;
  d.evidence.push_back(window[best->pos].second);
  bool rival = false;
  for (const Candidate& c : candidates) {
    if (&c == best) continue;
    E cat = c.sig ? c.sig->category : E::kUserScript;
    if (cat == d.error_type && d.evidence.size() < 5) d.evidence.push_back(window[c.pos].second);
    if (cat != d.error_type && c.weight >= best->weight - 1) rival = true;
  }
  d.confidence = best->sig ? std::min(0.95, 0.45 + 0.05 * best->weight) : 0.4;
  if (rival) d.confidence *= 0.8;
  return out;
}

}  // namespace schedmate
