#include "advisor/shell_script.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <set>

#include "advisor/field_keys.h"
#include "advisor/launch_command.h"

namespace schedmate {
namespace {

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::optional<int> ToInt(const std::string& s) {
  if (s.empty() || s.size() > 6) return std::nullopt;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  return std::atoi(s.c_str());
}

std::string Lookup(const std::string& name, const std::map<std::string, std::string>& vars,
                   const std::vector<std::string>& positional, bool* known) {
  *known = true;
  if (name == "0" && vars.count("0")) return vars.at("0");
  if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
    size_t i = static_cast<size_t>(std::atoi(name.c_str()));
    if (i >= 1 && i <= positional.size()) return positional[i - 1];
    *known = false;
    return "";
  }
  if (name == "@" || name == "*") {
    std::string all;
    for (const auto& p : positional) all += (all.empty() ? "" : " ") + p;
    return all;
  }
  auto it = vars.find(name);
  if (it != vars.end()) return it->second;
  *known = false;
  return "";
}

// `NAME="…` or `export NAME="…` whose double quote is still open at the end
// of the text (a value written over several lines, some without a `\`).
bool OpensQuotedAssignment(const std::string& text) {
  size_t i = text.find_first_not_of(" \t");
  if (i == std::string::npos) return false;
  if (text.compare(i, 7, "export ") == 0) i = text.find_first_not_of(' ', i + 7);
  if (i == std::string::npos || !(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) return false;
  while (i < text.size() && IsNameChar(text[i])) ++i;
  if (i + 1 >= text.size() || text[i] != '=' || text[i + 1] != '"') return false;
  // Quotes counted as the shell reads them: single quotes protect everything
  // to the next one (outside double quotes), `$(…)` opens its own quoting
  // inside double quotes, and `#` starting a word outside quotes comments out
  // the rest of the line.
  std::vector<char> open;  // '"' a double quote, '(' a command substitution
  for (size_t k = i + 1; k < text.size(); ++k) {
    char c = text[k];
    bool in_double = !open.empty() && open.back() == '"';
    if (c == '\\') {
      ++k;
      continue;
    }
    if (c == '$' && k + 1 < text.size() && text[k + 1] == '(') {
      open.push_back('(');
      ++k;
      continue;
    }
    if (in_double) {
      if (c == '"') open.pop_back();
      continue;
    }
    if (c == '\'') {
      size_t end = text.find('\'', k + 1);
      if (end == std::string::npos) return false;  // an unclosed single quote: not this rule's
      k = end;
    } else if (c == '"') {
      open.push_back('"');
    } else if (c == ')' && !open.empty()) {
      open.pop_back();
    } else if (c == '#' && open.empty() && (text[k - 1] == ' ' || text[k - 1] == '\t')) {
      break;
    }
  }
  return !open.empty() && open.front() == '"';
}

// Logical lines: continuations joined; each keeps its first physical line number.
std::vector<std::pair<std::string, int>> LogicalLines(std::string_view script) {
  std::vector<std::pair<std::string, int>> out;
  std::string cur;
  int start = 0, no = 0;
  size_t pos = 0;
  while (pos <= script.size()) {
    size_t nl = script.find('\n', pos);
    std::string_view line = script.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (cur.empty()) start = no;
    // `#    --universal-checkpoint \`: a comment ends at its newline, backslash or not.
    size_t first = line.find_first_not_of(" \t");
    bool comment = cur.empty() && first != std::string_view::npos && line[first] == '#';
    if (!comment && !line.empty() && line.back() == '\\') {
      cur += std::string(line.substr(0, line.size() - 1)) + " ";
    } else if (OpensQuotedAssignment(cur + std::string(line)) && no - start < 200) {
      cur += std::string(line) + " ";  // ARGS=" --a 1 ⏎ --b 2 ⏎ ": the value goes on to its closing quote
    } else {
      cur += std::string(line);
      out.emplace_back(std::move(cur), start);
      cur.clear();
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
    if (out.size() > 20000) break;
  }
  if (!cur.empty()) out.emplace_back(std::move(cur), start);  // the text ended inside a continuation
  return out;
}

std::string Trim(std::string s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

// `NAME=value` (optionally after export/local/declare): the name and the raw value.
std::optional<std::pair<std::string, std::string>> Assignment(const std::string& line) {
  std::string l = line;
  for (const char* kw : {"export ", "local ", "declare ", "readonly "})
    if (l.rfind(kw, 0) == 0) l = Trim(l.substr(std::string(kw).size()));
  size_t i = 0;
  while (i < l.size() && IsNameChar(l[i])) ++i;
  if (i == 0 || i >= l.size() || l[i] != '=' || std::isdigit(static_cast<unsigned char>(l[0]))) return std::nullopt;
  std::string value = l.substr(i + 1);
  if (value.rfind("$((", 0) == 0 && value.find("))") != std::string::npos)
    return std::make_pair(l.substr(0, i), value.substr(0, value.find("))") + 2));
  // A value is one shell word; `X=1 python …` is a prefixed command, not an assignment.
  auto words = ShellSplit(value);
  if (!words.ok()) return std::nullopt;
  if (words->size() > 1) {
    // Trailing comments are fine: X=1  # note
    if ((*words)[1].empty() || (*words)[1][0] != '#') return std::nullopt;
  }
  std::string name = l.substr(0, i);
  if (value.rfind("$((", 0) == 0) return std::make_pair(name, value);  // arithmetic: evaluated by the caller
  if (value.rfind("$(", 0) == 0 || value.rfind("`", 0) == 0) return std::make_pair(name, std::string("$(...)"));
  return std::make_pair(name, words->empty() ? std::string() : (*words)[0]);
}

void ReadResourceDirective(const std::string& line, ShellLaunch* out) {
  // #SBATCH --nodes=2 / -N 2 / --gres=gpu:8 / --gpus-per-node=8 / --ntasks-per-node=8 / --gpus=16
  std::string body = Trim(line.substr(7));
  auto words = ShellSplit(body);
  if (!words.ok()) return;
  for (size_t i = 0; i < words->size(); ++i) {
    std::string w = (*words)[i], v;
    size_t eq = w.find('=');
    if (eq != std::string::npos) {
      v = w.substr(eq + 1);
      w = w.substr(0, eq);
    } else if (i + 1 < words->size()) {
      v = (*words)[i + 1];
    }
    if (w == "--nodes" || w == "-N") {
      if (auto n = ToInt(v)) out->nodes = *n;
    } else if (w == "--gpus-per-node" || w == "--gpus-per-task" || w == "--ntasks-per-node") {
      std::string n = v.substr(v.rfind(':') == std::string::npos ? 0 : v.rfind(':') + 1);
      if (auto k = ToInt(n); k && (w != "--ntasks-per-node" || !out->gpus_per_node)) out->gpus_per_node = *k;
    } else if (w == "--gres") {
      size_t g = v.find("gpu");
      size_t colon = v.rfind(':');
      if (g != std::string::npos && colon != std::string::npos && colon > g)
        if (auto k = ToInt(v.substr(colon + 1))) out->gpus_per_node = *k;
    } else if (w == "--gpus" || w == "-G") {
      std::string n = v.substr(v.rfind(':') == std::string::npos ? 0 : v.rfind(':') + 1);
      if (auto k = ToInt(n)) out->total_gpus = *k;
    }
  }
}

}  // namespace

std::string ExpandShellVars(std::string_view text, const std::map<std::string, std::string>& vars,
                            const std::vector<std::string>& positional) {
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < text.size() && out.size() < (1u << 16); ++i) {
    char c = text[i];
    // "$@" is one word per argument: none at all when the script got none, so
    // `--fp16 "$@"` is --fp16 alone, never --fp16 "".
    if (c == '"' && quote == 0)
      for (std::string_view all : {"\"$@\"", "\"${@}\""})
        if (text.substr(i, all.size()) == all &&
            (i + all.size() == text.size() || std::isspace(static_cast<unsigned char>(text[i + all.size()])))) {
          for (size_t k = 0; k < positional.size(); ++k) out += (k ? " \"" : "\"") + positional[k] + "\"";
          i += all.size() - 1;
          c = 0;
          break;
        }
    if (c == 0) continue;
    // `\$SLURM_PROCID`, `\"`: an escaped character stays as written (the
    // shell that later reads the string expands it), and is no quote.
    if (c == '\\' && quote != '\'' && i + 1 < text.size()) {
      out += c;
      out += text[++i];
      continue;
    }
    if (c == '\'' && quote != '"') quote = quote == '\'' ? 0 : '\'';
    if (c == '"' && quote != '\'') quote = quote == '"' ? 0 : '"';
    if (c != '$' || quote == '\'' || i + 1 >= text.size()) {
      out += c;
      continue;
    }
    char n = text[i + 1];
    bool known = false;
    if (n == '{') {
      size_t close = text.find('}', i + 2);
      if (close == std::string_view::npos) {
        out += c;
        continue;
      }
      std::string inner(text.substr(i + 2, close - i - 2));
      size_t j = 0;
      while (j < inner.size() && (IsNameChar(inner[j]) || inner[j] == '@' || inner[j] == '*')) ++j;
      std::string name = inner.substr(0, j), rest = inner.substr(j);
      if (rest.rfind("[@]", 0) == 0 || rest.rfind("[*]", 0) == 0) rest = rest.substr(3);
      std::string v = Lookup(name, vars, positional, &known);
      if ((name == "@" || name == "*") && rest.size() > 1 && rest[0] == ':' &&
          std::isdigit(static_cast<unsigned char>(rest[1]))) {
        // ${@:2}, ${@:2:3}: the arguments from the second on (at most three).
        size_t from = static_cast<size_t>(std::atoi(rest.c_str() + 1));
        size_t colon = rest.find(':', 1);
        size_t count = colon == std::string::npos ? positional.size() : static_cast<size_t>(std::atoi(rest.c_str() + colon + 1));
        v.clear();
        for (size_t k = std::max<size_t>(from, 1); k <= positional.size() && count > 0; ++k, --count)
          v += (v.empty() ? "" : " ") + positional[k - 1];
        rest.clear();
      }
      if (rest.rfind(":-", 0) == 0 || rest.rfind(":=", 0) == 0) {
        if (v.empty()) v = ExpandShellVars(rest.substr(2), vars, positional);
      } else if (rest.rfind("-", 0) == 0 || rest.rfind("=", 0) == 0) {
        if (!known) v = ExpandShellVars(rest.substr(1), vars, positional);
      }
      out += v;
      i = close;
    } else if (n == '(' && text.substr(i, 8) == "$(which " && text.find(')', i) != std::string_view::npos) {
      // $(which lerobot-train): the installed command itself
      size_t close = text.find(')', i);
      out += std::string(text.substr(i + 8, close - i - 8));
      i = close;
    } else if (n == '(') {
      out += c;  // command substitution: left as is
    } else if (IsNameChar(n) || n == '@' || n == '*') {
      size_t j = i + 1;
      if (std::isdigit(static_cast<unsigned char>(n)) || n == '@' || n == '*') {
        j = i + 2;
      } else {
        while (j < text.size() && IsNameChar(text[j])) ++j;
      }
      out += Lookup(std::string(text.substr(i + 1, j - i - 1)), vars, positional, &known);
      i = j - 1;
    } else {
      out += c;
    }
  }
  return out;
}

// `A=1; B=2; cmd $A` → three statements (`;` outside quotes, `$( )` and `[[ ]]`);
// `case` arms (`;;`) and `for …; do` headers are left whole.
std::vector<std::pair<std::string, int>> SplitStatements(std::vector<std::pair<std::string, int>> lines) {
  std::vector<std::pair<std::string, int>> out;
  for (auto& [line, no] : lines) {
    std::string t = Trim(line);
    if (t.rfind("for ", 0) == 0 || t.rfind("if ", 0) == 0 || t.rfind("while ", 0) == 0 || t.find(";;") != std::string::npos ||
        t.rfind("#", 0) == 0) {
      out.emplace_back(line, no);
      continue;
    }
    std::string cur;
    char quote = 0;
    int paren = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '(') {
        ++paren;
      } else if (c == ')') {
        paren = std::max(0, paren - 1);
      } else if (c == ';' && paren == 0) {
        out.emplace_back(cur, no);
        cur.clear();
        continue;
      }
      cur += c;
    }
    out.emplace_back(cur, no);
  }
  return out;
}

// `[ 4 -le 4 ] && [ 6 -ge 4 ]; then` → true/false; nullopt unless every test
// is a numeric comparison of two integers.
std::optional<bool> NumericCondition(std::string cond) {
  if (size_t then = cond.find("then"); then != std::string::npos) cond = cond.substr(0, then);
  bool result = true, any = false;
  size_t pos = 0;
  while (true) {
    size_t open = cond.find('[', pos);
    if (open == std::string::npos) break;
    size_t close = cond.find(']', open);
    if (close == std::string::npos) return std::nullopt;
    std::string inner = cond.substr(open + 1, close - open - 1);
    std::vector<std::string> w;
    std::string cur;
    for (char c : inner + " ") {
      if (c == ' ' || c == '[' || c == '"') {
        if (!cur.empty()) w.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    // String tests (quotes were dropped, so an empty operand is a missing word):
    // [ -n "$X" ], [ -z "$X" ], [ "$X" = "y" ].
    std::optional<bool> text_test;
    if (w.size() == 1 && (w[0] == "-n" || w[0] == "-z")) text_test = w[0] == "-z";
    if (w.size() == 2 && (w[0] == "-n" || w[0] == "-z")) text_test = w[0] == "-n";
    if (w.size() == 3 && (w[1] == "=" || w[1] == "==" || w[1] == "!=")) text_test = (w[0] == w[2]) == (w[1] != "!=");
    if (w.size() == 2 && (w[0] == "=" || w[0] == "==" || w[0] == "!=")) text_test = w[0] == "!=";   // "" = "y"
    if (w.size() == 2 && (w[1] == "=" || w[1] == "==" || w[1] == "!=")) text_test = w[1] == "!=";   // "y" = ""
    if (text_test) {
      result = result && *text_test;
      any = true;
      pos = close + 1;
      while (pos < cond.size() && (cond[pos] == ']' || cond[pos] == ' ')) ++pos;
      if (cond.compare(pos, 2, "||") == 0) return std::nullopt;
      continue;
    }
    if (w.size() != 3) return std::nullopt;
    char* e1 = nullptr;
    char* e2 = nullptr;
    long a = std::strtol(w[0].c_str(), &e1, 10), b = std::strtol(w[2].c_str(), &e2, 10);
    if (*e1 != '\0' || *e2 != '\0' || w[0].empty() || w[2].empty()) return std::nullopt;
    bool v;
    if (w[1] == "-le") v = a <= b;
    else if (w[1] == "-ge") v = a >= b;
    else if (w[1] == "-lt") v = a < b;
    else if (w[1] == "-gt") v = a > b;
    else if (w[1] == "-eq") v = a == b;
    else if (w[1] == "-ne") v = a != b;
    else return std::nullopt;
    result = result && v;
    any = true;
    pos = close + 1;
    while (pos < cond.size() && (cond[pos] == ']' || cond[pos] == ' ')) ++pos;
    if (cond.compare(pos, 2, "||") == 0) return std::nullopt;  // only && chains
  }
  if (!any) return std::nullopt;
  return result;
}

// `4 * 8`, `2+1`: integer arithmetic of known values (no variables left), else nullopt.
std::optional<long long> Arithmetic(const std::string& expr) {
  long long total = 0, term = 0;
  char op = 0;
  size_t i = 0;
  while (true) {
    while (i < expr.size() && expr[i] == ' ') ++i;
    size_t start = i;
    while (i < expr.size() && std::isdigit(static_cast<unsigned char>(expr[i]))) ++i;
    if (start == i || i - start > 9) return std::nullopt;
    long long v = std::atoll(expr.substr(start, i - start).c_str());
    if (op == 0) {
      term = v;
    } else if (op == '*') {
      term *= v;
    } else if (op == '/') {
      if (v == 0) return std::nullopt;
      term /= v;
    } else {
      total += term;
      term = op == '-' ? -v : v;
    }
    while (i < expr.size() && expr[i] == ' ') ++i;
    if (i >= expr.size()) break;
    op = expr[i++];
    if (op != '+' && op != '-' && op != '*' && op != '/') return std::nullopt;
  }
  return total + term;
}

// `$(dirname "$0")`, `$(dirname $0)`, `$(dirname ${BASH_SOURCE[0]})` → the script's directory.
std::string ReplaceDirname(std::string line, const std::string& script_path) {
  std::string dir = script_path.rfind('/') == std::string::npos ? "." : script_path.substr(0, script_path.rfind('/'));
  for (size_t p = line.find("$(dirname"); p != std::string::npos; p = line.find("$(dirname", p + 1)) {
    size_t close = line.find(')', p);
    if (close == std::string::npos) break;
    std::string arg = line.substr(p + 9, close - p - 9);
    if (arg.find("$0") == std::string::npos && arg.find("BASH_SOURCE") == std::string::npos) continue;
    if (arg.find("BASH_SOURCE") != std::string::npos) close = line.find(')', line.find(']', p));
    if (close == std::string::npos) break;
    line.replace(p, close - p + 1, dir);
  }
  for (size_t p = line.find("`dirname"); p != std::string::npos; p = line.find("`dirname", p + 1)) {
    size_t close = line.find('`', p + 1);
    if (close == std::string::npos) break;
    std::string arg = line.substr(p + 8, close - p - 8);
    if (arg.find("$0") == std::string::npos && arg.find("BASH_SOURCE") == std::string::npos) continue;
    line.replace(p, close - p + 1, dir);
  }
  // `$(cd DIR; pwd)`, `$(cd "DIR" && pwd)`, `$(cd DIR >/dev/null 2>&1 && pwd -P)`:
  // the directory itself, once DIR is the script's.
  for (size_t p = line.find("$(cd "); p != std::string::npos; p = line.find("$(cd ", p + 1)) {
    size_t close = line.find(')', p);
    if (close == std::string::npos) break;
    std::string inner = line.substr(p + 5, close - p - 5);
    size_t pwd = inner.rfind("pwd");
    if (pwd == std::string::npos) continue;
    std::string target = inner.substr(0, inner.find_first_of(";&>"));
    while (!target.empty() && (target.back() == ' ' || target.back() == '"' || target.back() == '\'')) target.pop_back();
    while (!target.empty() && (target[0] == ' ' || target[0] == '"' || target[0] == '\'')) target.erase(0, 1);
    if (target.empty() || target.find('$') != std::string::npos || target.find('`') != std::string::npos) continue;
    line.replace(p, close - p + 1, target);
  }
  return line;
}

// The terminator of a heredoc started on this line (`<<EOF`, `<<-'EOF'`), or "".
std::string HeredocEnd(const std::string& line) {
  size_t p = line.find("<<");
  if (p == std::string::npos || line.compare(p, 3, "<<<") == 0) return "";
  // `$(( (RANDOM<<15) | RANDOM ))`: a shift inside arithmetic, not a heredoc.
  std::string before = line.substr(0, p);
  size_t opened = 0, closed = 0;
  for (size_t k = before.find("(("); k != std::string::npos; k = before.find("((", k + 2)) ++opened;
  for (size_t k = before.find("))"); k != std::string::npos; k = before.find("))", k + 2)) ++closed;
  if (opened > closed) return "";
  size_t i = p + 2;
  if (i < line.size() && line[i] == '-') ++i;
  while (i < line.size() && line[i] == ' ') ++i;
  std::string word;
  while (i < line.size() && (IsNameChar(line[i]) || line[i] == '\'' || line[i] == '"')) {
    if (line[i] != '\'' && line[i] != '"') word += line[i];
    ++i;
  }
  if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0]))) return "";
  return word;
}

// An entry named for training (train.py, run_pretrain.py, finetune_lora.py).
static bool TrainingEntry(const std::string& entry) {
  std::string e;
  for (char c : entry) e += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string base = e.substr(e.rfind('/') == std::string::npos ? 0 : e.rfind('/') + 1);
  return base.find("train") != std::string::npos || base.find("finetune") != std::string::npos ||
         base.find("fine_tune") != std::string::npos || base.find("pretrain") != std::string::npos;
}

// A launch line given a training budget, batch size or rate.
static bool GivesTrainingSetting(const LaunchSpec& spec) {
  for (const auto& [k, v] : spec.overrides) {
    const std::string f = ClassifyKey(k).field;
    if (f == "steps" || f == "epochs" || f == "batch_size" || f == "learning_rate") return true;
  }
  return false;
}

// A launch line given a checkpoint or weights file to read (--ckpt, --checkpoint, --weights).
static bool ReadsACheckpoint(const LaunchSpec& spec) {
  for (const auto& [k, v] : spec.overrides) {
    std::vector<std::string> w = KeyWords(k);
    if (std::any_of(w.begin(), w.end(), [](const std::string& x) {
          return x == "ckpt" || x == "checkpoint" || x == "weights";
        }) &&
        std::none_of(w.begin(), w.end(), [](const std::string& x) {
          return x == "dir" || x == "save" || x == "output" || x == "out" || x == "every" || x == "interval" ||
                 x == "freq" || x == "steps";
        }))
      return true;
  }
  return false;
}

// `bash -c 'LR=0.05; python main.py --lr $LR'`: plain `NAME=value;`
// assignments leading the string apply after the outer script's ones. Sets
// them in `*vars` and returns the rest of the string.
static std::string TakeLeadingAssignments(std::string inner, std::map<std::string, std::string>* vars) {
  for (;;) {
    size_t b = inner.find_first_not_of(" \t\n");
    if (b == std::string::npos) break;
    size_t e = b;
    if (inner.compare(b, 7, "export ") == 0) e = b + 7;
    size_t name_start = e;
    while (e < inner.size() && IsNameChar(inner[e])) ++e;
    if (e == name_start || e >= inner.size() || inner[e] != '=' ||
        std::isdigit(static_cast<unsigned char>(inner[name_start])))
      break;
    size_t end = inner.find_first_of(";&\n", e);
    if (end == std::string::npos) break;
    std::string value = inner.substr(e + 1, end - e - 1);
    value.erase(value.find_last_not_of(" \t") + 1);
    if (value.find_first_of(" \t'\"`$(") != std::string::npos) break;  // plain words only
    (*vars)[inner.substr(name_start, e - name_start)] = value;
    size_t next = inner.find_first_not_of(";& \t\n", end);
    if (next == std::string::npos) break;
    inner = inner.substr(next);
  }
  return inner;
}

// `srun … bash -c '$LAUNCHER --node_rank $SLURM_PROCID $CMD'`: the inner
// shell runs the string with the exported variables (single quotes only
// delay the expansion); the words before it (srun and its options) stay.
// The command with its `sh -c` string expanded, or nullopt without one.
static std::optional<std::string> ExpandShellString(const std::string& expanded,
                                                    const std::map<std::string, std::string>& vars,
                                                    const std::vector<std::string>& positional) {
  if (expanded.find(" -c ") == std::string::npos || expanded.find("sh -c ") == std::string::npos) return std::nullopt;
  auto words = ShellSplit(expanded);
  if (!words.ok()) return std::nullopt;
  for (size_t k = 0; k + 2 < words->size(); ++k) {
    const std::string& sh = (*words)[k];
    if ((sh != "bash" && sh != "sh") || (*words)[k + 1] != "-c") continue;
    std::string outer;
    for (size_t q = 0; q < k; ++q) outer += (*words)[q] + " ";
    // The rank variables srun sets in each task (--node_rank $SLURM_PROCID) hold a value there.
    std::map<std::string, std::string> inner_vars = vars;
    for (const char* rank : {"SLURM_PROCID", "SLURM_NODEID", "SLURM_LOCALID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"})
      inner_vars.emplace(rank, "0");
    std::string inner = TakeLeadingAssignments((*words)[k + 2], &inner_vars);
    return outer + ExpandShellVars(inner, inner_vars, positional);
  }
  return std::nullopt;
}

std::optional<ShellLaunch> FindShellLaunch(std::string_view script, const ShellContext& ctx) {
  ShellLaunch out;
  std::optional<ShellLaunch> first, helper;
  std::string chdir;
  std::map<std::string, std::string> vars = ctx.env;
  if (!ctx.script_path.empty()) vars["0"] = ctx.script_path;
  auto lines = SplitStatements(LogicalLines(script));
  int sourced = 0;
  std::map<size_t, size_t> skip_to;  // an else/elif of a taken if → its fi
  std::map<std::string, std::string> copies;  // a Python file's copy → the file copied
  for (size_t idx = 0; idx < lines.size(); ++idx) {
    if (auto sk = skip_to.find(idx); sk != skip_to.end()) {
      idx = sk->second;
      continue;
    }
    const auto& [raw, no] = lines[idx];
    std::string line = ReplaceDirname(Trim(raw), ctx.script_path);
    // Heredocs: `read -r -d '' VAR <<EOF … EOF` sets VAR; other bodies are skipped.
    if (std::string end = HeredocEnd(line); !end.empty() && line.rfind('#', 0) != 0) {
      std::string body;
      size_t j = idx + 1;
      for (; j < lines.size() && Trim(lines[j].first) != end; ++j) body += lines[j].first + " ";
      auto words = ShellSplit(line.substr(0, line.find("<<")));
      if (words.ok() && !words->empty() && (*words)[0] == "read") vars[words->back()] = Trim(body);
      idx = j;
      continue;
    }
    // Arrays: NAME=( … ) over several lines; the value is the words joined.
    if (size_t eq = line.find("=("); eq != std::string::npos && eq > 0 && line.find(' ') > eq) {
      bool append = line[eq - 1] == '+';
      std::string name = line.substr(0, append ? eq - 1 : eq);
      if (name.rfind("export ", 0) == 0 || name.rfind("declare ", 0) == 0) name = Trim(name.substr(name.find(' ')));
      std::string body = line.substr(eq + 2);
      size_t j = idx;
      while (body.find(')') == std::string::npos && j + 1 < lines.size()) {
        std::string next = Trim(lines[++j].first);
        if (size_t hash = next.find(" #"); hash != std::string::npos) next = next.substr(0, hash);
        if (!next.empty() && next[0] == '#') continue;
        body += " " + next;
      }
      body = body.substr(0, body.rfind(')'));
      bool ok = !name.empty();
      for (char c : name) ok = ok && IsNameChar(c);
      if (ok) {
        std::string value = Trim(ExpandShellVars(body, vars, ctx.positional));
        vars[name] = append && vars.count(name) ? vars[name] + " " + value : value;
        idx = j;
        continue;
      }
    }
    if (line.rfind("#SBATCH", 0) == 0 || line.rfind("#PBS", 0) == 0) {
      ReadResourceDirective(line.rfind("#PBS", 0) == 0 ? "#SBATCH" + line.substr(4) : line, &out);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    // `source path.sh` / `. $1`: the sourced file's lines run here (its variables are ours).
    if ((line.rfind("source ", 0) == 0 || line.rfind(". ", 0) == 0) && line.find("parse_options.sh") == std::string::npos &&
        ctx.read_file && sourced < 8) {
      auto words = ShellSplit(ExpandShellVars(line, vars, ctx.positional));
      if (words.ok() && words->size() >= 2)
        if (auto text = ctx.read_file((*words)[1])) {
          ++sourced;
          auto more = SplitStatements(LogicalLines(*text));
          if (more.size() < 5000) {
            lines.insert(lines.begin() + static_cast<long>(idx) + 1, more.begin(), more.end());
            std::map<size_t, size_t> shifted;  // the lines after this one moved down
            for (auto [from, to] : skip_to)
              shifted[from > idx ? from + more.size() : from] = to > idx ? to + more.size() : to;
            skip_to.swap(shifted);
          }
        }
      continue;
    }
    // Kaldi/ESPnet recipes: `. utils/parse_options.sh` turns the caller's --stage 4 into stage=4.
    if (line.find("parse_options.sh") != std::string::npos && (line[0] == '.' || line.rfind("source", 0) == 0)) {
      for (size_t k = 0; k + 1 < ctx.positional.size(); ++k)
        if (ctx.positional[k].rfind("--", 0) == 0) {
          std::string name = ctx.positional[k].substr(2);
          std::replace(name.begin(), name.end(), '-', '_');
          vars[name] = ctx.positional[k + 1];
        }
      continue;
    }
    // `if [ ${stage} -le 4 ] && [ ${stop_stage} -ge 4 ]; then` that is false: skip to its fi.
    if (line.rfind("if ", 0) == 0) {
      auto holds = NumericCondition(ExpandShellVars(line.substr(3), vars, ctx.positional));
      // The block's own else/elif and fi (depth 1).
      size_t branch = lines.size(), end = lines.size();
      int depth = 1;
      for (size_t j = idx + 1; j < lines.size() && holds; ++j) {
        std::string t = Trim(lines[j].first);
        if (t.rfind("if ", 0) == 0) ++depth;
        if (t == "fi" || t.rfind("fi ", 0) == 0 || t.rfind("fi;", 0) == 0) {
          if (--depth == 0) {
            end = j;
            break;
          }
        }
        if (depth == 1 && branch == lines.size() && (t == "else" || t.rfind("elif ", 0) == 0 || t.rfind("else ", 0) == 0))
          branch = j;
      }
      if (holds && *holds) {
        if (branch < end) skip_to[branch] = end;  // the then-branch runs; the others do not
      } else if (holds) {
        if (branch < end && Trim(lines[branch].first).rfind("elif ", 0) == 0) {
          lines[branch].first = Trim(lines[branch].first).substr(2);  // elif c → if c, read next
          idx = branch - 1;
        } else {
          idx = branch < end ? branch : end;  // the else-branch runs, or nothing
        }
        continue;
      }
    }
    // `: ${X:=1}` and `: "${X:=1}"` set X when unset.
    if (line.rfind(": ", 0) == 0) {
      size_t a = line.find("${");
      size_t eq = line.find(":=", a == std::string::npos ? 0 : a);
      size_t close = line.find('}', eq == std::string::npos ? 0 : eq);
      if (a != std::string::npos && eq != std::string::npos && close != std::string::npos) {
        std::string name = line.substr(a + 2, eq - a - 2);
        if (vars.find(name) == vars.end() || vars[name].empty())
          vars[name] = ExpandShellVars(line.substr(eq + 2, close - eq - 2), vars, ctx.positional);
      }
      continue;
    }
    // for X in a b c; do → X is its first value.
    if (line.rfind("for ", 0) == 0) {
      auto words = ShellSplit(ExpandShellVars(line, vars, ctx.positional));
      if (words.ok() && words->size() >= 4 && (*words)[2] == "in") {
        std::string first = (*words)[3];
        if (!first.empty() && first.back() == ';') first.pop_back();
        if (first != ";" && first != "do") vars[(*words)[1]] = first;
      }
      continue;
    }
    if (auto as = Assignment(line)) {
      if (as->second.rfind("$((", 0) == 0) {
        // Inside $(( )), bare names are variables too.
        std::string expr = ExpandShellVars(as->second.substr(3, as->second.size() - 5), vars, ctx.positional), bare;
        for (size_t k = 0; k < expr.size();) {
          if (std::isalpha(static_cast<unsigned char>(expr[k])) || expr[k] == '_') {
            size_t e = k;
            while (e < expr.size() && IsNameChar(expr[e])) ++e;
            auto it = vars.find(expr.substr(k, e - k));
            bare += it == vars.end() ? expr.substr(k, e - k) : it->second;
            k = e;
          } else {
            bare += expr[k++];
          }
        }
        if (auto n = Arithmetic(bare))
          vars[as->first] = std::to_string(*n);
      } else if (as->second != "$(...)") {
        vars[as->first] = ExpandShellVars(as->second, vars, ctx.positional);
      }
      continue;
    }
    std::string expanded = ExpandShellVars(line, vars, ctx.positional);
    if (expanded.rfind("cd ", 0) == 0 && expanded.find("&&") == std::string::npos &&
        expanded.find(';') == std::string::npos) {
      auto words = ShellSplit(expanded);
      if (words.ok() && words->size() >= 2 && (*words)[1] != "-" && (*words)[1][0] != '$') {
        std::string d = (*words)[1];
        chdir = d[0] == '/' || d[0] == '~' ? "" : (chdir.empty() ? d : chdir + "/" + d);
      }
      continue;
    }
    // `cp tool/train.py … ${exp_dir}` then `python ${exp_dir}/train.py`: the copy runs the repository's file.
    if (expanded.rfind("cp ", 0) == 0 && expanded.find("&&") == std::string::npos) {
      auto words = ShellSplit(expanded);
      if (words.ok() && words->size() >= 3) {
        std::vector<std::string> srcs;
        for (size_t w = 1; w + 1 < words->size(); ++w)
          if (!(*words)[w].empty() && (*words)[w][0] != '-') srcs.push_back((*words)[w]);
        std::string dest = words->back();
        while (dest.size() > 1 && dest.back() == '/') dest.pop_back();
        for (const auto& src : srcs)
          if (src.size() > 3 && src.compare(src.size() - 3, 3, ".py") == 0 && copies.size() < 64)
            copies[dest + "/" + src.substr(src.rfind('/') == std::string::npos ? 0 : src.rfind('/') + 1)] = src;
      }
      continue;
    }
    for (const auto& [copy, src] : copies)
      for (size_t at = expanded.find(copy); at != std::string::npos; at = expanded.find(copy, at + src.size())) {
        bool whole = (at == 0 || expanded[at - 1] == ' ' || expanded[at - 1] == '=') &&
                     (at + copy.size() == expanded.size() || expanded[at + copy.size()] == ' ');
        if (!whole) break;
        expanded.replace(at, copy.size(), src);
      }
    if (auto inner = ExpandShellString(expanded, vars, ctx.positional)) expanded = std::move(*inner);
    auto spec = ParseLaunchCommand(expanded, ctx.console_scripts);
    if (!spec.ok() && spec.status().message().find("unterminated quote") != std::string::npos) {
      // A stray quote pasted from a README (`--save_step 2000"`): read the line without it.
      size_t q = expanded.find_last_of("\"'");
      if (q != std::string::npos) {
        expanded.erase(q, 1);
        spec = ParseLaunchCommand(expanded, ctx.console_scripts);
      }
    }
    if (!spec.ok()) continue;
    ShellLaunch cand = out;
    cand.line = expanded;
    cand.line_no = no;
    cand.is_shell = spec->entry_kind == LaunchSpec::Entry::kShell;
    cand.vars = vars;
    cand.chdir = chdir;
    if (LooksLikeSideStep(spec->entry)) {
      if (!first) first = std::move(cand);
      continue;
    }
    // A plain `python helper.py` (no training word in its name) before a
    // distributed or training launch prepares the run (a data-ratio file, a
    // converted checkpoint): the later launch is the run, when there is one.
    // A python line given a training setting (--epochs 120, --batch_size 512)
    // trains: it is the run, whatever follows it (a checkpoint's calibration).
    const bool trains = TrainingEntry(spec->entry) || GivesTrainingSetting(*spec);
    if (!trains && spec->launcher == "python" && !cand.is_shell) {
      if (!helper) helper = std::move(cand);
      continue;  // the first such line is the run unless a launch follows
    }
    // A later wrapper script (`bash notify.sh`) replaces a parked python run
    // only when it is named for training or given a training setting; nor
    // does a later launch that only reads a checkpoint the run wrote
    // (`torchrun … calibrate.py --ckpt out/last.pth`): a post-processing step.
    if (helper && !trains && (cand.is_shell || ReadsACheckpoint(*spec))) continue;
    return cand;
  }
  if (helper) return helper;
  if (first) {
    first->gpus_per_node = out.gpus_per_node;
    first->nodes = out.nodes;
    first->total_gpus = out.total_gpus;
  }
  return first;
}

std::vector<std::string> CommandHeads(std::string_view script) {
  static const std::set<std::string> kShell = {
      "cd", "echo", "export", "mkdir", "rm", "cp", "mv", "pip", "pip3", "conda", "source", ".", "set", "wget", "curl",
      "git", "cat", "ls", "sleep", "nvidia-smi", "if", "then", "else", "elif", "fi", "for", "do", "done", "while",
      "exit", "true", "false", "unset", "module", "ln", "touch", "tar", "unzip", "chmod", "printf", "read", "shift",
      "case", "esac", "function", "local", "declare", "eval", "exec", "time", "env", "nohup", "wait", "trap", "test",
      "[", "[[", "hostname", "date", "tee", "grep", "sed", "awk", "head", "tail", "python", "python3", "bash", "sh", "make", "cmake", "docker",
      "apt", "apt-get", "sudo", "npm", "srun", "mpirun", "torchrun", "deepspeed", "accelerate"};
  std::vector<std::string> out;
  for (const auto& [raw, no] : SplitStatements(LogicalLines(script))) {
    auto words = ShellSplit(Trim(raw));
    if (!words.ok()) continue;
    size_t i = 0;
    while (i < words->size() && (*words)[i].find('=') != std::string::npos && (*words)[i][0] != '-') ++i;
    if (i >= words->size()) continue;
    const std::string& head = (*words)[i];
    if (head.empty() || head[0] == '#' || head[0] == '$' || kShell.count(head) || head.find('/') != std::string::npos)
      continue;
    if (std::find(out.begin(), out.end(), head) == out.end()) out.push_back(head);
  }
  return out;
}

bool LooksLikeSideStep(const std::string& entry) {
  std::string e;
  for (char c : entry) e += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t slash = e.rfind('/');
  std::string base = slash == std::string::npos ? e : e.substr(slash + 1);
  if (base == "pip" || base == "venv" || base == "setup.py" || e == "pip" || e.rfind("pip.", 0) == 0 ||
      e.rfind("spacy", 0) == 0 || e.rfind("nltk", 0) == 0 || e.rfind("huggingface_hub", 0) == 0)
    return true;
  if (base.find("train") != std::string::npos || base.find("finetune") != std::string::npos ||
      base.find("fine_tune") != std::string::npos || base.find("pretrain") != std::string::npos)
    return false;
  // A recipe's data stage (local/data.sh) and its decoding, averaging and scoring stages.
  std::string stem = base.substr(0, base.find('.'));
  if (stem == "data" || stem == "dataset" || stem == "features" || stem == "feats") return true;
  for (const char* w : {"decode", "average", "avg_", "compute_", "score"})
    if (base.find(w) != std::string::npos) return true;
  for (const char* w : {"download", "prepare", "preprocess", "prepro", "_prep", "prep_", "convert", "install", "eval", "test",
                        "export", "infer", "predict", "generate", "sample", "inspect", "merge", "tokeniz", "build_",
                        "make_", "extract", "split", "plot", "visual", "demo", "bench"})
    if (base.find(w) != std::string::npos) return true;
  return false;
}

}  // namespace schedmate
