#include <cstdint>
#include <sstream>
#include <string>

#include "traces/csv_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  schedmate::CsvOptions o;
  o.max_record_bytes = 4096;
  o.comment_prefix = '#';
  schedmate::CsvReader reader(in, "fuzz.csv", o);
  std::vector<std::string_view> fields;
  for (int i = 0; i < 100000; ++i) {
    auto got = reader.Next(&fields);
    if (!got.ok() || !*got) break;
    size_t bytes = 0;
    for (auto f : fields) bytes += f.size();
    if (bytes > o.max_record_bytes + fields.size() + 4096) __builtin_trap();
  }
  return 0;
}
