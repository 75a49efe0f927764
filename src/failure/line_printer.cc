#include "failure/line_printer.h"

#include <cctype>
#include <string>

#include "failure/root_cause.h"

namespace schedmate {
namespace {

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// "[  218.250408] …": the kernel ring buffer's seconds since boot.
bool DmesgStamp(std::string_view s) {
  if (s.empty() || s[0] != '[') return false;
  size_t first = s.find_first_not_of(' ', 1);
  size_t dot = s.find('.'), close = s.find(']');
  return first != std::string_view::npos && Digit(s[first]) && dot < 16 && close < 18 && dot < close;
}

// "Dec  2 11:38:46 host …": a month name, a day, a time.
bool SyslogStamp(std::string_view s) {
  return s.size() > 16 && std::isalpha(static_cast<unsigned char>(s[0])) && s[3] == ' ' && s[6] == ' ' && s[9] == ':' &&
         s[12] == ':';
}

// "E0330 21:37:34.807000 155011 file.py:869] …": severity, month and day.
char CppLogSeverity(std::string_view core) {
  if (core.size() < 7 || std::string_view("IWEF").find(core[0]) == std::string_view::npos) return 0;
  if (!Digit(core[1]) || !Digit(core[2]) || !Digit(core[3]) || !Digit(core[4])) return 0;
  size_t close = core.find(']');
  return close != std::string_view::npos && close < 80 ? core[0] : 0;
}

}  // namespace

std::string_view LinePrinter(std::string_view line) {
  std::string lower = ToLower(line.substr(0, 512));
  auto has = [&](std::string_view k) { return lower.find(k) != std::string::npos; };
  if (DmesgStamp(line) || has("kernel:") || has("nvrm:")) return "kernel";
  if (SyslogStamp(line)) return "syslog";
  for (std::string_view k : {"slurmstepd", "srun:", "salloc:", "sbatch:", "slurm"})
    if (has(k)) return "slurm";
  for (std::string_view k : {"kubelet", "pod ", "container"})
    if (has(k)) return "kubernetes";
  std::string_view core = WithoutLogPrefixes(line);
  switch (CppLogSeverity(core)) {
    case 'I':
      return "cpp-log-I";
    case 'W':
      return "cpp-log-W";
    case 'E':
      return "cpp-log-E";
    case 'F':
      return "cpp-log-F";
    default:
      break;
  }
  if (has(" nccl warn") || has(" nccl info")) return "nccl";
  if (has("what():")) return "cpp-what";
  if (!ExceptionType(line).empty()) return core.find('.') < core.find(':') ? "py-qualified" : "py";
  if (has("warning")) return "warning";
  return "other";
}

}  // namespace schedmate
