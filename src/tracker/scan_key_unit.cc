// The key of a scanned field: cut from the text before its value,
// normalised to lower-case words (camelCase split, call wrappers such as
// "tensor(" dropped), with a parenthesised unit moved to the field's unit;
// and the words that are units.
#include "tracker/scan_key_unit.h"

#include <string>

#include "tracker/field_scanner.h"
#include "tracker/scan_chars.h"

namespace schedmate::tracker_internal {
namespace {

// A word that is a unit ("ms", "s", "%", "tokens/s", "GiB"), not a name ("data").
bool IsUnitWord(std::string_view w) {
  if (w.find('/') != std::string_view::npos || w.find('%') != std::string_view::npos) return true;
  std::string l;
  for (char c : w) l += Lower(c);
  static constexpr std::string_view kUnits[] = {
      "s", "sec", "secs", "second", "seconds", "ms", "msec", "us", "min", "mins", "minute", "minutes", "h", "hr",
      "hrs", "hour", "hours", "m", "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "tokens", "token", "tok",
      "toks", "samples", "sample", "images", "image", "img", "imgs", "words", "it", "its", "iter", "iters", "steps",
      "step", "flops", "tflops", "gflops", "pflops", "w", "hz", "khz", "fps", "x", "k"};
  for (auto u : kUnits)
    if (l == u) return true;
  return false;
}

// camelCase keys are words ("TotalLoss", "StepTime", "valLoss" → "total
// loss", "step time", "val loss"), split where a lower-case letter meets an
// upper-case one. A key with an acronym ("RPNLogLoss", "RCNNL1Loss") names
// one part of a model and stays one word.
bool SplitsCamelCase(std::string_view raw) {
  bool camel = false;
  for (size_t i = 1; i < raw.size(); ++i) {
    if (IsUpperAlpha(raw[i - 1]) && IsUpperAlpha(raw[i])) return false;
    camel = camel || (IsLowerAlpha(raw[i - 1]) && IsUpperAlpha(raw[i]));
  }
  return camel;
}

std::string NormalizeKey(std::string_view raw) {
  std::string k;
  bool camel = SplitsCamelCase(raw);
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (camel && i > 0 && IsLowerAlpha(raw[i - 1]) && IsUpperAlpha(c) && !k.empty() && k.back() != ' ') k += ' ';
    char l = Lower(c);
    if (l == '_' || l == '-' || l == '.' || l == '\'' || l == '"' || l == '`' || l == ' ' || l == '\t') {
      if (!k.empty() && k.back() != ' ') k += ' ';
    } else {
      k += l;
    }
  }
  while (!k.empty() && k.back() == ' ') k.pop_back();
  return k;
}

bool IsTrimChar(char c) {
  return c == ' ' || c == '\t' || c == ':' || c == '=' || c == '[' || c == '(' ||
         c == '\'' || c == '"' || c == '`' || c == '>' || c == '<' || c == '*';
}

// A value printed inside a call ("loss=tensor(0.18, device='cuda:0')",
// "'lr': np.float64(1e-05)"): the name before '(' wraps the value, the key
// is in front of it.
std::string_view WithoutCallWrapper(std::string_view text) {
  if (text.size() < 2 || text.back() != '(') return text;
  size_t e = text.size() - 1, b = e;
  while (b > 0 && (IsAlnum(text[b - 1]) || text[b - 1] == '_' || text[b - 1] == '.')) --b;
  if (b == e || !IsAlpha(text[b])) return text;
  size_t k = b;
  while (k > 0 && text[k - 1] == ' ') --k;
  if (k == 0 || (text[k - 1] != '=' && text[k - 1] != ':')) return text;
  return text.substr(0, k);
}

}  // namespace

bool IsUnitChar(char c) { return IsAlpha(c) || c == '/' || c == '%'; }

bool IsKnownSpacedUnit(std::string_view w) {
  static constexpr std::string_view kUnits[] = {"s", "sec", "secs", "seconds", "ms", "msec"};
  for (auto u : kUnits)
    if (w == u) return true;
  // "samples/s", "toks/s/device", "sec/step", "samples/" (cut off): a word
  // with a slash that starts with a letter.
  return w.size() >= 2 && IsAlpha(w[0]) && w.find('/') != std::string_view::npos;
}


// The key in front of a value: the text since the previous token, cut at
// the last separator, with a trailing "(unit)" moved to `unit`.
void ExtractKey(std::string_view text, ScannedField* f) {
  text = WithoutCallWrapper(text);
  size_t b = 0, e = text.size();
  while (e > b && IsTrimChar(text[e - 1])) --e;
  std::string_view t = text.substr(b, e - b);
  if (t.empty() && text.find('(') != std::string_view::npos) {
    f->parenthesised = true;
    return;
  }
  if (!t.empty() && t.back() == ')') {
    size_t open = t.rfind('(');
    if (open != std::string_view::npos) {
      std::string_view inside = t.substr(open + 1, t.size() - open - 2);
      bool unit_like = !inside.empty() && inside.size() <= 16;
      for (char c : inside) unit_like = unit_like && IsUnitChar(c);
      if (unit_like && IsUnitWord(inside)) {
        f->unit = std::string(inside);
        t = t.substr(0, open);
      } else if (unit_like) {
        t = t.substr(0, open);  // "time (data): 0.86 (0.002)": names the value in parentheses, not a unit
      }
    }
  }
  size_t cut = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '|' || c == ',' || c == ';' || c == '\t' || c == '{' || c == '}' ||
        c == ':' || c == '=' || c == ']' || c == '[' || c == ')' || c == '(' || c == '<' || c == '>' ||
        static_cast<unsigned char>(c) >= 0x80)  // bar glyphs, emoji, bullets
      cut = i + 1;
    else if (c == '-' && i > 0 && i + 1 < t.size() && t[i - 1] == ' ' && t[i + 1] == ' ')
      cut = i + 1;
  }
  f->key = NormalizeKey(t.substr(cut));
  // Keep the last few words: "Training neural network step" → fine either way.
  size_t words = 0, pos = f->key.size();
  while (pos > 0) {
    size_t sp = f->key.rfind(' ', pos - 1);
    if (++words == 6 && sp != std::string::npos) {
      f->key = f->key.substr(sp + 1);
      break;
    }
    if (sp == std::string::npos) break;
    pos = sp;
  }
}

}  // namespace schedmate::tracker_internal
