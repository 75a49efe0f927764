#include "advisor/extraction_values.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <tuple>

#include "advisor/field_keys.h"
#include "advisor/run_values.h"

namespace schedmate::extraction {

// An OmegaConf/Hydra interpolation `${a.b}` resolved against the merged keys.
std::string Resolve(const State& st, std::string v, int depth) {
  if (depth > 4 || v.size() < 4) return v;
  // Interpolations inside a string: "${env.domain}_${env.task}".
  if (size_t open = v.find("${"); open != std::string::npos && (open > 0 || v.find('}') != v.size() - 1)) {
    std::string out;
    size_t pos = 0;
    while (pos < v.size()) {
      size_t a = v.find("${", pos);
      size_t b = a == std::string::npos ? std::string::npos : v.find('}', a);
      if (a == std::string::npos || b == std::string::npos) {
        out += v.substr(pos);
        break;
      }
      out += v.substr(pos, a - pos);
      std::string piece = Resolve(st, v.substr(a, b - a + 1), depth + 1);
      if (piece.rfind("${", 0) == 0) return v;  // unresolved: leave the whole value unresolved
      out += piece;
      pos = b + 1;
    }
    return out;
  }
  if (v.rfind("${", 0) != 0 || v.back() != '}') return v;
  std::string ref = NormalKey(v.substr(2, v.size() - 3));
  if (ref.find(':') != std::string::npos) return v;  // ${oc.env:X}, resolvers
  auto it = st.values.find(ref);
  if (it == st.values.end()) {
    // Relative to any prefix: ${lr} inside model.* → the last key ending in ".lr"
    for (const auto& [k, c] : st.values)
      if (EndsWith(k, "." + ref)) return Resolve(st, c.value, depth + 1);
    return v;
  }
  return Resolve(st, it->second.value, depth + 1);
}

// The winning value of a field: a non-library value first, then the highest
// precedence (command > config > entry > imported code), then the most
// specific key, then the latest read. For names, *rejected (when given) says
// why the highest-precedence value that names nothing was set aside.
const Candidate* Best(State& st, const std::string& field, bool numeric, std::string* rejected) {
  auto it = st.fields.find(field);
  if (it == st.fields.end()) return nullptr;
  const Candidate* best = nullptr;
  // An initial rate (init_lr) yields to a plain or peak rate but is the
  // run's before one part's rate (encoder_lr) of the same rank.
  auto initial_rate = [&](const Candidate& c) {
    if (field != "learning_rate") return false;
    std::vector<std::string> w = KeyWords(LastSegment(c.key));
    return std::find(w.begin(), w.end(), "init") != w.end() || std::find(w.begin(), w.end(), "initial") != w.end();
  };
  auto rank = [&](const Candidate& c) {
    return std::make_tuple(c.precedence > kLibrary, c.precedence, c.specificity, initial_rate(c), c.order);
  };
  bool names = field == "model_name" || field == "dataset";
  std::map<std::string, bool> named;  // key → its value names something
  // A name the command or a config sets to a placeholder hides the code's defaults.
  int blocked_below = -1, rejected_at = -1;
  for (auto& [k, c] : it->second) {
    c.value = Resolve(st, c.value);
    if (!names) continue;
    std::string why;
    named[k] = NameOf(c.value, field == "dataset", &why).has_value();
    if (named[k] || IsUnset(c.value)) continue;
    if (c.precedence >= kConfig && c.specificity >= 1) blocked_below = std::max(blocked_below, c.precedence);
    if (rejected && c.precedence > rejected_at) {
      rejected_at = c.precedence;
      *rejected = why;
    }
  }
  for (auto& [k, c] : it->second) {
    // `bf16: auto` is a setting (on where the GPU supports it), not an unset value.
    bool auto_precision = (field == "bf16" || field == "fp16" || field == "devices") && Lower(c.value) == "auto";
    if ((IsUnset(c.value) && !auto_precision) || c.precedence < blocked_below) continue;
    if (numeric && !ToNumber(c.value)) continue;
    if ((field == "steps" || field == "epochs" || field == "learning_rate" || field == "batch_size") &&
        ToNumber(c.value).value_or(0) <= 0)
      continue;  // 0 and -1 mean "unset" or "derived", never the run's value
    if ((field == "devices" || field == "device") && c.precedence < kEntryDefault) continue;
    if (field == "precision" && !PrecisionOf(c.value)) continue;
    if ((field == "fp16" || field == "bf16" || field == "amp" || field == "fp8" || field == "fp32" ||
         field == "precision") &&
        c.precedence < kEntryDefault && c.precedence != kLibrary)
      continue;  // a precision setting in library code is not the run's
    if (names) {
      if (!named[k]) continue;
      if (field == "model_name" && c.precedence >= 0) {
        c.specificity = std::min(c.specificity, 3 + NameStrength(c.value));
        // A hub id (org/name) is the surest model name a run can give.
        size_t slash = c.value.find('/');
        if (slash != std::string::npos && slash > 0 && c.value.find('/', slash + 1) == std::string::npos &&
            c.value[0] != '.' && c.value.find(' ') == std::string::npos && !IsConfigLike(c.value) && c.specificity >= 1)
          c.specificity = std::max(c.specificity, 3);
      }
    }
    if (!best || rank(c) > rank(*best)) best = &c;
  }
  // A family refined by another key of the same source (arch: vit,
  // model_name: vit_base_patch16_224): the refinement names the model. (Not
  // a config file's stem, which adds schedule and dataset words.)
  if (best && field == "model_name") {
    auto fold = [](const std::string& v) {
      std::string f;
      for (char ch : v)
        if (std::isalnum(static_cast<unsigned char>(ch))) f += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return f;
    };
    const std::string family = fold(best->value);
    const Candidate* refined = nullptr;
    for (const auto& [k, c] : it->second)
      if (&c != best && named[k] && c.file == best->file && c.precedence == best->precedence && family.size() >= 3 &&
          c.key.find('<') == std::string::npos && best->key.find('<') == std::string::npos && NameStrength(c.value) == 0 &&
          fold(c.value).size() > family.size() && fold(c.value).rfind(family, 0) == 0 &&
          (!refined || c.value.size() > refined->value.size()))
        refined = &c;
    if (refined) best = refined;
  }
  return best;
}

// When the rate chosen is one part's (model_lr, lr_encoder), another part's
// rate that differs (sac_lr, lr_decoder): "key value", else "".
std::string OtherPartsRate(const State& st, const Candidate& chosen) {
  if (chosen.specificity != 1) return "";
  std::vector<std::string> cw = KeyWords(LastSegment(chosen.key));
  if (cw.size() != 2) return "";
  // An initial rate is the whole run's (where its schedule starts), no part's.
  if (std::find(cw.begin(), cw.end(), "init") != cw.end() || std::find(cw.begin(), cw.end(), "initial") != cw.end())
    return "";
  static const std::set<std::string> kNotAPart = {
      "min", "max", "peak", "init", "initial", "final", "end", "mult", "multiplier", "factor", "scale", "ratio",
      "decay", "warmup", "gamma", "step", "steps", "bias", "biases", "base", "train", "policy", "scheduler", "sched",
      "schedule", "type", "drop", "noise", "patience", "milestones", "start", "stop", "target", "pow", "power", "exp",
      "exponent", "mode", "steps", "epochs", "interval", "freq", "cycle",
      // An actor-critic's value side and temperature train beside the policy, whose rate is the run's.
      "critic", "vf", "value", "alpha", "q", "qf", "entropy", "temperature"};
  auto chosen_value = ToNumber(chosen.value);
  for (const auto& [k, c] : st.values) {
    if (k == chosen.key || c.precedence < chosen.precedence) continue;
    std::vector<std::string> w = KeyWords(LastSegment(k));
    if (w.size() != 2 || !(w[0] == "lr" || w[1] == "lr" || w[0] == "lrate" || w[1] == "lrate")) continue;
    if (kNotAPart.count(w[0] == "lr" || w[0] == "lrate" ? w[1] : w[0])) continue;
    auto v = ToNumber(c.value);
    if (v && *v > 0 && chosen_value && std::fabs(*v - *chosen_value) > 1e-12 * std::fabs(*chosen_value))
      return k + " " + c.value;
  }
  return "";
}

// A bare family name and its size beside it: ResNet + depth 50 → ResNet50,
// vit + variant S/16 → vit-S/16.
std::string WithVariant(const State& st, const Candidate& c, const std::string& name) {
  bool bare = name.size() <= 12 && std::all_of(name.begin(), name.end(),
                                               [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); });
  if (!bare) return name;
  std::string parent = c.key.rfind('.') == std::string::npos ? "" : c.key.substr(0, c.key.rfind('.') + 1);
  if (parent.empty()) {
    if (c.key != "model_name" && c.key != "model" && c.key != "arch") return name;
    parent = "model.";  // config.model_name = "vit" beside config.model.variant = "S/16"
  }
  for (const char* k : {"depth", "variant", "size", "arch_size", "model_size", "num_layers"}) {
    auto it = st.values.find(parent + k);
    if (it == st.values.end() || IsUnset(it->second.value) || it->second.value.size() > 16) continue;
    const std::string& v = it->second.value;
    return name + (std::isdigit(static_cast<unsigned char>(v[0])) ? "" : "-") + v;
  }
  return name;
}

// The value of the setting that switches mixed precision: its own key, else
// the one key whose last part matches (cfg.TRAIN.MIXED_PRECISION ← TRAIN.MIXED_PRECISION).
const Candidate* SwitchValue(const State& st, const std::string& key) {
  if (auto it = st.values.find(key); it != st.values.end()) return &it->second;
  const Candidate* found = nullptr;
  std::string last = LastSegment(key);
  for (const auto& [k, c] : st.values)
    if (k == last || EndsWith(k, "." + last)) {
      if (found) return nullptr;  // ambiguous
      found = &c;
    }
  return found;
}

// The entry's flag-switched settings (`if opt.O: opt.fp16 = True`) whose flag
// is on once the command and configs are read; above a file's defaults, under
// the command's own values.
namespace {

std::string TrimParens(std::string t) {
  auto trim = [](std::string x) {
    while (!x.empty() && std::isspace(static_cast<unsigned char>(x.front()))) x.erase(0, 1);
    while (!x.empty() && std::isspace(static_cast<unsigned char>(x.back()))) x.pop_back();
    return x;
  };
  t = trim(t);
  while (t.size() >= 2 && t.front() == '(' && t.back() == ')') {
    int depth = 0;
    bool whole = true;
    for (size_t i = 0; i < t.size(); ++i) {
      depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
      if (depth == 0 && i + 1 < t.size()) whole = false;
    }
    if (!whole) break;
    t = trim(t.substr(1, t.size() - 2));
  }
  return t;
}

// Where `word` occurs at parenthesis depth 0 of t, or npos.
size_t TopLevel(const std::string& t, const std::string& word) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i + word.size() <= t.size(); ++i) {
    char c = t[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (depth == 0 && t.compare(i, word.size(), word) == 0) return i;
  }
  return std::string::npos;
}

// A setting's value by its dotted name (opts.glr → glr); nullopt when the run sets none.
std::optional<std::string> SettingValue(const State& st, const std::string& name) {
  const Candidate* c = SwitchValue(st, NormalKey(name));
  if (!c || IsUnset(c->value) || Lower(c->value) == "none") return std::nullopt;
  return c->value;
}

bool IsDottedName(const std::string& t) {
  return !t.empty() && !std::isdigit(static_cast<unsigned char>(t[0])) &&
         std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; });
}

// `A if C else B` with C one of `X is None`, `X is not None`, `X == 'lit'`,
// `X != 'lit'` over the run's settings; leaves are numbers, quoted strings
// or settings. nullopt when any part is beyond that.
std::optional<std::string> EvaluateConditional(const State& st, std::string t, int depth) {
  if (depth > 4) return std::nullopt;
  t = TrimParens(t);
  size_t if_at = TopLevel(t, " if ");
  if (if_at == std::string::npos) {
    if (ToNumber(t)) return t;
    if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front()) return t.substr(1, t.size() - 2);
    if (IsDottedName(t)) return SettingValue(st, t);
    return std::nullopt;
  }
  std::string rest = t.substr(if_at + 4);
  size_t else_at = TopLevel(rest, " else ");
  if (else_at == std::string::npos) return std::nullopt;
  std::string cond = TrimParens(rest.substr(0, else_at));
  bool holds;
  if (size_t p = cond.find(" is not None"); p != std::string::npos && p + 12 == cond.size() && IsDottedName(cond.substr(0, p))) {
    holds = SettingValue(st, cond.substr(0, p)).has_value();
  } else if (size_t q = cond.find(" is None"); q != std::string::npos && q + 8 == cond.size() && IsDottedName(cond.substr(0, q))) {
    holds = !SettingValue(st, cond.substr(0, q)).has_value();
  } else {
    bool negated = cond.find(" != ") != std::string::npos;
    size_t op = cond.find(negated ? " != " : " == ");
    if (op == std::string::npos || !IsDottedName(cond.substr(0, op))) return std::nullopt;
    std::string lit = cond.substr(op + 4);
    if (lit.size() < 2 || (lit.front() != '\'' && lit.front() != '"') || lit.back() != lit.front()) return std::nullopt;
    auto v = SettingValue(st, cond.substr(0, op));
    if (!v) return std::nullopt;
    holds = (*v == lit.substr(1, lit.size() - 2)) != negated;
  }
  return EvaluateConditional(st, holds ? t.substr(0, if_at) : rest.substr(else_at + 6), depth + 1);
}

}  // namespace

void ApplyFlagSettings(State& st) {
  for (const auto& f : st.flag_settings) {
    const Candidate* flag = SwitchValue(st, NormalKey(f.flag));
    if (flag && IsTrue(flag->value)) st.Set(f.key, f.value, f.file, f.line, kConfig);
  }
  for (const auto& f : st.conditional_settings)
    if (auto v = EvaluateConditional(st, f.flag, 0); v && ToNumber(*v)) st.Set(f.key, *v, f.file, f.line, kEntryDefault);
}

}  // namespace schedmate::extraction
