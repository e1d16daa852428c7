# Warnings every target of ours compiles with.
add_library(spindle_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(spindle_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                                    -Wold-style-cast -Wcast-align -Woverloaded-virtual)
endif()
