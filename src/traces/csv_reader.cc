#include "traces/csv_reader.h"

#include <cstring>

namespace schedmate {

size_t FindInvalidUtf8(std::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (int k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and out-of-range code points.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += len;
  }
  return std::string_view::npos;
}

CsvReader::CsvReader(std::istream& in, std::string source, CsvOptions options)
    : in_(in),
      source_(std::move(source)),
      options_(options),
      buf_(1u << 16) {}

Status CsvReader::ErrorAt(std::string_view message) const {
  return InvalidArgument(source_ + ":" + std::to_string(record_line_) + ": " +
                         std::string(message));
}

bool CsvReader::Fill() {
  if (eof_) return false;
  in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_len_ = static_cast<size_t>(in_.gcount());
  buf_pos_ = 0;
  if (buf_len_ == 0) eof_ = true;
  return buf_len_ > 0;
}

Result<bool> CsvReader::ReadLine() {
  line_.clear();
  bool any = false;
  while (true) {
    if (buf_pos_ == buf_len_ && !Fill()) break;
    any = true;
    const char* start = buf_.data() + buf_pos_;
    size_t avail = buf_len_ - buf_pos_;
    const void* nl = std::memchr(start, '\n', avail);
    size_t take = nl ? static_cast<const char*>(nl) - start : avail;
    if (line_.size() + take > options_.max_record_bytes) {
      record_line_ = physical_line_ + 1;
      return Status(StatusCode::kResourceExhausted,
                    source_ + ":" + std::to_string(record_line_) +
                        ": line is longer than " +
                        std::to_string(options_.max_record_bytes) +
                        " bytes (binary or corrupt file?)");
    }
    line_.append(start, take);
    buf_pos_ += take;
    if (nl) {
      ++buf_pos_;
      break;
    }
  }
  if (!any) return false;
  ++physical_line_;
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  return true;
}

Result<bool> CsvReader::Next(std::vector<std::string_view>* fields) {
  fields->clear();
  while (true) {
    ASSIGN_OR_RETURN(bool got, ReadLine());
    if (!got) return false;
    record_line_ = physical_line_;
    if (line_.empty()) continue;
    if (!seen_record_ && options_.comment_prefix != '\0' &&
        line_[0] == options_.comment_prefix) {
      comments_.push_back(line_);
      continue;
    }
    break;
  }
  seen_record_ = true;
  record_.clear();
  field_ends_.clear();
  bool in_quotes = false;
  bool field_was_quoted = false;
  size_t i = 0;
  while (true) {
    if (i == line_.size()) {
      if (!in_quotes) break;
      // A quoted field spans a line break: pull the next physical line.
      record_ += '\n';
      if (record_.size() > options_.max_record_bytes)
        return ErrorAt("quoted field longer than the record limit");
      ASSIGN_OR_RETURN(bool more, ReadLine());
      if (!more) return ErrorAt("unterminated quoted field at end of file");
      i = 0;
      continue;
    }
    char c = line_[i++];
    if (in_quotes) {
      if (c == '"') {
        if (i < line_.size() && line_[i] == '"') {
          record_ += '"';
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        record_ += c;
      }
    } else if (c == ',') {
      field_ends_.push_back(record_.size());
      field_was_quoted = false;
    } else if (c == '"') {
      size_t field_start = field_ends_.empty() ? 0 : field_ends_.back();
      if (record_.size() != field_start || field_was_quoted)
        return ErrorAt("stray quote inside an unquoted field (field " +
                       std::to_string(field_ends_.size() + 1) + ")");
      in_quotes = true;
      field_was_quoted = true;
    } else {
      if (field_was_quoted)
        return ErrorAt("text after a closing quote (field " +
                       std::to_string(field_ends_.size() + 1) + ")");
      record_ += c;
    }
  }
  field_ends_.push_back(record_.size());
  if (options_.require_utf8) {
    size_t bad = FindInvalidUtf8(record_);
    if (bad != std::string_view::npos)
      return ErrorAt("invalid UTF-8 (byte " + std::to_string(bad + 1) +
                     " of the record)");
  }
  size_t begin = 0;
  for (size_t end : field_ends_) {
    fields->emplace_back(record_.data() + begin, end - begin);
    begin = end;
  }
  return true;
}

}  // namespace schedmate
