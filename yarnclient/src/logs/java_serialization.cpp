#include "logs/java_serialization.h"

#include <cstring>

#include "logs/byte_cursor.h"

namespace spindle::yarn::logs {

namespace {

// java.io.ObjectStreamConstants
constexpr std::uint8_t tc_null = 0x70, tc_reference = 0x71, tc_classdesc = 0x72, tc_object = 0x73, tc_string = 0x74,
                       tc_array = 0x75, tc_blockdata = 0x77, tc_endblockdata = 0x78, tc_blockdatalong = 0x7a,
                       tc_longstring = 0x7c, tc_enum = 0x7e;
constexpr std::uint8_t sc_write_method = 0x01, sc_serializable = 0x02, sc_externalizable = 0x04;
constexpr std::int32_t base_handle = 0x7e0000;
// Deeper nesting than any index holds is refused, so a crafted file cannot exhaust the stack.
constexpr int max_depth = 64;
constexpr std::size_t max_handles = 1 << 20;

struct JavaField {
  char type = 0;
  std::string name;
};

struct JavaClass {
  std::string name;
  std::uint8_t flags = 0;
  std::vector<JavaField> fields;
  const JavaClass* super = nullptr;
};

}  // namespace

const JavaObject* JavaObject::object(const std::string& field) const {
  auto found = fields.find(field);
  if (found == fields.end()) return nullptr;
  auto* value = std::get_if<const JavaObject*>(&found->second);
  return value ? *value : nullptr;
}

std::optional<std::int64_t> JavaObject::integer(const std::string& field) const {
  auto found = fields.find(field);
  if (found == fields.end()) return std::nullopt;
  auto* value = std::get_if<std::int64_t>(&found->second);
  if (!value) return std::nullopt;
  return *value;
}

std::optional<std::string> JavaObject::string(const std::string& field) const {
  const auto* value = object(field);
  if (!value || value->class_name != "java.lang.String") return std::nullopt;
  return value->text;
}

class JavaStreamParser {
 public:
  JavaStreamParser(std::string_view bytes, std::uint64_t offset, const std::string& name, JavaObjectStream& stream)
      : in_(bytes, offset), name_(name), stream_(stream) {}

  Result<void> parse() {
    if (in_.u16() != 0xaced || in_.u16() != 5) return failure("it does not start as a Java object stream");
    auto root = content(0);
    if (!root) return root.error();
    auto* object = std::get_if<const JavaObject*>(&*root);
    if (!object || !*object) return failure("the stream holds no object");
    stream_.root_ = *object;
    return {};
  }

 private:
  using Handle = std::variant<const JavaClass*, const JavaObject*>;

  Error failure(const std::string& what) const {
    return make_error(name_ + " has a damaged index: " + what + " at byte " + std::to_string(in_.offset()));
  }

  JavaObject* new_object(std::string class_name) {
    stream_.objects_.push_back(std::make_unique<JavaObject>());
    stream_.objects_.back()->class_name = std::move(class_name);
    return stream_.objects_.back().get();
  }

  Result<void> assign(Handle handle) {
    if (handles_.size() >= max_handles) return failure("too many objects");
    handles_.push_back(handle);
    return {};
  }

  Result<const JavaObject*> string_body(bool long_form) {
    std::optional<std::int64_t> length;
    if (long_form) {
      length = in_.i64();
    } else if (auto short_length = in_.u16()) {
      length = *short_length;
    }
    if (!length || *length < 0 || static_cast<std::uint64_t>(*length) > in_.remaining()) {
      return failure("a string runs past the end");
    }
    auto* object = new_object("java.lang.String");
    object->text = std::string(*in_.bytes(static_cast<std::size_t>(*length)));
    if (auto added = assign(object); !added) return added.error();
    return object;
  }

  // What an earlier handle names: an object or a class, as T says.
  template <typename T>
  Result<T> earlier(const char* what) {
    auto handle = in_.i32();
    if (!handle || *handle < base_handle || static_cast<std::size_t>(*handle - base_handle) >= handles_.size()) {
      return failure(std::string("a reference to ") + what + " names nothing earlier");
    }
    auto* named = std::get_if<T>(&handles_[static_cast<std::size_t>(*handle - base_handle)]);
    if (!named) return failure(std::string("a reference to ") + what + " names something else");
    return *named;
  }

  Result<const JavaObject*> reference() { return earlier<const JavaObject*>("an object"); }

  // A string object where a class descriptor names a field's type: inline or by reference.
  Result<std::string> type_name() {
    auto tag = in_.u8();
    if (tag == tc_string) {
      auto text = string_body(false);
      if (!text) return text.error();
      return (*text)->text;
    }
    if (tag == tc_reference) {
      auto text = reference();
      if (!text) return text.error();
      if ((*text)->class_name != "java.lang.String") return failure("a field's type is not a string");
      return (*text)->text;
    }
    return failure("a field's type name is missing");
  }

  Result<const JavaClass*> class_descriptor(int depth) {
    if (depth > max_depth) return failure("classes nest too deeply");
    auto tag = in_.u8();
    if (tag == tc_null) return static_cast<const JavaClass*>(nullptr);
    if (tag == tc_reference) return earlier<const JavaClass*>("a class");
    if (tag != tc_classdesc) return failure("a class descriptor is expected");
    auto name = in_.java_utf();
    auto uid = name ? in_.i64() : std::nullopt;
    if (!uid) return failure("a class descriptor ends early");
    classes_.push_back(std::make_unique<JavaClass>());
    JavaClass* described = classes_.back().get();
    described->name = *name;
    if (auto added = assign(static_cast<const JavaClass*>(described)); !added) return added.error();
    auto flags = in_.u8();
    auto count = flags ? in_.u16() : std::nullopt;
    if (!count) return failure("the class " + *name + " ends early");
    described->flags = *flags;
    if ((*flags & sc_externalizable) != 0) return failure("the class " + *name + " is externalizable");
    for (int i = 0; i < *count; ++i) {
      JavaField field;
      auto type = in_.u8();
      auto field_name = type ? in_.java_utf() : std::nullopt;
      if (!field_name) return failure("a field of " + *name + " ends early");
      field.type = static_cast<char>(*type);
      field.name = *field_name;
      if (field.type == 'L' || field.type == '[') {
        if (auto type_text = type_name(); !type_text) return type_text.error();
      } else if (std::strchr("BCDFIJSZ", field.type) == nullptr || field.type == 0) {
        return failure("the field " + field.name + " of " + *name + " has an unknown type");
      }
      described->fields.push_back(std::move(field));
    }
    if (auto skipped = annotations(depth, nullptr); !skipped) return skipped.error();
    auto super = class_descriptor(depth + 1);
    if (!super) return super.error();
    described->super = *super;
    return static_cast<const JavaClass*>(described);
  }

  // Block data and objects up to the end marker; objects go to `into`.
  Result<void> annotations(int depth, std::vector<JavaValue>* into) {
    while (true) {
      auto tag = in_.u8();
      if (!tag) return failure("custom data has no end");
      if (*tag == tc_endblockdata) return {};
      if (*tag == tc_blockdata || *tag == tc_blockdatalong) {
        std::optional<std::int64_t> length;
        if (*tag == tc_blockdata) {
          if (auto short_length = in_.u8()) length = *short_length;
        } else if (auto long_length = in_.i32()) {
          length = *long_length;
        }
        if (!length || *length < 0 || !in_.bytes(static_cast<std::size_t>(*length))) {
          return failure("block data runs past the end");
        }
        continue;
      }
      auto value = content_after(*tag, depth + 1);
      if (!value) return value.error();
      if (into) into->push_back(*value);
    }
  }

  Result<JavaValue> primitive(char type) {
    switch (type) {
      case 'B':
        if (auto v = in_.u8()) return JavaValue{static_cast<std::int64_t>(static_cast<std::int8_t>(*v))};
        break;
      case 'Z':
        if (auto v = in_.u8()) return JavaValue{static_cast<std::int64_t>(*v != 0)};
        break;
      case 'C':
        if (auto v = in_.u16()) return JavaValue{static_cast<std::int64_t>(*v)};
        break;
      case 'S':
        if (auto v = in_.u16()) return JavaValue{static_cast<std::int64_t>(static_cast<std::int16_t>(*v))};
        break;
      case 'I':
        if (auto v = in_.i32()) return JavaValue{static_cast<std::int64_t>(*v)};
        break;
      case 'J':
        if (auto v = in_.i64()) return JavaValue{*v};
        break;
      case 'F':
        if (auto v = in_.i32()) {
          float f = 0;
          std::memcpy(&f, &*v, sizeof f);
          return JavaValue{static_cast<double>(f)};
        }
        break;
      case 'D':
        if (auto v = in_.i64()) {
          double d = 0;
          std::memcpy(&d, &*v, sizeof d);
          return JavaValue{d};
        }
        break;
    }
    return failure("a field's value ends early");
  }

  Result<JavaValue> content(int depth) {
    auto tag = in_.u8();
    if (!tag) return failure("an object is missing");
    return content_after(*tag, depth);
  }

  Result<JavaValue> content_after(std::uint8_t tag, int depth) {
    if (depth > max_depth) return failure("objects nest too deeply");
    switch (tag) {
      case tc_null: return JavaValue{};
      case tc_reference: {
        auto object = reference();
        if (!object) return object.error();
        return JavaValue{*object};
      }
      case tc_string:
      case tc_longstring: {
        auto text = string_body(tag == tc_longstring);
        if (!text) return text.error();
        return JavaValue{*text};
      }
      case tc_enum: {
        auto described = class_descriptor(depth + 1);
        if (!described) return described.error();
        auto* constant = new_object(*described ? (*described)->name : "");
        if (auto added = assign(static_cast<const JavaObject*>(constant)); !added) return added.error();
        auto name = content(depth + 1);
        if (!name) return name.error();
        auto* text = std::get_if<const JavaObject*>(&*name);
        if (!text || !*text || (*text)->class_name != "java.lang.String") return failure("an enum has no name");
        constant->text = (*text)->text;
        return JavaValue{static_cast<const JavaObject*>(constant)};
      }
      case tc_array: {
        auto described = class_descriptor(depth + 1);
        if (!described) return described.error();
        if (!*described || (*described)->name.size() < 2 || (*described)->name[0] != '[') {
          return failure("an array has no array class");
        }
        auto* array = new_object((*described)->name);
        if (auto added = assign(static_cast<const JavaObject*>(array)); !added) return added.error();
        auto size = in_.i32();
        if (!size || *size < 0 || static_cast<std::size_t>(*size) > in_.remaining()) {
          return failure("an array's size is impossible");
        }
        const char element = (*described)->name[1];
        for (std::int32_t i = 0; i < *size; ++i) {
          auto value = (element == 'L' || element == '[') ? content(depth + 1) : primitive(element);
          if (!value) return value.error();
          array->elements.push_back(*value);
        }
        return JavaValue{static_cast<const JavaObject*>(array)};
      }
      case tc_object: return object(depth);
      default: return failure("an unexpected tag " + std::to_string(tag));
    }
  }

  Result<JavaValue> object(int depth) {
    auto described = class_descriptor(depth + 1);
    if (!described) return described.error();
    if (!*described) return failure("an object has no class");
    auto* created = new_object((*described)->name);
    if (auto added = assign(static_cast<const JavaObject*>(created)); !added) return added.error();
    // Field data comes from the topmost serializable class down.
    std::vector<const JavaClass*> chain;
    for (const JavaClass* c = *described; c; c = c->super) {
      if (chain.size() > static_cast<std::size_t>(max_depth)) return failure("a class has too many ancestors");
      chain.push_back(c);
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const JavaClass* c = *it;
      if ((c->flags & sc_serializable) == 0) continue;
      for (const auto& field : c->fields) {
        auto value = (field.type == 'L' || field.type == '[') ? content(depth + 1) : primitive(field.type);
        if (!value) return value.error();
        created->fields[field.name] = *value;
      }
      if ((c->flags & sc_write_method) != 0) {
        if (auto custom = annotations(depth, &created->custom_objects); !custom) return custom.error();
      }
    }
    return JavaValue{static_cast<const JavaObject*>(created)};
  }

  ByteCursor in_;
  const std::string& name_;
  JavaObjectStream& stream_;
  std::vector<Handle> handles_;
  std::vector<std::unique_ptr<JavaClass>> classes_;
};

Result<JavaObjectStream> JavaObjectStream::parse(std::string_view bytes, std::uint64_t file_offset,
                                                 const std::string& name) {
  JavaObjectStream stream;
  JavaStreamParser parser(bytes, file_offset, name, stream);
  if (auto parsed = parser.parse(); !parsed) return parsed.error();
  return stream;
}

}  // namespace spindle::yarn::logs
