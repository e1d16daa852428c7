// Aggregated logs in YARN's indexed format (LogAggregationIndexedFileController):
// a 32-byte SHA-256 of the application id, every log compressed on its
// own, then a Java-serialized index, its length and the hash again.

#include <openssl/sha.h>

#include "logs/block_codec.h"
#include "logs/byte_cursor.h"
#include "logs/java_serialization.h"
#include "spindle/yarn/aggregated_logs.h"

namespace spindle::yarn {
namespace {

constexpr std::size_t hash_size = 32;
constexpr std::string_view controller =
    "org.apache.hadoop.yarn.logaggregation.filecontroller.ifile."
    "LogAggregationIndexedFileController$";
constexpr std::size_t max_index_size = 256 * 1024 * 1024;

std::string application_hash(const std::string& application_id) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(application_id.data()), application_id.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof digest);
}

bool is_class(const logs::JavaObject* object, std::string_view name) {
  return object && object->class_name.size() == controller.size() + name.size() &&
         object->class_name.starts_with(controller) && object->class_name.ends_with(name);
}

// The objects a java.util list or map wrote in its custom data.
const std::vector<logs::JavaValue>* collection(const logs::JavaObject* object) {
  if (!object) return nullptr;
  return &object->custom_objects;
}

const logs::JavaObject* as_object(const logs::JavaValue& value) {
  auto* object = std::get_if<const logs::JavaObject*>(&value);
  return object ? *object : nullptr;
}

}  // namespace

Result<std::vector<AggregatedLog>> read_indexed_logs(ByteSource& file, const std::string& name,
                                                     const std::string& application_id,
                                                     const AggregatedLogFilter& filter) {
  const auto size = file.size();
  if (size < 2 * hash_size + 4) {
    return make_error(name + " is " + std::to_string(size) +
                      " bytes long, too short for an aggregated log (indexed format): it was cut short or is still "
                      "being written");
  }
  const auto expected_hash = application_hash(application_id);
  auto tail = file.read(size - hash_size - 4, hash_size + 4);
  if (!tail) return tail.error();
  logs::ByteCursor trailer(*tail, size - hash_size - 4);
  const auto index_size = trailer.i32();
  if (trailer.bytes(hash_size) != expected_hash) {
    return make_error(name + " does not end in the mark of " + application_id + " (at byte " +
                      std::to_string(size - hash_size) +
                      "): it is cut short, being written, or belongs to another application");
  }
  if (!index_size || *index_size <= 0 || static_cast<std::uint64_t>(*index_size) > size - 2 * hash_size - 4 ||
      static_cast<std::size_t>(*index_size) > max_index_size) {
    return make_error(name + " gives its index a size of " + std::to_string(index_size.value_or(0)) + " at byte " +
                      std::to_string(size - hash_size - 4) + ", which does not fit the file; it is damaged");
  }
  const auto index_offset = size - hash_size - 4 - static_cast<std::uint64_t>(*index_size);
  auto index_bytes = file.read(index_offset, static_cast<std::size_t>(*index_size));
  if (!index_bytes) return index_bytes.error();
  auto index = logs::JavaObjectStream::parse(*index_bytes, index_offset, name);
  if (!index) return index.error();
  const auto* meta = index->root();
  if (!is_class(meta, "IndexedLogsMeta")) {
    return make_error(name + "'s index at byte " + std::to_string(index_offset) + " is a " + meta->class_name +
                      ", not YARN's IndexedLogsMeta; the file is not an aggregated log");
  }
  const std::string algorithm = meta->string("compressName").value_or("none");
  const auto damaged = [&](const std::string& what) {
    return make_error(name + "'s index at byte " + std::to_string(index_offset) + " is damaged: " + what);
  };
  const auto* cycles = collection(meta->object("logMetas"));
  if (!cycles) return damaged("it lists no aggregation");
  std::vector<AggregatedLog> logs;
  for (const auto& cycle_value : *cycles) {
    const auto* cycle = as_object(cycle_value);
    if (!is_class(cycle, "IndexedPerAggregationLogMeta")) return damaged("an aggregation is not described");
    const auto* containers = collection(cycle->object("logMetas"));
    if (!containers || containers->size() % 2 != 0) return damaged("an aggregation's containers are not a map");
    for (std::size_t i = 0; i < containers->size(); i += 2) {
      const auto* files = collection(as_object((*containers)[i + 1]));
      if (!files) return damaged("a container lists no files");
      for (const auto& file_value : *files) {
        const auto* entry = as_object(file_value);
        if (!is_class(entry, "IndexedFileLogMeta")) return damaged("a log file is not described");
        const auto container = entry->string("containerId");
        const auto file_name = entry->string("fileName");
        const auto start = entry->integer("startIndex");
        const auto stored = entry->integer("fileCompressedSize");
        const auto length = entry->integer("fileSize");
        if (!container || !file_name || !start || !stored || !length) return damaged("a log file lacks a field");
        if (!filter.wants(*container, *file_name)) continue;
        if (*start < static_cast<std::int64_t>(hash_size) || *stored < 0 || *length < 0 ||
            static_cast<std::uint64_t>(*start) > index_offset ||
            static_cast<std::uint64_t>(*stored) > index_offset - static_cast<std::uint64_t>(*start)) {
          return make_error(name + " places " + *container + "'s " + *file_name + " at byte " + std::to_string(*start) +
                            " (" + std::to_string(*stored) + " bytes), outside its data; the file is damaged");
        }
        AggregatedLog log;
        log.container = *container;
        log.file = *file_name;
        log.length = static_cast<std::uint64_t>(*length);
        log.modified_ms = entry->integer("lastModifiedTime").value_or(0);
        if (filter.contents) {
          auto bytes = file.read(static_cast<std::uint64_t>(*start), static_cast<std::size_t>(*stored));
          if (!bytes) return bytes.error();
          auto contents = logs::decompress(
              *bytes, algorithm, log.length,
              name + " (" + log.container + "'s " + log.file + " at byte " + std::to_string(*start) + ")");
          if (!contents) return contents.error();
          log.contents = std::move(*contents);
        }
        logs.push_back(std::move(log));
      }
    }
  }
  return logs;
}

Result<std::vector<AggregatedLog>> read_aggregated_logs(ByteSource& file, const std::string& name,
                                                        const std::string& application_id,
                                                        const AggregatedLogFilter& filter) {
  if (file.size() >= hash_size) {
    auto head = file.read(0, hash_size);
    if (!head) return head.error();
    if (*head == application_hash(application_id)) return read_indexed_logs(file, name, application_id, filter);
  }
  return read_tfile_logs(file, name, filter);
}

}  // namespace spindle::yarn
