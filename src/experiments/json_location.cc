#include "experiments/json_location.h"

#include <cctype>

namespace schedmate {
namespace {

// A cursor over JSON text that can skip whole values. It trusts the text
// only as far as it needs to: any surprise ends the walk (line 0).
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool Eat(char c) {
    if (!Peek(c)) return false;
    ++pos_;
    return true;
  }
  int Line() const {
    int line = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) line += text_[i] == '\n';
    return line;
  }
  // A string's contents (escapes kept raw except \" and \\, enough to compare keys).
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    out->clear();
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out->push_back(text_[pos_++]);
    }
    return Eat('"');
  }
  bool SkipValue() {
    SkipSpace();
    if (pos_ >= text_.size()) return false;
    std::string ignored;
    if (text_[pos_] == '"') return String(&ignored);
    if (text_[pos_] == '{' || text_[pos_] == '[') return SkipContainer();
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) && text_[pos_] != ',' &&
           text_[pos_] != '}' && text_[pos_] != ']')
      ++pos_;
    return true;
  }
  // Moves to the value of member `key` of the object here.
  bool EnterMember(const std::string& key) {
    if (!Eat('{')) return false;
    std::string name;
    while (!Peek('}')) {
      if (!String(&name) || !Eat(':')) return false;
      if (name == key) return SkipSpace(), true;
      if (!SkipValue()) return false;
      Eat(',');
    }
    return false;
  }
  // Moves to element `index` of the array here.
  bool EnterElement(size_t index) {
    if (!Eat('[')) return false;
    for (size_t i = 0; !Peek(']'); ++i) {
      if (i == index) return SkipSpace(), true;
      if (!SkipValue()) return false;
      Eat(',');
    }
    return false;
  }

 private:
  bool SkipContainer() {
    const bool object = text_[pos_] == '{';
    ++pos_;
    const char close = object ? '}' : ']';
    std::string ignored;
    while (!Peek(close)) {
      if (object && (!String(&ignored) || !Eat(':'))) return false;
      if (!SkipValue()) return false;
      Eat(',');
    }
    return Eat(close);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

int JsonLineOf(std::string_view text, const JsonPath& path) {
  Scanner s(text);
  for (const JsonPathStep& step : path) {
    const bool found = std::holds_alternative<std::string>(step) ? s.EnterMember(std::get<std::string>(step))
                                                                 : s.EnterElement(std::get<size_t>(step));
    if (!found) return 0;
  }
  s.SkipSpace();
  return s.Line();
}

std::string JsonPathString(const JsonPath& path) {
  std::string out;
  for (const JsonPathStep& step : path) {
    if (std::holds_alternative<size_t>(step)) {
      out += "[" + std::to_string(std::get<size_t>(step)) + "]";
    } else {
      if (!out.empty()) out += ".";
      out += std::get<std::string>(step);
    }
  }
  return out.empty() ? "(top level)" : out;
}

}  // namespace schedmate
