#include "tracker/llm_progress.h"

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "llm/grounding.h"

namespace schedmate {
namespace {

constexpr const char* kSystemPrompt =
    "You read the tail of a deep-learning training log and report the job's progress as JSON.\n"
    "Report the LAST training progress line (not evaluation/validation/test lines, not download or "
    "data-loading bars). Fields: status 'ok' if any training progress is printed, else 'missing' "
    "with every other field null. step: the step/iteration counter exactly as printed on that line "
    "(for a bar 'N/M' it is N, total_steps M). step_time_s: seconds per step as printed (convert ms "
    "to s, it/s to 1/x); null if not printed. throughput and throughput_unit: a printed rate such as "
    "samples/s or tokens/s, else null. loss: the training loss printed (the total loss, not a "
    "component or validation loss); the string \"nan\" if it prints nan; null if absent. line: the "
    "line number (the L-number) of the line you used. Never guess a value that is not printed.";

std::string BuildPrompt(const std::vector<std::pair<int64_t, std::string>>& context) {
  std::string user = "Log lines, oldest first:\n";
  for (auto it = context.rbegin(); it != context.rend(); ++it)
    user += "L" + std::to_string(it->first) + ": " + it->second.substr(0, 400) + "\n";
  return user;
}

std::optional<double> Number(const Json& j, const char* field) {
  auto it = j.find(field);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (it->is_string() && it->get<std::string>() == "nan") return std::nan("");
  if (it->is_number()) return it->get<double>();
  return std::nullopt;
}

std::optional<std::string> Grounding(const Json& a, const std::vector<std::pair<int64_t, std::string>>& context) {
  std::string text;
  std::set<int64_t> indexes;
  for (const auto& [i, l] : context) {
    text += l + "\n";
    indexes.insert(i);
  }
  auto numbers = NumbersInText(text);
  auto check = [&](const char* field, bool derived) -> std::optional<std::string> {
    std::optional<double> v = Number(a, field);
    if (!v) return std::nullopt;
    if (std::isnan(*v)) {
      if (text.find("nan") == std::string::npos && text.find("NaN") == std::string::npos)
        return std::string(field) + " is nan but the log prints no nan";
      return std::nullopt;
    }
    if (!NumberInText(*v, numbers, 0.01, derived)) return std::string(field) + " " + DumpJson(a[field]) + " is not in the log";
    return std::nullopt;
  };
  for (auto [f, d] : {std::pair{"step", false}, {"total_steps", false}, {"loss", false}, {"throughput", false},
                      {"step_time_s", true}})
    if (auto why = check(f, d)) return why;
  if (auto l = a.find("line"); l != a.end() && l->is_number_integer() && !indexes.count(l->get<int64_t>()))
    return "line " + DumpJson(*l) + " was not shown";
  return std::nullopt;
}

}  // namespace

const Json& ProgressAnswerSchema() {
  static const Json kSchema = Json::parse(R"({
    "type": "object", "additionalProperties": false,
    "required": ["status", "step", "total_steps", "step_time_s", "throughput", "throughput_unit", "loss", "line"],
    "properties": {
      "status": {"type": "string", "enum": ["ok", "missing"]},
      "step": {"type": ["integer", "null"], "minimum": 0},
      "total_steps": {"type": ["integer", "null"], "minimum": 1},
      "step_time_s": {"type": ["number", "null"], "minimum": 0},
      "throughput": {"type": ["number", "null"], "minimum": 0},
      "throughput_unit": {"type": ["string", "null"], "maxLength": 40},
      "loss": {"type": ["number", "string", "null"]},
      "line": {"type": ["integer", "null"]}}})");
  return kSchema;
}

LlmProgressResult LlmExtractProgress(ChatClient& client, const std::vector<std::pair<int64_t, std::string>>& context) {
  ChatRequest req;
  req.system = kSystemPrompt;
  req.user = BuildPrompt(context);
  req.schema = ProgressAnswerSchema();
  req.schema_name = "training_progress";
  req.grounding = [&context](const Json& a) -> std::optional<std::string> {
    if (auto l = a.find("loss"); l != a.end() && l->is_string() && l->get<std::string>() != "nan")
      return "loss must be a number, \"nan\" or null";
    return Grounding(a, context);
  };
  ChatResult r = client.Complete(req);
  LlmProgressResult out;
  out.latency_ms = r.latency_ms;
  if (!r.ok()) {
    out.error = r.error;
    return out;
  }
  const Json& a = *r.answer;
  ProgressReport p;
  p.backend = "llm";
  p.confidence = 0.8;
  if (a["status"] == "ok") {
    p.status = ProgressReport::Status::kOk;
    if (a["step"].is_number_integer()) p.step = a["step"].get<int64_t>();
    if (a["total_steps"].is_number_integer()) p.total_steps = a["total_steps"].get<int64_t>();
    p.step_time_s = Number(a, "step_time_s");
    p.throughput = Number(a, "throughput");
    if (a["throughput_unit"].is_string()) p.throughput_unit = a["throughput_unit"].get<std::string>();
    p.loss = Number(a, "loss");
    if (a["line"].is_number_integer()) p.lines_used = {a["line"].get<int64_t>()};
    if (p.step && p.total_steps && *p.total_steps > 0)
      p.progress_fraction = std::min(1.0, static_cast<double>(*p.step) / *p.total_steps);
  }
  out.report = std::move(p);
  return out;
}

ProgressReport ChooseProgress(const ProgressScan& scan, const BackendChoice& choice) {
  return ChooseProgress(scan, scan.Finish(), choice);
}

ProgressReport ChooseProgress(const ProgressScan& scan, ProgressReport embedded, const BackendChoice& choice) {
  if (choice.backend == TrackerBackend::kEmbedded || !choice.client) return embedded;
  if (choice.backend == TrackerBackend::kCascade && embedded.confidence >= choice.cascade_threshold)
    return embedded;
  LlmProgressResult llm = LlmExtractProgress(*choice.client, scan.context());
  if (!llm.report) {
    embedded.backend = "embedded (llm " + std::string(LlmErrorKindName(llm.error->kind)) + ")";
    return embedded;
  }
  return *llm.report;
}

}  // namespace schedmate
