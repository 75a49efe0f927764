// `schedmate track LOG`: what step a running job is at, how long a step
// takes, its throughput and loss — or `missing` when the log prints none.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/log_inputs.h"
#include "cli/llm_options.h"
#include "core/facts_json.h"
#include "core/file_io.h"
#include "core/json.h"
#include "tracker/evaluation.h"
#include "tracker/log_follower.h"
#include "tracker/tracker.h"
#include "tracker/track_json.h"

namespace schedmate {
namespace {

struct TrackArgs {
  std::vector<std::string> logs;  // LOG… as given ("-" = standard input)
  std::string log;                // the one being read
  std::string shown;              // its name as the user gave it
  std::string backend = "embedded";
  bool follow = false, json = false, no_stage1 = false, offsets = false;
  int samples = 10;
  double interval_s = 2.0;
  int polls = 0;  // follow: stop after this many polls (0 = until killed)
  int64_t window = 20000;
  int64_t slowdown_at = -1;
  LlmArgs llm;
};

std::string Num(const std::optional<double>& v, const char* fmt = "%.4g") {
  if (!v) return "-";
  if (std::isnan(*v)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, *v);
  return buf;
}

std::string Duration(double s) {
  char buf[64];
  long long t = std::llround(s);
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%lldh%02lldm", t / 3600, (t % 3600) / 60);
  else if (t >= 60) std::snprintf(buf, sizeof buf, "%lldm%02llds", t / 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%.1fs", s);
  return buf;
}

void PrintText(const ProgressReport& r, const ProgressScanStats& st, const std::string& where) {
  if (r.status == ProgressReport::Status::kMissing) {
    std::printf("status      missing — no training progress line in the %lld lines scanned of %s\n",
                (long long)st.lines, where.c_str());
    return;
  }
  std::printf("status      ok\n");
  std::printf("step        %s", r.step ? std::to_string(*r.step).c_str() : "-");
  if (r.total_steps) std::printf(" / %lld", (long long)*r.total_steps);
  if (r.progress_fraction) std::printf("  (%.1f %%)", 100 * *r.progress_fraction);
  std::printf("\nstep time   %s s", Num(r.step_time_s).c_str());
  if (r.steady_step_time_s) std::printf("  (steady %s s)", Num(r.steady_step_time_s).c_str());
  std::printf("\nthroughput  %s %s", Num(r.throughput).c_str(), r.throughput_unit.value_or("").c_str());
  if (r.steady_throughput) std::printf("  (steady %s)", Num(r.steady_throughput).c_str());
  std::printf("\nloss        %s\n", Num(r.loss).c_str());
  if (r.eta_s) std::printf("eta         %s\n", Duration(*r.eta_s).c_str());
  std::printf("lines used  ");
  for (size_t i = 0; i < r.lines_used.size() && i < 12; ++i)
    std::printf("%s%lld", i ? "," : "", (long long)r.lines_used[i]);
  std::printf("%s\n", r.lines_used.size() > 12 ? ",…" : "");
}

void Emit(const TrackArgs& a, const ProgressReport& r, const ProgressScanStats& st,
          const std::string& where, Json extra = Json::object()) {
  if (a.json) {
    Json j = ToJson(r);
    for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
    std::printf("%s\n", DumpJson(j).c_str());
  } else {
    PrintText(r, st, where);
    // Who answered, and why the LLM did not: "embedded (llm timeout)".
    if (a.backend != "embedded") std::printf("backend     %s\n", r.backend.c_str());
  }
  std::fflush(stdout);
}

ProgressScanOptions ScanOptions(const TrackArgs& a) {
  ProgressScanOptions o;
  o.samples = a.samples;
  o.stage1 = !a.no_stage1;
  return o;
}

// Follow: keep a window of the newest lines, rescan when lines arrive,
// print when the report changes.
void Follow(const TrackArgs& a, const BackendChoice& choice) {
  LogFollower follower(a.log);
  std::deque<std::string> window;
  int64_t first_line = 0;
  std::optional<int64_t> last_step;
  bool printed = false;
  for (int poll = 0; a.polls == 0 || poll < a.polls; ++poll) {
    std::vector<std::string> fresh;
    Status s = follower.Poll(&fresh);
    if (!s.ok()) CommandFailed(s);
    for (auto& l : fresh) window.push_back(std::move(l));
    while (static_cast<int64_t>(window.size()) > a.window) {
      window.pop_front();
      ++first_line;
    }
    std::string partial = follower.PartialLine();
    if (!fresh.empty() || !partial.empty() || !printed) {
      ProgressScan scan(ScanOptions(a));
      bool more = partial.empty() || scan.Add(partial, first_line + static_cast<int64_t>(window.size()));
      for (size_t i = window.size(); more && i-- > 0;)
        more = scan.Add(window[i], first_line + static_cast<int64_t>(i));
      ProgressReport r = ChooseProgress(scan, choice);
      if (!printed || r.step != last_step) {
        Emit(a, r, scan.stats(), a.log, {{"lines_read", follower.lines_read()}});
        if (!a.json) std::printf("\n");
        printed = true;
        last_step = r.step;
      }
    }
    if (a.polls == 0 || poll + 1 < a.polls)
      std::this_thread::sleep_for(std::chrono::duration<double>(a.interval_s));
  }
}

void Slowdown(const TrackArgs& a) {
  auto text = ReadFileCapped(a.log);
  if (!text.ok()) CommandFailed(text.status());
  std::vector<std::string> lines = SplitLogText(*text);
  SlowdownResult r = SlowdownCheck(lines, static_cast<size_t>(a.slowdown_at), 3, ScanOptions(a));
  if (a.json) {
    Json j = {{"ratio", r.ratio ? Json(*r.ratio) : Json(nullptr)}, {"basis", r.basis},
              {"before", r.before ? Json(*r.before) : Json(nullptr)},
              {"after", r.after ? Json(*r.after) : Json(nullptr)}, {"split_line", a.slowdown_at}};
    std::printf("%s\n", DumpJson(j).c_str());
  } else if (r.ratio) {
    std::printf("TP_after / TP_before = %.3f  (%s: %.4g before, %.4g after line %lld)\n", *r.ratio,
                r.basis.c_str(), *r.before, *r.after, (long long)a.slowdown_at);
  } else {
    std::printf("TP_after / TP_before = unknown (%s)\n", r.basis.c_str());
  }
}

void TrackOne(const TrackArgs& a);

// Each LOG in turn: a header per log in text, one JSON object per line (with
// "log") in JSON; --follow and --slowdown-at read one log.
void Track(const TrackArgs& given) {
  if ((given.follow || given.slowdown_at >= 0) && given.logs.size() != 1)
    CommandFailed(InvalidArgument("--follow and --slowdown-at read one LOG"));
  if (given.follow && given.logs[0] == "-") CommandFailed(InvalidArgument("--follow needs a file, not standard input"));
  auto inputs = LogInputs::Open(given.logs);
  if (!inputs.ok()) CommandFailed(inputs.status());
  TrackArgs a = given;
  for (const LogInput& in : inputs->items()) {
    a.log = in.path;
    a.shown = in.name;
    if (!a.json && inputs->items().size() > 1) std::printf("== %s ==\n", in.name.c_str());
    TrackOne(a);
  }
}

void TrackOne(const TrackArgs& a) {
  if (a.slowdown_at >= 0) return Slowdown(a);
  std::unique_ptr<ChatClient> client;
  BackendChoice choice;
  choice.backend = *ParseTrackerBackend(a.backend);
  choice.cascade_threshold = a.llm.cascade_threshold;
  if (choice.backend != TrackerBackend::kEmbedded) {
    client = std::make_unique<ChatClient>(MakeEndpoint(a.llm));
    choice.client = client.get();
  }
  if (a.follow) return Follow(a, choice);
  TrackOptions o;
  o.number_lines = !a.offsets;
  o.backend = choice;
  o.scan = ScanOptions(a);
  auto t0 = std::chrono::steady_clock::now();
  auto r = TrackFile(a.log, o);
  if (!r.ok()) CommandFailed(r.status());
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  Json extra = TrackJson(*r, ms);
  extra["log"] = a.shown;
  Emit(a, r->report, r->stats, a.shown, std::move(extra));
  if (!a.json)
    std::printf("scanned     %lld lines from the end (%lld of %lld bytes read, %lld kept by stage 1) in %.1f ms\n",
                (long long)r->stats.lines, (long long)r->bytes_read, (long long)r->file_bytes,
                (long long)r->stats.kept_lines, ms);
}

}  // namespace

void AddTrackCommand(CLI::App& app) {
  auto a = std::make_shared<TrackArgs>();
  CLI::App* cmd = app.add_subcommand(
      "track",
      "Report a training job's progress from its log: step, total steps, step time, throughput,\n"
      "loss, steady-state values and ETA — or status 'missing' when the log prints no progress.\n"
      "Reads the log backwards from its end, so a multi-GB log costs only its tail.");
  cmd->add_option("LOG", a->logs, "The job's log file(s); - reads standard input")->required();
  cmd->add_flag("--follow,-f", a->follow, "Keep following the log; print when the step changes");
  cmd->add_flag("--json", a->json,
                "One JSON object: status, step, total_steps, step_time_s, throughput, "
                "throughput_unit, loss, steady_*, progress_fraction, eta_s, lines_used");
  cmd->add_option("--backend", a->backend,
                  "embedded (default, no model) | llm (OpenAI-compatible endpoint, see --llm-url) | "
                  "cascade (the LLM only when the embedded parser is unsure); an LLM failure falls back "
                  "to embedded")
      ->capture_default_str()->check(CLI::IsMember({"embedded", "llm", "cascade"}));
  AddLlmOptions(cmd, &a->llm);
  cmd->add_option("--samples", a->samples, "Consistent samples N for steady-state values")
      ->capture_default_str()->check(CLI::Range(1, 1000));
  cmd->add_flag("--no-stage1", a->no_stage1, "Parse every line (skip the classifier filter)");
  cmd->add_flag("--offsets", a->offsets,
                "Report lines_used as byte offsets instead of line numbers (numbering a huge log "
                "reads its head once)");
  cmd->add_option("--interval", a->interval_s, "Follow: seconds between polls")
      ->capture_default_str()->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--polls", a->polls, "Follow: stop after this many polls (0 = until killed)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  cmd->add_option("--slowdown-at", a->slowdown_at,
                  "Slowdown check: TP_after / TP_before around this 0-based line (e.g. where a "
                  "partner job was packed)")
      ->check(CLI::NonNegativeNumber);
  cmd->callback([a] { Track(*a); });
}

}  // namespace schedmate
