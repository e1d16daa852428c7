#pragma once

// The parts of TensorFlow's modular file system C interface that this plugin
// uses, declared here so that the build needs no TensorFlow. The layouts and
// names are TensorFlow's (tensorflow/c/experimental/filesystem/
// filesystem_interface.h, tf_status.h, tf_file_statistics.h in its wheels):
// the loader checks only the sizes and version numbers below, so every table
// must have exactly TensorFlow's members, in TensorFlow's order, whether this
// plugin fills them or leaves them null. Version 0 of each table, unchanged
// from TensorFlow 2.4 to 2.21.

#include <cstddef>
#include <cstdint>

extern "C" {

struct TF_Status;
// TensorFlow's status codes (absl::StatusCode), those the plugin reports.
enum TF_Code {
  TF_OK = 0,
  TF_INVALID_ARGUMENT = 3,
  TF_DEADLINE_EXCEEDED = 4,
  TF_NOT_FOUND = 5,
  TF_ALREADY_EXISTS = 6,
  TF_PERMISSION_DENIED = 7,
  TF_RESOURCE_EXHAUSTED = 8,
  TF_FAILED_PRECONDITION = 9,
  TF_OUT_OF_RANGE = 11,
  TF_UNIMPLEMENTED = 12,
  TF_INTERNAL = 13,
  TF_UNAVAILABLE = 14,
  TF_UNAUTHENTICATED = 16,
};

struct TF_FileStatistics {
  std::int64_t length;
  std::int64_t mtime_nsec;
  bool is_directory;
};

struct TF_RandomAccessFile {
  void* plugin_file;
};
struct TF_WritableFile {
  void* plugin_file;
};
struct TF_ReadOnlyMemoryRegion {
  void* plugin_memory_region;
};
struct TF_Filesystem {
  void* plugin_filesystem;
};
struct TF_TransactionToken;
struct TF_Filesystem_Option;

struct TF_RandomAccessFileOps {
  void (*cleanup)(TF_RandomAccessFile*);
  std::int64_t (*read)(const TF_RandomAccessFile*, std::uint64_t offset, std::size_t n, char* buffer, TF_Status*);
};

struct TF_WritableFileOps {
  void (*cleanup)(TF_WritableFile*);
  void (*append)(const TF_WritableFile*, const char* buffer, std::size_t n, TF_Status*);
  std::int64_t (*tell)(const TF_WritableFile*, TF_Status*);
  void (*flush)(const TF_WritableFile*, TF_Status*);
  void (*sync)(const TF_WritableFile*, TF_Status*);
  void (*close)(const TF_WritableFile*, TF_Status*);
};

struct TF_ReadOnlyMemoryRegionOps {
  void (*cleanup)(TF_ReadOnlyMemoryRegion*);
  const void* (*data)(const TF_ReadOnlyMemoryRegion*);
  std::uint64_t (*length)(const TF_ReadOnlyMemoryRegion*);
};

struct TF_FilesystemOps {
  void (*init)(TF_Filesystem*, TF_Status*);
  void (*cleanup)(TF_Filesystem*);
  void (*new_random_access_file)(const TF_Filesystem*, const char* path, TF_RandomAccessFile*, TF_Status*);
  void (*new_writable_file)(const TF_Filesystem*, const char* path, TF_WritableFile*, TF_Status*);
  void (*new_appendable_file)(const TF_Filesystem*, const char* path, TF_WritableFile*, TF_Status*);
  void (*new_read_only_memory_region_from_file)(const TF_Filesystem*, const char* path, TF_ReadOnlyMemoryRegion*,
                                                TF_Status*);
  void (*create_dir)(const TF_Filesystem*, const char* path, TF_Status*);
  void (*recursively_create_dir)(const TF_Filesystem*, const char* path, TF_Status*);
  void (*delete_file)(const TF_Filesystem*, const char* path, TF_Status*);
  void (*delete_dir)(const TF_Filesystem*, const char* path, TF_Status*);
  void (*delete_recursively)(const TF_Filesystem*, const char* path, std::uint64_t* undeleted_files,
                             std::uint64_t* undeleted_dirs, TF_Status*);
  void (*rename_file)(const TF_Filesystem*, const char* from, const char* to, TF_Status*);
  void (*copy_file)(const TF_Filesystem*, const char* from, const char* to, TF_Status*);
  void (*path_exists)(const TF_Filesystem*, const char* path, TF_Status*);
  bool (*paths_exist)(const TF_Filesystem*, char** paths, int count, TF_Status** statuses);
  void (*stat)(const TF_Filesystem*, const char* path, TF_FileStatistics*, TF_Status*);
  bool (*is_directory)(const TF_Filesystem*, const char* path, TF_Status*);
  std::int64_t (*get_file_size)(const TF_Filesystem*, const char* path, TF_Status*);
  char* (*translate_name)(const TF_Filesystem*, const char* uri);
  int (*get_children)(const TF_Filesystem*, const char* path, char*** entries, TF_Status*);
  int (*get_matching_paths)(const TF_Filesystem*, const char* glob, char*** entries, TF_Status*);
  void (*flush_caches)(const TF_Filesystem*);
  int (*start_transaction)(const TF_Filesystem*, TF_TransactionToken**, TF_Status*);
  int (*end_transaction)(const TF_Filesystem*, TF_TransactionToken*, TF_Status*);
  int (*add_to_transaction)(const TF_Filesystem*, const char* path, TF_TransactionToken*, TF_Status*);
  int (*get_transaction_for_path)(const TF_Filesystem*, const char* path, TF_TransactionToken**, TF_Status*);
  int (*get_or_start_transaction_for_path)(const TF_Filesystem*, const char* path, TF_TransactionToken**, TF_Status*);
  char* (*decode_transaction_token)(const TF_Filesystem*, const TF_TransactionToken*);
  void (*get_filesystem_configuration)(const TF_Filesystem*, TF_Filesystem_Option**, int*, TF_Status*);
  void (*set_filesystem_configuration)(const TF_Filesystem*, const TF_Filesystem_Option*, int, TF_Status*);
  void (*get_filesystem_configuration_option)(const TF_Filesystem*, const char* key, TF_Filesystem_Option**,
                                              TF_Status*);
  void (*set_filesystem_configuration_option)(const TF_Filesystem*, const TF_Filesystem_Option*, TF_Status*);
  void (*get_filesystem_configuration_keys)(const TF_Filesystem*, char** keys, int* count, TF_Status*);
};

// One scheme's tables, with the version of each (all 0) and its size.
struct TF_FilesystemPluginOps {
  char* scheme;
  int filesystem_ops_abi;
  int filesystem_ops_api;
  std::size_t filesystem_ops_size;
  TF_FilesystemOps* filesystem_ops;
  int random_access_file_ops_abi;
  int random_access_file_ops_api;
  std::size_t random_access_file_ops_size;
  TF_RandomAccessFileOps* random_access_file_ops;
  int writable_file_ops_abi;
  int writable_file_ops_api;
  std::size_t writable_file_ops_size;
  TF_WritableFileOps* writable_file_ops;
  int read_only_memory_region_ops_abi;
  int read_only_memory_region_ops_api;
  std::size_t read_only_memory_region_ops_size;
  TF_ReadOnlyMemoryRegionOps* read_only_memory_region_ops;
};

// What TF_InitPlugin fills in: the schemes, and the allocator TensorFlow
// frees with what the plugin hands it (names, lists of children, the tables).
struct TF_FilesystemPluginInfo {
  std::size_t num_schemes;
  TF_FilesystemPluginOps* ops;
  void* (*plugin_memory_allocate)(std::size_t size);
  void (*plugin_memory_free)(void* ptr);
};

}  // extern "C"
