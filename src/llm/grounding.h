// Grounding checks for LLM answers: a value an LLM reports must be visible
// in the text it was shown (DESIGN §2), so a hallucinated number is caught
// before any scheduler uses it.
#ifndef SCHEDMATE_LLM_GROUNDING_H_
#define SCHEDMATE_LLM_GROUNDING_H_

#include <string_view>
#include <vector>

namespace schedmate {

// Every number printed in `text` ("1,234" and "1.5e-3" included).
std::vector<double> NumbersInText(std::string_view text);

// True when `value` is printed in `text` within `rel_tol`, or — when
// `derived` — printed as value×1000 (ms), 1/value (it/s) or value/1000.
bool NumberInText(double value, const std::vector<double>& numbers, double rel_tol = 0.01,
                  bool derived = false);

}  // namespace schedmate

#endif  // SCHEDMATE_LLM_GROUNDING_H_
