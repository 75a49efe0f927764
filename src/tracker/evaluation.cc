#include "tracker/evaluation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "tracker/line_cleaner.h"

namespace schedmate {
namespace {

// The truth's loss: a number, the string "nan" or "inf", or null.
Result<std::optional<double>> TruthLoss(const Json& truth, const std::string& where) {
  auto it = truth.find("loss");
  if (it == truth.end() || it->is_null()) return std::optional<double>();
  if (it->is_string() && it->get<std::string>() == "nan") return std::optional<double>(std::nan(""));
  if (it->is_string() && it->get<std::string>() == "inf") return std::optional<double>(HUGE_VAL);
  if (it->is_number()) return std::optional<double>(it->get<double>());
  return InvalidArgument(where + ": field 'truth.loss': expected a number, \"nan\", \"inf\" or null");
}

Result<ProgressTruth> ParseTruth(const Json& t, const std::string& where) {
  if (!t.is_object()) return InvalidArgument(where + ": field 'truth': expected an object");
  ProgressTruth out;
  ASSIGN_OR_RETURN(out.step, GetOptInt(t, "step", where));
  ASSIGN_OR_RETURN(out.total_steps, GetOptInt(t, "total_steps", where));
  ASSIGN_OR_RETURN(out.step_time_s, GetOptNumber(t, "step_time_s", where));
  ASSIGN_OR_RETURN(out.throughput, GetOptNumber(t, "throughput", where));
  ASSIGN_OR_RETURN(out.throughput_unit, GetOptString(t, "throughput_unit", where));
  ASSIGN_OR_RETURN(out.loss, TruthLoss(t, where));
  return out;
}

bool Close(const std::optional<double>& got, const std::optional<double>& want, double rel) {
  if (!want) return !got;
  if (!got) return false;
  if (std::isnan(*want)) return std::isnan(*got);
  if (std::isnan(*got)) return false;
  double scale = std::max(std::fabs(*want), 1e-12);
  return std::fabs(*got - *want) <= rel * scale || *got == *want;
}

std::string LowerCopy(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::vector<std::string> SplitLogText(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string::npos ? text.size() : nl;
    lines.push_back(CleanLogLine(std::string_view(text).substr(start, end - start)));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return lines;
}

Result<std::vector<TrackerCase>> LoadTrackerCases(const std::string& path) {
  std::vector<TrackerCase> cases;
  RETURN_IF_ERROR(ForEachJsonLine(path, [&](const Json& j, const std::string& where) -> Status {
    if (!j.is_object()) return InvalidArgument(where + ": expected a JSON object");
    TrackerCase c;
    ASSIGN_OR_RETURN(c.id, GetString(j, "id", where));
    ASSIGN_OR_RETURN(c.log, GetString(j, "log", where));
    ASSIGN_OR_RETURN(std::optional<std::string> fw, GetOptString(j, "framework", where));
    c.framework = fw.value_or("");
    ASSIGN_OR_RETURN(CorpusOrigin origin, GetCorpusOrigin(j, where));
    c.source = std::move(origin.source);
    c.split = std::move(origin.split);
    if (auto n = j.find("noisy"); n != j.end() && n->is_boolean()) c.noisy = n->get<bool>();
    auto t = j.find("truth");
    if (t == j.end()) return InvalidArgument(where + ": missing field 'truth'");
    ASSIGN_OR_RETURN(c.truth, ParseTruth(*t, where));
    cases.push_back(std::move(c));
    return Status::Ok();
  }));
  if (cases.empty()) return InvalidArgument(path + ": no cases");
  return cases;
}

CaseOutcome EvaluateCase(const TrackerCase& c, const ProgressExtractor& extract) {
  CaseOutcome o;
  o.id = c.id;
  o.framework = c.framework;
  o.source = c.source;
  o.split = c.split;
  o.noisy = c.noisy;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> lines = SplitLogText(c.log);
  o.got = extract(lines, &o.stats);
  o.latency_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const ProgressTruth& t = c.truth;
  const ProgressReport& g = o.got;
  o.step_ok = g.step == t.step;
  o.total_ok = g.total_steps == t.total_steps;
  o.time_ok = Close(g.step_time_s, t.step_time_s, 0.05);
  o.throughput_ok = Close(g.throughput, t.throughput, 0.01);
  o.unit_ok = (!t.throughput_unit && !g.throughput_unit) ||
              (t.throughput_unit && g.throughput_unit &&
               LowerCopy(*t.throughput_unit) == LowerCopy(*g.throughput_unit));
  o.loss_ok = Close(g.loss, t.loss, 0.01);
  o.success = o.step_ok && o.time_ok && o.loss_ok;
  if (t.step_time_s && *t.step_time_s > 0)
    o.time_rel_error = g.step_time_s ? std::fabs(*g.step_time_s - *t.step_time_s) / *t.step_time_s : 1.0;
  if (t.step_time_s && *t.step_time_s > 0 && g.step_time_s)
    o.time_factor =
        *g.step_time_s > 0 ? std::max(*g.step_time_s / *t.step_time_s, *t.step_time_s / *g.step_time_s) : HUGE_VAL;
  return o;
}

TrackerEvalSummary Summarize(const std::vector<CaseOutcome>& outcomes) {
  TrackerEvalSummary s;
  std::vector<double> lat;
  double sq = 0;
  for (const auto& o : outcomes) {
    ++s.cases;
    s.successes += o.success;
    s.step_ok += o.step_ok;
    s.total_ok += o.total_ok;
    s.time_ok += o.time_ok;
    s.throughput_ok += o.throughput_ok;
    s.unit_ok += o.unit_ok;
    s.loss_ok += o.loss_ok;
    if (o.time_rel_error) {
      sq += *o.time_rel_error * *o.time_rel_error;
      ++s.time_cases;
      s.time_off_2x += o.time_factor && *o.time_factor > 2;
      s.time_withheld += !o.got.step_time_s;
    } else {
      s.time_unfounded += o.got.step_time_s.has_value();
    }
    lat.push_back(o.latency_ms);
    s.stats.lines += o.stats.lines;
    s.stats.bytes += o.stats.bytes;
    s.stats.kept_lines += o.stats.kept_lines;
    s.stats.kept_bytes += o.stats.kept_bytes;
    s.stats.training_lines += o.stats.training_lines;
  }
  if (s.time_cases > 0) s.rmsre_step_time = std::sqrt(sq / s.time_cases);
  if (!lat.empty()) {
    std::sort(lat.begin(), lat.end());
    double sum = 0;
    for (double x : lat) sum += x;
    s.latency_ms_mean = sum / lat.size();
    s.latency_ms_p50 = lat[lat.size() / 2];
    s.latency_ms_max = lat.back();
  }
  return s;
}

}  // namespace schedmate
