#include "sim/restart_overhead.h"

#include <charconv>

namespace schedmate {

std::string RestartOverhead::Name() const {
  switch (kind) {
    case Kind::kNone: return "none";
    case Kind::kLucid: return "lucid";
    case Kind::kHelios: return "helios";
    case Kind::kFixed: return std::to_string(fixed_s);
  }
  return "none";
}

Result<RestartOverhead> RestartOverhead::Parse(std::string_view text) {
  RestartOverhead o;
  if (text == "none") return o;
  if (text == "lucid") { o.kind = Kind::kLucid; return o; }
  if (text == "helios") { o.kind = Kind::kHelios; return o; }
  int64_t s = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), s);
  if (ec == std::errc() && p == text.data() + text.size() && s >= 0 &&
      s <= 86400) {
    o.kind = Kind::kFixed;
    o.fixed_s = s;
    return o;
  }
  return InvalidArgument("restart overhead '" + std::string(text) +
                         "' is not none, lucid, helios or 0..86400 seconds");
}

}  // namespace schedmate
