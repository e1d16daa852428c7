#include "metrics/protobuf_wire.h"

#include <array>

namespace spindle::tfevents {

bool WireReader::skip_group(std::uint32_t number) {
  // Each end must name the innermost open group, so the open ones are kept;
  // the bound keeps hostile nesting from costing more than a small array.
  std::array<std::uint32_t, 64> open{};
  std::size_t depth = 0;
  open[depth++] = number;
  WireField field;
  while (depth > 0) {
    if (rest_.empty()) return fail("a group never ends");
    if (!take_field(rest_, field)) return false;
    if (field.type == WireType::start_group) {
      if (depth == open.size()) return fail("groups nest more than 64 deep");
      open[depth++] = field.number;
    } else if (field.type == WireType::end_group) {
      if (open[depth - 1] != field.number) return fail("a group ends with another group's number");
      --depth;
    }
  }
  return true;
}

}  // namespace spindle::tfevents
