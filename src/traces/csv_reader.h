// A strict, streaming CSV reader for trace files from outside.
//
// RFC 4180 quoting (a quoted field may hold commas, doubled quotes and line
// breaks), LF or CRLF line ends, blank lines skipped. Every error names the
// source and the 1-based line. Memory is bounded by `max_record_bytes`: a
// 1 GB file holding one line fails after reading that many bytes, not 1 GB.
#ifndef SCHEDMATE_TRACES_CSV_READER_H_
#define SCHEDMATE_TRACES_CSV_READER_H_

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "core/csv_quote.h"  // CsvQuote, for writers beside this reader
#include "core/status.h"

namespace schedmate {

struct CsvOptions {
  size_t max_record_bytes = 1u << 20;
  bool require_utf8 = true;
  // Lines whose first byte is this are returned by comments() and skipped
  // when they appear before the header. '\0' disables.
  char comment_prefix = '\0';
};

class CsvReader {
 public:
  // `in` must outlive the reader.
  CsvReader(std::istream& in, std::string source, CsvOptions options = {});

  // Reads the next record into `fields`. Returns false at end of input.
  // Field views stay valid until the next call.
  Result<bool> Next(std::vector<std::string_view>* fields);

  // 1-based line on which the last record started.
  int64_t line() const { return record_line_; }
  const std::string& source() const { return source_; }
  // Comment lines seen before the first record.
  const std::vector<std::string>& comments() const { return comments_; }

  // "source:line: message" as an InvalidArgument status.
  Status ErrorAt(std::string_view message) const;

 private:
  // Reads one physical line (without its terminator) into line_.
  // Returns false at EOF with nothing read.
  Result<bool> ReadLine();
  bool Fill();

  std::istream& in_;
  std::string source_;
  CsvOptions options_;
  std::vector<char> buf_;
  size_t buf_pos_ = 0, buf_len_ = 0;
  bool eof_ = false;
  std::string line_;
  std::string record_;  // unescaped field bytes, back to back
  std::vector<size_t> field_ends_;
  int64_t physical_line_ = 0;
  int64_t record_line_ = 0;
  bool seen_record_ = false;
  std::vector<std::string> comments_;
};

// Returns the byte offset of the first invalid UTF-8 sequence, or npos.
size_t FindInvalidUtf8(std::string_view s);


}  // namespace schedmate

#endif  // SCHEDMATE_TRACES_CSV_READER_H_
