#include "core/csv_quote.h"

namespace schedmate {

std::string CsvQuote(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos &&
      (field.empty() || (field.front() != ' ' && field.back() != ' ')))
    return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace schedmate
