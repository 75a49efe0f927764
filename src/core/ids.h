// Strongly typed integer ids, so a node index is never passed as a job index.
#ifndef SCHEDMATE_CORE_IDS_H_
#define SCHEDMATE_CORE_IDS_H_

#include <cstdint>
#include <functional>

namespace schedmate {

template <typename Tag>
struct StrongId {
  int32_t value = -1;
  constexpr StrongId() = default;
  constexpr explicit StrongId(int32_t v) : value(v) {}
  constexpr bool valid() const { return value >= 0; }
  friend constexpr bool operator==(StrongId a, StrongId b) = default;
  friend constexpr auto operator<=>(StrongId a, StrongId b) = default;
};

// Index of a job within one loaded trace (dense, 0-based, in submit order).
using JobIndex = StrongId<struct JobIndexTag>;
// Index of a virtual cluster within a cluster.
using VcIndex = StrongId<struct VcIndexTag>;
// Index of a node within the whole cluster.
using NodeIndex = StrongId<struct NodeIndexTag>;

}  // namespace schedmate

template <typename Tag>
struct std::hash<schedmate::StrongId<Tag>> {
  size_t operator()(schedmate::StrongId<Tag> id) const noexcept {
    return std::hash<int32_t>()(id.value);
  }
};

#endif  // SCHEDMATE_CORE_IDS_H_
