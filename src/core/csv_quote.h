// CSV field quoting (RFC 4180), shared by every writer of CSV files.
#ifndef SCHEDMATE_CORE_CSV_QUOTE_H_
#define SCHEDMATE_CORE_CSV_QUOTE_H_

#include <string>
#include <string_view>

namespace schedmate {

// Quotes a field when it needs it (comma, quote, line break, edge spaces).
std::string CsvQuote(std::string_view field);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_CSV_QUOTE_H_
