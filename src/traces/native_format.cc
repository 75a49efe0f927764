#include "traces/native_format.h"

#include <algorithm>
#include <fstream>

#include "traces/csv_reader.h"
#include "traces/trace_loader.h"

namespace schedmate {
namespace {

constexpr std::string_view kMagic = "# schedmate trace v1";
constexpr std::string_view kExtraSpecials = "%;=\r\n";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string EncodeExtra(const JobSpec& j) {
  std::string out;
  for (const auto& [k, v] : j.extra) {
    if (!out.empty()) out += ';';
    out += PercentEncode(k, kExtraSpecials);
    out += '=';
    out += PercentEncode(v, kExtraSpecials);
  }
  return out;
}

Status DecodeExtra(const CsvTable& t, int col, JobSpec& j) {
  std::string_view s = t.Field(col);
  while (!s.empty()) {
    size_t semi = s.find(';');
    std::string_view pair = s.substr(0, semi);
    s = semi == std::string_view::npos ? "" : s.substr(semi + 1);
    size_t eq = pair.find('=');
    if (eq == std::string_view::npos)
      return t.ColumnError(col, "pair without '='");
    auto k = PercentDecode(pair.substr(0, eq));
    auto v = PercentDecode(pair.substr(eq + 1));
    if (!k.ok() || !v.ok()) return t.ColumnError(col, "bad percent escape");
    j.extra.emplace_back(std::move(k).value(), std::move(v).value());
  }
  return Status::Ok();
}

// "# key=value" header lines.
Status ReadMeta(const std::vector<std::string>& comments, Trace& out) {
  for (const auto& line : comments) {
    if (line.rfind("# ", 0) != 0) continue;
    std::string_view kv = std::string_view(line).substr(2);
    size_t eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = kv.substr(0, eq), value = kv.substr(eq + 1);
    if (key == "source") {
      ASSIGN_OR_RETURN(out.source, PercentDecode(value));
    } else if (key == "format") {
      out.format = std::string(value);
    } else if (key == "synthetic") {
      out.synthetic = value == "1";
    } else if (key == "epoch_s") {
      try {
        out.epoch_s = std::stoll(std::string(value));
      } catch (...) {
        return InvalidArgument("bad epoch_s in trace header: " +
                               std::string(value.substr(0, 40)));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

std::string PercentEncode(std::string_view s, std::string_view specials) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (char c : s) {
    if (specials.find(c) != std::string_view::npos) {
      out += '%';
      out += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
      out += kHex[static_cast<unsigned char>(c) & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

Result<std::string> PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    int hi = i + 1 < s.size() ? HexValue(s[i + 1]) : -1;
    int lo = i + 2 < s.size() ? HexValue(s[i + 2]) : -1;
    if (hi < 0 || lo < 0) return InvalidArgument("bad percent escape");
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

Status WriteNativeTrace(const Trace& trace, std::ostream& out) {
  out << kMagic << "\n";
  out << "# source=" << PercentEncode(trace.source, "%\r\n") << "\n";
  out << "# format=" << PercentEncode(trace.format, "%\r\n") << "\n";
  out << "# synthetic=" << (trace.synthetic ? 1 : 0) << "\n";
  out << "# epoch_s=" << trace.epoch_s << "\n";
  out << "id,user,vc,name,type,gpus,cpus,submit_s,duration_s,state,batch_size,"
         "extra\n";
  for (const auto& j : trace.jobs) {
    out << CsvQuote(j.id) << ',' << CsvQuote(j.user) << ',' << CsvQuote(j.vc)
        << ',' << CsvQuote(j.name) << ',' << CsvQuote(j.type) << ',' << j.gpus
        << ',' << j.cpus << ',' << j.submit_s << ',' << j.duration_s << ','
        << EndStateName(j.state) << ',' << j.batch_size << ','
        << CsvQuote(EncodeExtra(j)) << '\n';
  }
  if (!out) return Unavailable("write failed");
  return Status::Ok();
}

Status WriteNativeTraceFile(const Trace& trace, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return NotFound(path + ": cannot create");
  return WriteNativeTrace(trace, out).WithContext(path);
}

namespace loaders {

Status Native(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o) {
  std::string source = out.source;
  RETURN_IF_ERROR(ReadMeta(t.comments(), out).WithContext(t.source()));
  int c[12];
  const char* names[12] = {"id",   "user", "vc",         "name",
                           "type", "gpus", "cpus",       "submit_s",
                           "duration_s", "state", "batch_size", "extra"};
  for (int i = 0; i < 12; ++i) {
    ASSIGN_OR_RETURN(c[i], t.Require(names[i]));
  }
  while (true) {
    ASSIGN_OR_RETURN(bool more, t.Next());
    if (!more) break;
    ++r.rows;
    JobSpec j;
    j.id = std::string(t.Field(c[0]));
    if (j.id.empty()) return t.ColumnError(c[0], "empty job id");
    j.user = std::string(t.Field(c[1]));
    j.vc = std::string(t.Field(c[2]));
    j.name = std::string(t.Field(c[3]));
    j.type = std::string(t.Field(c[4]));
    ASSIGN_OR_RETURN(int64_t gpus, t.NonNegativeInt(c[5]));
    ASSIGN_OR_RETURN(int64_t cpus, t.NonNegativeInt(c[6]));
    if (gpus > 1'000'000 || cpus > (1 << 30))
      return t.RowError("gpus or cpus implausibly large");
    j.gpus = static_cast<int32_t>(gpus);
    j.cpus = static_cast<int32_t>(cpus);
    ASSIGN_OR_RETURN(j.submit_s, t.Int(c[7]));
    ASSIGN_OR_RETURN(j.duration_s, t.Int(c[8]));
    if (j.duration_s < -1)
      return t.ColumnError(c[8], "negative (use -1 for unknown)");
    auto state = ParseEndState(t.Field(c[9]));
    if (!state) return t.ColumnError(c[9], "unknown state");
    j.state = *state;
    ASSIGN_OR_RETURN(int64_t bs, t.NonNegativeInt(c[10]));
    j.batch_size = static_cast<int32_t>(std::min<int64_t>(bs, 1 << 30));
    RETURN_IF_ERROR(DecodeExtra(t, c[11], j));
    if (o.gpu_jobs_only && j.gpus == 0) {
      ++r.skipped_cpu_jobs;
      continue;
    }
    out.jobs.push_back(std::move(j));
  }
  if (out.source.empty()) out.source = source;
  // Times are kept as written (lossless); only the order is enforced.
  std::stable_sort(out.jobs.begin(), out.jobs.end(),
                   [](const JobSpec& a, const JobSpec& b) {
                     return a.submit_s < b.submit_s;
                   });
  return Status::Ok();
}

}  // namespace loaders
}  // namespace schedmate
