#include "tracker/field_tagger.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "tracker/progress_line.h"

namespace schedmate {

std::string_view DefaultFieldTaggerWeights();  // data/field_tagger.tsv, embedded

namespace {

constexpr std::array<std::string_view, kNumFieldRoles> kRoleNames = {
    "other", "step", "total", "epoch", "step_time", "interval_time", "cumulative_time", "step_rate",
    "throughput", "loss"};

std::vector<std::string> Words(std::string_view key) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : key) {
    if (c == ' ' || c == '/') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string LastKeyWord(std::string_view key) {
  auto w = Words(key);
  return w.empty() ? "" : w.back();
}

std::string LowerCopy(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The time part of a unit: "s/it" → "s", "ms" → "ms", "it/s" → "" (not a time).
std::string TimePart(std::string_view unit) {
  std::string u = LowerCopy(unit);
  size_t slash = u.find('/');
  return slash == std::string::npos ? u : u.substr(0, slash);
}

bool PerEpochUnit(std::string_view unit) {
  std::string u = LowerCopy(unit);
  size_t slash = u.find('/');
  return slash != std::string::npos && (u.substr(slash + 1) == "epoch" || u.substr(slash + 1) == "epochs" ||
                                        u.substr(slash + 1) == "ep");
}

bool IsStepWord(std::string_view w) {
  return w == "it" || w == "its" || w == "iter" || w == "iters" || w == "step" || w == "steps" || w == "batch" ||
         w == "batches" || w == "iteration" || w == "iterations" || w == "update" || w == "updates";
}

// The field against the stamps of its record and the one before: a time as
// long as the interval between them times the logging interval; one that
// grew as much is a clock. Stamps too close for their resolution say nothing.
void StampFeatures(const ScannedLine& line, const ScannedLine& previous, const ScannedField& f,
                   const ScannedField& p, std::vector<std::string>* out) {
  if (!line.timestamp_s || !previous.timestamp_s) return;
  double dt = *line.timestamp_s - *previous.timestamp_s;
  double resolution = std::max(line.timestamp_resolution_s, previous.timestamp_resolution_s);
  if (dt < 20 * resolution) return;
  std::string_view unit = f.unit;
  double scale = SecondsPerUnit(unit.substr(0, unit.find('/')));
  if (scale <= 0 || !std::isfinite(f.value)) return;
  double slack = 0.1 * dt + 2 * resolution;
  if (std::fabs(f.value * scale - dt) <= slack) out->push_back("dt:as-long-as-interval");
  else if (f.value * scale < 0.5 * dt) out->push_back("dt:shorter-than-interval");
  double grew = (f.value - p.value) * scale;
  if (std::isfinite(grew) && grew > 0 && std::fabs(grew - dt) <= slack) out->push_back("dt:grew-as-interval");
}

}  // namespace

std::string_view FieldRoleName(FieldRole r) { return kRoleNames[static_cast<int>(r)]; }

std::optional<FieldRole> ParseFieldRole(std::string_view name) {
  for (int k = 0; k < kNumFieldRoles; ++k)
    if (kRoleNames[k] == name) return static_cast<FieldRole>(k);
  return std::nullopt;
}

double SecondsPerUnit(std::string_view unit) {
  std::string u = LowerCopy(unit);
  if (u.empty() || u == "s" || u == "sec" || u == "secs" || u == "second" || u == "seconds") return 1;
  if (u == "ms" || u == "msec" || u == "msecs" || u == "millisecond" || u == "milliseconds") return 1e-3;
  if (u == "us" || u == "µs" || u == "usec") return 1e-6;
  if (u == "min" || u == "mins" || u == "minute" || u == "minutes" || u == "m") return 60;
  if (u == "h" || u == "hr" || u == "hrs" || u == "hour" || u == "hours") return 3600;
  return -1;
}

std::vector<std::string> FieldFeatures(const ScannedLine& line, size_t i, const ScannedLine* previous) {
  const ScannedField& f = line.fields[i];
  std::vector<std::string> out;
  out.reserve(48);
  out.push_back("bias");
  std::vector<std::string> words = Words(f.key);
  if (words.empty()) out.push_back("k0");
  if (f.key.size() <= 40 && !f.key.empty()) out.push_back("k=" + f.key);
  for (const auto& w : words) out.push_back("w=" + w);
  if (!words.empty()) {
    out.push_back("kf=" + words.front());
    out.push_back("kl=" + words.back());
  }
  std::string unit = LowerCopy(f.unit);
  if (unit.empty()) {
    out.push_back("u0");
  } else {
    out.push_back("u=" + unit);
    size_t slash = unit.find('/');
    if (slash != std::string::npos) {
      std::string num = unit.substr(0, slash), den = unit.substr(slash + 1);
      out.push_back("un=" + num);
      out.push_back("ud=" + den);
      if (SecondsPerUnit(num) > 0 && !num.empty()) out.push_back("u:time-per");
      if (SecondsPerUnit(den) > 0 && IsStepWord(num)) out.push_back("u:steps-per-time");
      else if (SecondsPerUnit(den) > 0 && !den.empty()) out.push_back("u:things-per-time");
    } else if (SecondsPerUnit(unit) > 0) {
      out.push_back("u:time");
    } else if (unit == "%") {
      out.push_back("u:percent");
    }
  }
  if (std::isnan(f.value)) {
    out.push_back("nan");
  } else {
    out.push_back(f.integer ? "int" : "frac");
    if (f.value < 0) out.push_back("neg");
    if (f.value == 0) {
      out.push_back("zero");
    } else if (std::isfinite(f.value)) {
      int mag = static_cast<int>(std::floor(std::log10(std::fabs(f.value))));
      mag = std::clamp(mag, -8, 12);
      out.push_back("mag=" + std::to_string(mag));
      if (!words.empty()) out.push_back("kl=" + words.back() + "&mag=" + std::to_string(mag));
    }
  }
  if (f.total) out.push_back("counter");
  if (f.total && f.value <= *f.total) out.push_back("counter-within");
  if (f.parenthesised) out.push_back("paren");
  if (i + 1 < line.fields.size() && line.fields[i + 1].parenthesised) out.push_back("before-paren");
  if (f.follows_bar) out.push_back("bar-counter");
  if (line.has_bar) out.push_back("line-bar");
  out.push_back("pos=" + std::to_string(std::min<size_t>(i, 8)));
  if (i + 1 == line.fields.size()) out.push_back("pos-last");
  out.push_back(i == 0 ? "pk=^" : "pk=" + LastKeyWord(line.fields[i - 1].key));
  out.push_back(i + 1 == line.fields.size() ? "nk=$" : "nk=" + LastKeyWord(line.fields[i + 1].key));
  for (const auto& h : VocabularyHints(f)) {
    out.push_back("h=" + h);
    out.push_back("h=" + h + (f.integer ? "&int" : "&frac"));
  }
  for (const auto& w : line.words)
    if (w == "val" || w == "valid" || w == "validation" || w == "eval" || w == "evaluation" || w == "test")
      out.push_back("line-eval");
  if (previous && previous->fields.size() == line.fields.size()) {
    const ScannedField& p = previous->fields[i];
    double d = f.value - p.value;
    if (!std::isfinite(d)) {
      out.push_back("d:nan");
    } else if (d > 0) {
      out.push_back("d:up");
      if (f.integer && p.integer) out.push_back("d:up-int");
    } else if (d < 0) {
      out.push_back("d:down");
    } else {
      out.push_back("d:same");
    }
    double rel = std::fabs(d) / std::max(std::fabs(p.value), 1e-12);
    if (std::isfinite(rel))
      out.push_back(rel < 0.01 ? "rc=0" : rel < 0.1 ? "rc=1" : rel < 0.5 ? "rc=2" : "rc=3");
    // Grows with a counter of the record: a clock since the start, or the counter itself.
    for (size_t j = 0; j < line.fields.size(); ++j) {
      if (j == i || previous->fields[j].value >= line.fields[j].value || !line.fields[j].integer) continue;
      double dj = line.fields[j].value - previous->fields[j].value;
      if (d > 0 && std::fabs(d - dj) < 1e-9) {
        out.push_back("d:same-as-counter");
        break;
      }
    }
    StampFeatures(line, *previous, f, p, &out);
  } else {
    out.push_back("d:none");
  }
  return out;
}

const FieldTagger& FieldTagger::Default() {
  static const FieldTagger* tagger = [] {
    auto t = Parse(DefaultFieldTaggerWeights());
    return new FieldTagger(t.ok() ? std::move(*t) : FieldTagger{});
  }();
  return *tagger;
}

static std::vector<std::string> RoleNames() { return {kRoleNames.begin(), kRoleNames.end()}; }

Result<FieldTagger> FieldTagger::Parse(std::string_view tsv) {
  ASSIGN_OR_RETURN(LinearModel m, LinearModel::Parse(tsv, RoleNames(), "field tagger weights"));
  FieldTagger t;
  t.model_ = std::move(m);
  return t;
}

FieldTagger::Scores FieldTagger::Probabilities(const std::vector<std::string>& features) const {
  Scores out{};
  if (model_.empty()) {
    out.fill(1.0 / kNumFieldRoles);
    return out;
  }
  std::vector<double> p = model_.Probabilities(features);
  for (int k = 0; k < kNumFieldRoles; ++k) out[k] = p[k];
  return out;
}

FieldTagger FieldTagger::Train(const std::vector<Example>& examples, const TrainOptions& o) {
  std::vector<LinearModel::Example> ex;
  ex.reserve(examples.size());
  for (const auto& e : examples) ex.push_back({e.features, static_cast<int>(e.role), e.weight});
  FieldTagger t;
  t.model_ = LinearModel::Train(RoleNames(), ex, o);
  return t;
}

TaggedRecord TagRecord(const FieldTagger& tagger, const ScannedLine& line, const ScannedLine* previous, double min_p) {
  TaggedRecord r;
  size_t n = line.fields.size();
  if (n == 0 || tagger.empty()) return r;
  bool paired = previous && previous->fields.size() == n;
  std::vector<FieldTagger::Scores> p(n);
  for (size_t i = 0; i < n; ++i) p[i] = tagger.Probabilities(FieldFeatures(line, i, paired ? previous : nullptr));
  std::vector<bool> used(n, false);
  auto best = [&](auto score, double floor = -1) -> std::pair<int, double> {
    int at = -1;
    double top = std::max(min_p, floor);
    for (size_t i = 0; i < n; ++i) {
      if (used[i]) continue;
      double s = score(i);
      if (s >= top) {
        top = s;
        at = static_cast<int>(i);
      }
    }
    if (at >= 0) used[at] = true;
    return {at, top};
  };
  auto role = [&](FieldRole k) { return [&, k](size_t i) { return p[i][static_cast<int>(k)]; }; };
  auto count = [](const ScannedField& f) -> std::optional<int64_t> {
    if (!f.integer || f.value < 0 || f.value >= 1e15) return std::nullopt;
    return static_cast<int64_t>(f.value);
  };
  if (auto [i, s] = best(role(FieldRole::kStep)); i >= 0) {
    r.step = count(line.fields[i]);
    r.step_p = s;
    r.step_field = i;
    if (line.fields[i].total && *line.fields[i].total > 0) r.total_steps = static_cast<int64_t>(*line.fields[i].total);
  }
  // A value printed with a time or a rate ("cost 14.33 s", "12 it/s") is no loss.
  auto loss_score = [&](size_t i) {
    const std::string& u = line.fields[i].unit;
    bool timed = !u.empty() && (SecondsPerUnit(TimePart(u)) > 0 || u.find('/') != std::string::npos);
    return timed ? 0.0 : p[i][static_cast<int>(FieldRole::kLoss)];
  };
  if (auto [i, s] = best(loss_score); i >= 0) {
    r.loss = line.fields[i].value;
    r.loss_p = s;
  }
  // The time: the field most probable for any time role, read as that role.
  // A time per epoch ("0.69h/epoch") is no step's, whatever the key says;
  // an epoch number without a unit ("Ep 5 (Step 000600)") is no time at all.
  auto epoch_count = [&](size_t i) {
    const ScannedField& f = line.fields[i];
    if (!f.integer || !f.unit.empty()) return false;
    std::vector<std::string> hints = VocabularyHints(f);
    return std::find(hints.begin(), hints.end(), "epoch") != hints.end();
  };
  auto any_time = [&](size_t i) {
    const auto& q = p[i];
    return PerEpochUnit(line.fields[i].unit) || epoch_count(i) ? 0.0 : q[4] + q[5] + q[6] + q[7];
  };
  // The time sums four roles: it needs half the probability whatever `min_p`.
  if (auto [i, s] = best(any_time, 0.5); i >= 0) {
    const ScannedField& f = line.fields[i];
    int k = 4;
    for (int j = 5; j <= 7; ++j)
      if (p[i][j] > p[i][k]) k = j;
    double scale = SecondsPerUnit(TimePart(f.unit));
    std::optional<double> steps_between;
    if (paired && r.step) {
      // The step field's climb since the previous record.
      for (size_t j = 0; j < n; ++j)
        if (line.fields[j].integer && count(line.fields[j]) == r.step && previous->fields[j].value < line.fields[j].value)
          steps_between = line.fields[j].value - previous->fields[j].value;
    }
    switch (static_cast<FieldRole>(k)) {
      case FieldRole::kStepTime:
        if (scale > 0 && f.value > 0) r.step_time_s = f.value * scale;
        break;
      case FieldRole::kStepRate:
        if (f.value > 0) r.step_time_s = 1.0 / f.value;
        break;
      case FieldRole::kIntervalTime:
        if (scale > 0 && f.value > 0 && steps_between) r.step_time_s = f.value * scale / *steps_between;
        break;
      case FieldRole::kCumulativeTime:
        if (scale > 0 && steps_between && previous->fields[i].value < f.value)
          r.step_time_s = (f.value - previous->fields[i].value) * scale / *steps_between;
        break;
      default:
        break;
    }
    if (r.step_time_s) {
      r.time_field = i;
      r.time_p = p[i][k];
      r.time_role = static_cast<FieldRole>(k);
    }
  }
  if (auto [i, s] = best(role(FieldRole::kThroughput)); i >= 0) {
    const ScannedField& f = line.fields[i];
    r.throughput = f.value;
    r.throughput_unit = !f.unit.empty() ? NormalizeThroughputUnit(f.unit) : f.key;
    r.throughput_p = s;
  }
  if (!r.total_steps)
    if (auto [i, s] = best(role(FieldRole::kTotal)); i >= 0) r.total_steps = count(line.fields[i]);
  return r;
}

}  // namespace schedmate
