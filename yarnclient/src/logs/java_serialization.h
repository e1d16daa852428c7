#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "spindle/core/result.h"

// A reader of Java's object serialization stream (protocol version 2, as
// ObjectOutputStream writes it), enough for the index of YARN's indexed
// log files: objects with fields and custom data, strings, enums, arrays.
// It builds a tree of plain values; no class is ever looked up or run.
namespace spindle::yarn::logs {

struct JavaObject;
// null, a primitive (integers and booleans as int64, floats as double), or an object.
using JavaValue = std::variant<std::monostate, std::int64_t, double, const JavaObject*>;

struct JavaObject {
  std::string class_name;  // "java.lang.String" for strings
  std::string text;        // a string's value, an enum's constant
  std::map<std::string, JavaValue> fields;
  // What a class's writeObject wrote after its fields: the objects only
  // (block data, such as a HashMap's capacity, is left out).
  std::vector<JavaValue> custom_objects;
  std::vector<JavaValue> elements;  // an array's

  const JavaObject* object(const std::string& field) const;
  std::optional<std::int64_t> integer(const std::string& field) const;
  // A field that holds a string, or nullopt.
  std::optional<std::string> string(const std::string& field) const;
};

// The parsed stream; its objects live as long as it does.
class JavaObjectStream {
 public:
  static Result<JavaObjectStream> parse(std::string_view bytes, std::uint64_t file_offset, const std::string& name);
  const JavaObject* root() const { return root_; }

 private:
  friend class JavaStreamParser;
  std::vector<std::unique_ptr<JavaObject>> objects_;
  const JavaObject* root_ = nullptr;
};

}  // namespace spindle::yarn::logs
