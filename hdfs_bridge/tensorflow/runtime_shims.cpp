// The few pieces of the C++ runtime the plugin needs, defined here so that
// none of libstdc++'s archive is linked in: its objects would ask for
// C library functions newer than RHEL 8's glibc 2.28 (arc4random,
// __libc_single_threaded, _dl_find_object). The plugin is built without
// exceptions; what would throw ends the process with a sentence instead,
// as TensorFlow itself does when memory runs out. The version script keeps
// all of these local to the plugin.

#include <bits/functexcept.h>

#include <cstdio>
#include <cstdlib>
#include <new>

namespace {

[[noreturn]] void fatal(const char* what) {
  std::fprintf(stderr, "spindle hdfs plugin: %s\n", what);
  std::abort();
}

}  // namespace

namespace std {

void __throw_bad_alloc() {
  fatal("out of memory");
}
void __throw_length_error(const char* what) {
  fatal(what);
}
void __throw_logic_error(const char* what) {
  fatal(what);
}

}  // namespace std

void* operator new(std::size_t size) {
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  fatal("out of memory");
}
void operator delete(void* memory) noexcept {
  std::free(memory);
}
void operator delete(void* memory, std::size_t) noexcept {
  std::free(memory);
}
