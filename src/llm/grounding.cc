#include "llm/grounding.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace schedmate {

std::vector<double> NumbersInText(std::string_view text) {
  std::vector<double> out;
  size_t i = 0;
  while (i < text.size()) {
    if (!(text[i] >= '0' && text[i] <= '9')) {
      ++i;
      continue;
    }
    std::string digits;
    size_t j = i;
    while (j < text.size() && ((text[j] >= '0' && text[j] <= '9') || text[j] == '.' || text[j] == ',' ||
                               text[j] == 'e' || text[j] == 'E' ||
                               ((text[j] == '-' || text[j] == '+') && j > i && (text[j - 1] == 'e' || text[j - 1] == 'E')))) {
      if (text[j] != ',') digits += text[j];
      else if (!(j + 3 < text.size() + 1 && j + 1 < text.size() && text[j + 1] >= '0' && text[j + 1] <= '9')) break;
      ++j;
    }
    out.push_back(std::strtod(digits.c_str(), nullptr));
    // Also the plain digits before a thousands comma ("10,050" → 10 and 10050 both count).
    size_t comma = std::string_view(text).substr(i, j - i).find(',');
    if (comma != std::string_view::npos) out.push_back(std::strtod(std::string(text.substr(i, comma)).c_str(), nullptr));
    i = j + 1;
  }
  return out;
}

bool NumberInText(double value, const std::vector<double>& numbers, double rel_tol, bool derived) {
  auto close = [&](double a, double b) {
    return std::fabs(a - b) <= rel_tol * std::max(std::fabs(a), std::fabs(b)) + 1e-12;
  };
  double v = std::fabs(value);
  for (double n : numbers) {
    if (close(v, n)) return true;
    if (derived && (close(v * 1000, n) || close(v / 1000, n) || (v > 0 && close(1 / v, n)))) return true;
  }
  return false;
}

}  // namespace schedmate
