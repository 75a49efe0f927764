#include "tracker/eval_report.h"

#include <cmath>
#include <cstdio>
#include <functional>

#include <nlohmann/json.hpp>

#include "core/facts_json.h"
#include "core/json.h"
#include "core/str_format.h"

namespace schedmate {
namespace {

std::string Show(const std::optional<double>& v) {
  if (!v) return "null";
  if (std::isnan(*v)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}
std::string Show(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "null"; }

void PrintFailure(const CaseOutcome& o, const ProgressTruth& t, std::string& out) {
  out += StrFormat("  FAIL %-6s %s%-40.40s", o.id.c_str(), o.split.empty() ? "" : ("[" + o.split + "] ").c_str(),
                   o.framework.c_str());
  if (!o.step_ok) out += StrFormat(" step %s (truth %s)", Show(o.got.step).c_str(), Show(t.step).c_str());
  if (!o.time_ok)
    out += StrFormat(" step_time %s (truth %s)", Show(o.got.step_time_s).c_str(), Show(t.step_time_s).c_str());
  if (!o.loss_ok) out += StrFormat(" loss %s (truth %s)", Show(o.got.loss).c_str(), Show(t.loss).c_str());
  if (!o.total_ok)
    out += StrFormat(" total %s (truth %s)", Show(o.got.total_steps).c_str(), Show(t.total_steps).c_str());
  out += StrFormat("\n");
  if (!o.source.empty()) out += StrFormat("       %s\n", o.source.c_str());
}

// The outcomes of one part of the dataset: a split ("dev"/"val") or the
// synthetic sets' clean/noisy halves.
std::vector<CaseOutcome> Part(const std::vector<CaseOutcome>& all, const std::function<bool(const CaseOutcome&)>& in) {
  std::vector<CaseOutcome> part;
  for (const auto& o : all)
    if (in(o)) part.push_back(o);
  return part;
}

Json SummaryJson(const TrackerEvalSummary& s) {
  auto rate = [&](int k) { return s.cases ? double(k) / s.cases : 0.0; };
  return {{"cases", s.cases},
          {"success_rate", rate(s.successes)},
          {"rmsre_step_time", s.rmsre_step_time},
          {"step_time_off_2x", s.time_off_2x},
          {"step_time_withheld", s.time_withheld},
          {"step_time_unfounded", s.time_unfounded},
          {"step_time_cases", s.time_cases},
          {"field_accuracy",
           {{"step", rate(s.step_ok)},
            {"total_steps", rate(s.total_ok)},
            {"step_time_s", rate(s.time_ok)},
            {"throughput", rate(s.throughput_ok)},
            {"throughput_unit", rate(s.unit_ok)},
            {"loss", rate(s.loss_ok)}}}};
}

void PrintSplitTable(const std::vector<CaseOutcome>& outcomes, std::string& out) {
  bool any = false;
  for (const char* split : {"dev", "val"}) {
    auto part = Part(outcomes, [&](const CaseOutcome& o) { return o.split == split; });
    if (part.empty()) continue;
    if (!any)
      out += StrFormat("\nby split            cases  success  RMSRE   >2x   step  total  time  thru  unit  loss\n");
    any = true;
    TrackerEvalSummary p = Summarize(part);
    auto pct = [&](int k) { return 100.0 * k / p.cases; };
    double off = p.time_cases ? 100.0 * p.time_off_2x / p.time_cases : 0;
    out += StrFormat("  %-16s %6d  %6.1f%%  %5.3f  %4.1f%%  %5.1f  %5.1f  %4.1f  %4.1f  %4.1f  %4.1f\n", split, p.cases,
                     pct(p.successes), p.rmsre_step_time, off, pct(p.step_ok), pct(p.total_ok), pct(p.time_ok),
                     pct(p.throughput_ok), pct(p.unit_ok), pct(p.loss_ok));
  }
}

}  // namespace

std::string FormatTrackerEval(const std::vector<TrackerCase>& cases, const std::vector<CaseOutcome>& outcomes,
                              const TrackerEvalReportOptions& a, const TrackerEvalCounts& n) {
  std::string out;
  TrackerEvalSummary s = Summarize(outcomes);
  if (a.json) {
    Json cases_json = Json::array();
    for (const auto& o : outcomes)
      cases_json.push_back({{"id", o.id},
                            {"split", o.split},
                            {"source", o.source},
                            {"success", o.success},
                            {"latency_ms", o.latency_ms},
                            {"report", ToJson(o.got)}});
    Json subsets = Json::object();
    for (const char* split : {"dev", "val"}) {
      auto part = Part(outcomes, [&](const CaseOutcome& o) { return o.split == split; });
      if (!part.empty()) subsets[split] = SummaryJson(Summarize(part));
    }
    for (bool noisy : {false, true}) {
      std::vector<CaseOutcome> part;
      for (const auto& o : outcomes)
        if (o.noisy == noisy) part.push_back(o);
      if (part.empty()) continue;
      TrackerEvalSummary p = Summarize(part);
      subsets[noisy ? "noisy" : "clean"] = {
          {"cases", p.cases}, {"success_rate", double(p.successes) / p.cases}, {"rmsre_step_time", p.rmsre_step_time}};
    }
    Json j = {{"dataset", a.dataset},
              {"backend", a.backend},
              {"llm_answers", n.llm_answers},
              {"llm_fallbacks", n.fallbacks},
              {"cascade_llm_calls", n.unsure},
              {"cases", s.cases},
              {"subsets", subsets},
              {"success_rate", double(s.successes) / s.cases},
              {"rmsre_step_time", s.rmsre_step_time},
              {"field_accuracy",
               {{"step", double(s.step_ok) / s.cases},
                {"total_steps", double(s.total_ok) / s.cases},
                {"step_time_s", double(s.time_ok) / s.cases},
                {"throughput", double(s.throughput_ok) / s.cases},
                {"throughput_unit", double(s.unit_ok) / s.cases},
                {"loss", double(s.loss_ok) / s.cases}}},
              {"latency_ms", {{"mean", s.latency_ms_mean}, {"p50", s.latency_ms_p50}, {"max", s.latency_ms_max}}},
              {"stage1",
               {{"lines", s.stats.lines},
                {"bytes", s.stats.bytes},
                {"kept_lines", s.stats.kept_lines},
                {"kept_bytes", s.stats.kept_bytes}}},
              {"per_case", cases_json}};
    out += StrFormat("%s\n", DumpJson(j, 2).c_str());
    return out;
  }
  out += StrFormat("Metric Tracker on %s (%d cases, %s backend%s)\n\n", a.dataset.c_str(), s.cases, a.backend.c_str(),
                   a.no_stage1 ? ", stage 1 off" : "");
  if (n.llm_backend)
    out +=
        StrFormat("llm answers        %d, fallbacks to embedded after an llm error %d\n", n.llm_answers, n.fallbacks);
  auto pct = [&](int k) { return 100.0 * k / s.cases; };
  out += StrFormat("success rate       %6.1f %%  (%d/%d: step exact, step time within 5 %%, loss within 1 %%)\n",
                   pct(s.successes), s.successes, s.cases);
  out += StrFormat("step-time RMSRE    %6.3f    (over %d cases with a true step time; missing = 1.0)\n",
                   s.rmsre_step_time, s.time_cases);
  out += StrFormat(
      "step time >2x off  %6.1f %%  (%d/%d with a true step time; %d withheld; %d reported where the truth has "
      "none)\n",
      s.time_cases ? 100.0 * s.time_off_2x / s.time_cases : 0.0, s.time_off_2x, s.time_cases, s.time_withheld,
      s.time_unfounded);
  out += StrFormat(
      "field accuracy     step %.1f %%, total_steps %.1f %%, step_time_s %.1f %%, throughput %.1f %%, "
      "throughput_unit %.1f %%, loss %.1f %%\n",
      pct(s.step_ok), pct(s.total_ok), pct(s.time_ok), pct(s.throughput_ok), pct(s.unit_ok), pct(s.loss_ok));
  out += StrFormat("latency            mean %.3f ms, p50 %.3f ms, max %.3f ms per log\n", s.latency_ms_mean,
                   s.latency_ms_p50, s.latency_ms_max);
  for (bool noisy : {false, true}) {
    std::vector<CaseOutcome> part;
    for (const auto& o : outcomes)
      if (o.noisy == noisy) part.push_back(o);
    if (part.empty() || part.size() == outcomes.size()) continue;
    TrackerEvalSummary p = Summarize(part);
    out += StrFormat("  %-16s %6.1f %% success (%d/%d), step-time RMSRE %.3f\n", noisy ? "noisy logs" : "clean logs",
                     100.0 * p.successes / p.cases, p.successes, p.cases, p.rmsre_step_time);
  }
  PrintSplitTable(outcomes, out);
  out += StrFormat("cascade            embedded confidence below %.2f on %d/%d logs (the LLM calls a cascade makes)\n",
                   n.cascade_threshold, n.unsure, s.cases);
  out += StrFormat("stage-1 filter     %lld -> %lld lines, %lld -> %lld bytes (of the lines scanned)\n",
                   (long long)s.stats.lines, (long long)s.stats.kept_lines, (long long)s.stats.bytes,
                   (long long)s.stats.kept_bytes);
  bool header = false;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].success && !a.verbose) continue;
    if (!header) out += StrFormat("\ncases%s:\n", a.verbose ? "" : " that failed");
    header = true;
    if (outcomes[i].success) {
      out += StrFormat("  ok   %-6s %-40.40s\n", outcomes[i].id.c_str(), outcomes[i].framework.c_str());
    } else {
      PrintFailure(outcomes[i], cases[i].truth, out);
    }
  }
  return out;
}

}  // namespace schedmate
