# Warnings every target of ours compiles with.
add_library(spindle_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(spindle_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                                    -Wold-style-cast -Wcast-align -Woverloaded-virtual)
endif()
# GCC 12 reports impossible memcpy overlaps inside std::string concatenation
# at -O2 (its bug 105651); the warning says nothing about our code there.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(spindle_warnings INTERFACE -Wno-restrict)
endif()
