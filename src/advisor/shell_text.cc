#include "advisor/shell_text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "advisor/launch_command.h"
#include "advisor/shell_script.h"

namespace schedmate {
namespace {

using shell::IsNameChar;

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

}  // namespace

namespace shell {

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

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

// `bash -c 'LR=0.05; python main.py --lr $LR'`: plain `NAME=value;`
// assignments leading the string apply after the outer script's ones. Sets
// them in `*vars` and returns the rest of the string.
std::string TakeLeadingAssignments(std::string inner, std::map<std::string, std::string>* vars) {
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

}  // namespace shell

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

}  // namespace schedmate
