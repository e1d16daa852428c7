#include "metrics/event_scalars.h"

#include <bit>
#include <cmath>
#include <limits>

#include "metrics/protobuf_wire.h"
#include "spec/utf8.h"

namespace spindle::tfevents {
namespace {

// Field numbers of tensorflow.Event, Summary, Summary.Value,
// SummaryMetadata, TensorProto and TensorShapeProto.
namespace event_field {
constexpr std::uint32_t wall_time = 1, step = 2, summary = 5;
}
namespace summary_field {
constexpr std::uint32_t value = 1;
}
namespace value_field {
constexpr std::uint32_t tag = 1, simple_value = 2, tensor = 8, metadata = 9;
}
namespace metadata_field {
constexpr std::uint32_t plugin_data = 1, data_class = 4;
}
namespace plugin_data_field {
constexpr std::uint32_t plugin_name = 1;
}
namespace tensor_field {
constexpr std::uint32_t dtype = 1, shape = 2, content = 4, float_val = 5, double_val = 6, int_val = 7, int64_val = 10,
                        half_val = 13;
}
namespace shape_field {
constexpr std::uint32_t dim = 2;
}
namespace dim_field {
constexpr std::uint32_t size = 1;
}

enum DataType : std::uint64_t { dt_float = 1, dt_double = 2, dt_int32 = 3, dt_int64 = 9, dt_half = 19 };
enum DataClass : std::uint64_t { data_class_unknown = 0, data_class_scalar = 1 };

// A repeated numeric field reduced to what a scalar needs: how many
// elements, and the first.
struct Elements {
  std::size_t count = 0;
  std::uint64_t first = 0;

  void add(std::uint64_t bits) {
    if (count++ == 0) first = bits;
  }
};

struct TensorFacts {
  std::uint64_t dtype = 0;
  bool one_element = true;  // every dimension (if any) has size 1
  std::string_view content;
  Elements float_val, double_val, int_val, int64_val, half_val;
};

struct ValueFacts {
  std::string_view tag;
  enum class Kind { none, simple, tensor } kind = Kind::none;
  float simple_value = 0;
  TensorFacts tensor;
  bool has_metadata = false;
  std::string_view plugin_name;
  std::uint64_t data_class = data_class_unknown;
};

// Repeated numeric fields come packed (one length-delimited field) or one
// element per field; parsers must take both.
bool add_elements(const WireField& field, WireType element_type, Elements& elements) {
  if (field.type == element_type) {
    elements.add(field.bits);
    return true;
  }
  if (field.type != WireType::length_delimited) return true;
  std::string_view packed = field.bytes;
  std::uint64_t bits = 0;
  while (!packed.empty()) {
    const bool taken = element_type == WireType::varint    ? take_varint(packed, bits)
                       : element_type == WireType::fixed32 ? take_fixed(packed, 4, bits)
                                                           : take_fixed(packed, 8, bits);
    if (!taken) return false;
    elements.add(bits);
  }
  return true;
}

bool read_dim(std::string_view message, bool& one_element, const char*& error) {
  WireReader reader(message);
  WireField field;
  std::uint64_t size = 0;
  while (reader.next(field)) {
    if (field.number == dim_field::size && field.type == WireType::varint) size = field.bits;
  }
  if (reader.error()) {
    error = reader.error();
    return false;
  }
  if (size != 1) one_element = false;
  return true;
}

bool read_shape(std::string_view message, TensorFacts& tensor, const char*& error) {
  WireReader reader(message);
  WireField field;
  while (reader.next(field)) {
    if (field.number == shape_field::dim && field.type == WireType::length_delimited) {
      if (!read_dim(field.bytes, tensor.one_element, error)) return false;
    }
  }
  error = reader.error();
  return error == nullptr;
}

// Merges into `tensor`, as protobuf merges a message field that appears twice.
bool read_tensor(std::string_view message, TensorFacts& tensor, const char*& error) {
  WireReader reader(message);
  WireField field;
  bool elements_sound = true;
  while (reader.next(field) && elements_sound) {
    switch (field.number) {
      case tensor_field::dtype:
        if (field.type == WireType::varint) tensor.dtype = field.bits;
        break;
      case tensor_field::shape:
        if (field.type == WireType::length_delimited && !read_shape(field.bytes, tensor, error)) return false;
        break;
      case tensor_field::content:
        if (field.type == WireType::length_delimited) tensor.content = field.bytes;
        break;
      case tensor_field::float_val: elements_sound = add_elements(field, WireType::fixed32, tensor.float_val); break;
      case tensor_field::double_val: elements_sound = add_elements(field, WireType::fixed64, tensor.double_val); break;
      case tensor_field::int_val: elements_sound = add_elements(field, WireType::varint, tensor.int_val); break;
      case tensor_field::int64_val: elements_sound = add_elements(field, WireType::varint, tensor.int64_val); break;
      case tensor_field::half_val: elements_sound = add_elements(field, WireType::varint, tensor.half_val); break;
      default: break;
    }
  }
  if (!elements_sound) {
    error = "a packed list of tensor values is cut short";
    return false;
  }
  error = reader.error();
  return error == nullptr;
}

bool read_plugin_data(std::string_view message, ValueFacts& value, const char*& error) {
  WireReader reader(message);
  WireField field;
  while (reader.next(field)) {
    if (field.number == plugin_data_field::plugin_name && field.type == WireType::length_delimited) {
      value.plugin_name = field.bytes;
    }
  }
  error = reader.error();
  return error == nullptr;
}

bool read_metadata(std::string_view message, ValueFacts& value, const char*& error) {
  value.has_metadata = true;
  WireReader reader(message);
  WireField field;
  while (reader.next(field)) {
    if (field.number == metadata_field::plugin_data && field.type == WireType::length_delimited) {
      if (!read_plugin_data(field.bytes, value, error)) return false;
    } else if (field.number == metadata_field::data_class && field.type == WireType::varint) {
      value.data_class = field.bits;
    }
  }
  error = reader.error();
  return error == nullptr;
}

bool read_value(std::string_view message, ValueFacts& value, const char*& error) {
  WireReader reader(message);
  WireField field;
  while (reader.next(field)) {
    switch (field.number) {
      case value_field::tag:
        if (field.type == WireType::length_delimited) value.tag = field.bytes;
        break;
      case value_field::simple_value:
        // simple_value and tensor share a oneof: the last one set wins.
        if (field.type == WireType::fixed32) {
          value.kind = ValueFacts::Kind::simple;
          value.simple_value = std::bit_cast<float>(static_cast<std::uint32_t>(field.bits));
        }
        break;
      case value_field::tensor:
        if (field.type != WireType::length_delimited) break;
        if (value.kind == ValueFacts::Kind::simple) value.tensor = TensorFacts{};
        value.kind = ValueFacts::Kind::tensor;
        if (!read_tensor(field.bytes, value.tensor, error)) return false;
        break;
      case value_field::metadata:
        if (field.type == WireType::length_delimited && !read_metadata(field.bytes, value, error)) return false;
        break;
      default: break;
    }
  }
  error = reader.error();
  return error == nullptr;
}

double half_to_double(std::uint16_t half) {
  const int exponent = (half >> 10) & 0x1f;
  const int fraction = half & 0x3ff;
  double magnitude = 0;
  if (exponent == 0) {
    magnitude = std::ldexp(fraction, -24);
  } else if (exponent == 0x1f) {
    magnitude = fraction == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else {
    magnitude = std::ldexp(fraction + 0x400, exponent - 25);
  }
  return (half & 0x8000) != 0 ? -magnitude : magnitude;
}

std::uint64_t load_le(std::string_view bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

double number_from_bits(std::uint64_t dtype, std::uint64_t bits) {
  switch (dtype) {
    case dt_float: return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    case dt_double: return std::bit_cast<double>(bits);
    case dt_int32: return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    case dt_int64: return static_cast<double>(static_cast<std::int64_t>(bits));
    default: return half_to_double(static_cast<std::uint16_t>(bits));
  }
}

struct DtypeLayout {
  const char* name;
  std::size_t bytes;
  Elements TensorFacts::*elements;
};

const DtypeLayout* layout_of(std::uint64_t dtype) {
  static constexpr DtypeLayout float32{"float32", 4, &TensorFacts::float_val};
  static constexpr DtypeLayout float64{"float64", 8, &TensorFacts::double_val};
  static constexpr DtypeLayout int32{"int32", 4, &TensorFacts::int_val};
  static constexpr DtypeLayout int64{"int64", 8, &TensorFacts::int64_val};
  static constexpr DtypeLayout float16{"float16", 2, &TensorFacts::half_val};
  switch (dtype) {
    case dt_float: return &float32;
    case dt_double: return &float64;
    case dt_int32: return &int32;
    case dt_int64: return &int64;
    case dt_half: return &float16;
    default: return nullptr;
  }
}

// The tensor's one number, if it is a scalar of a numeric type we chart.
// Values it lacks are zeros, as TensorFlow reads them.
Result<bool> scalar_of(const ValueFacts& value, double& number) {
  const TensorFacts& tensor = value.tensor;
  const DtypeLayout* layout = layout_of(tensor.dtype);
  if (layout == nullptr || !tensor.one_element) return false;
  if (!tensor.content.empty()) {
    if (tensor.content.size() != layout->bytes) {
      return make_error("the " + std::string(layout->name) + " scalar of tag \"" + std::string(value.tag) + "\" has " +
                        std::to_string(tensor.content.size()) + " bytes of content instead of " +
                        std::to_string(layout->bytes));
    }
    number = number_from_bits(tensor.dtype, load_le(tensor.content));
    return true;
  }
  const Elements& elements = tensor.*(layout->elements);
  if (elements.count > 1) {
    return make_error("the " + std::string(layout->name) + " scalar of tag \"" + std::string(value.tag) + "\" holds " +
                      std::to_string(elements.count) + " values");
  }
  number = elements.count == 0 ? 0.0 : number_from_bits(tensor.dtype, elements.first);
  return true;
}

// Whether a value's tag charts as scalars: known from an earlier value, or
// decided by this one. Nothing when neither has said.
Result<std::optional<bool>> charted(const ValueFacts& value, ScalarTags& tags) {
  if (auto known = tags.decided(value.tag)) return known;
  bool scalars = value.kind == ValueFacts::Kind::simple;
  if (!scalars) {
    if (!value.has_metadata) return std::optional<bool>();
    const bool scalar_class = value.data_class == data_class_unknown || value.data_class == data_class_scalar;
    scalars = value.plugin_name == "scalars" && scalar_class;
  }
  // Checked once per tag, since later values find it decided.
  if (detail::first_invalid_utf8(value.tag)) return make_error("the tag of a value is not UTF-8");
  tags.decide(value.tag, scalars);
  return std::optional<bool>(scalars);
}

Result<void> append_summary_scalars(std::string_view summary, double wall_time, std::int64_t step, ScalarTags& tags,
                                    std::vector<ScalarPoint>& points) {
  WireReader reader(summary);
  WireField field;
  while (reader.next(field)) {
    if (field.number != summary_field::value || field.type != WireType::length_delimited) continue;
    ValueFacts value;
    const char* error = nullptr;
    if (!read_value(field.bytes, value, error)) return make_error(error);
    if (value.kind == ValueFacts::Kind::none) continue;
    auto is_charted = charted(value, tags);
    if (!is_charted) return is_charted.take_error();
    if (!is_charted->value_or(false)) continue;
    double number = value.simple_value;
    if (value.kind == ValueFacts::Kind::tensor) {
      auto scalar = scalar_of(value, number);
      if (!scalar) return scalar.take_error();
      if (!*scalar) continue;
    }
    points.push_back(ScalarPoint{std::string(value.tag), step, wall_time, number});
  }
  if (reader.error()) return make_error(reader.error());
  return {};
}

Result<void> append_all_scalars(std::string_view event, ScalarTags& tags, std::vector<ScalarPoint>& points) {
  // Step and time may follow the summary, so they are read first.
  double wall_time = 0;
  std::int64_t step = 0;
  bool has_summary = false;
  WireReader reader(event);
  WireField field;
  while (reader.next(field)) {
    if (field.number == event_field::wall_time && field.type == WireType::fixed64) {
      wall_time = std::bit_cast<double>(field.bits);
    } else if (field.number == event_field::step && field.type == WireType::varint) {
      step = static_cast<std::int64_t>(field.bits);
    } else if (field.number == event_field::summary && field.type == WireType::length_delimited) {
      has_summary = true;
    }
  }
  if (reader.error()) return make_error(reader.error());
  if (!has_summary) return {};
  // A summary field that appears twice merges into one, values after values.
  WireReader summaries(event);
  while (summaries.next(field)) {
    if (field.number != event_field::summary || field.type != WireType::length_delimited) continue;
    auto appended = append_summary_scalars(field.bytes, wall_time, step, tags, points);
    if (!appended) return appended;
  }
  return {};
}

}  // namespace

Result<void> append_event_scalars(std::string_view event, ScalarTags& tags, std::vector<ScalarPoint>& points) {
  const std::size_t before = points.size();
  auto appended = append_all_scalars(event, tags, points);
  if (!appended) points.resize(before);
  return appended;
}

}  // namespace spindle::tfevents
