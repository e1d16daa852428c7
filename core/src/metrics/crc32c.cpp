#include "metrics/crc32c.h"

#include <array>
#include <cstring>

namespace spindle::tfevents {
namespace {

constexpr std::uint32_t reflected_polynomial = 0x82f63b78u;

// Slicing-by-8: table k advances the CRC over a byte followed by k zero bytes,
// so eight bytes fold in with eight lookups and no dependency between them.
using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables make_tables() {
  Tables tables{};
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) ? reflected_polynomial : 0u);
    tables[0][byte] = crc;
  }
  for (std::size_t k = 1; k < 8; ++k) {
    for (std::size_t byte = 0; byte < 256; ++byte) {
      const std::uint32_t previous = tables[k - 1][byte];
      tables[k][byte] = (previous >> 8) ^ tables[0][previous & 0xffu];
    }
  }
  return tables;
}

constexpr Tables tables = make_tables();

std::uint64_t load_le64(const unsigned char* bytes) {
  std::uint64_t word = 0;
  for (int i = 7; i >= 0; --i) word = (word << 8) | bytes[i];
  return word;
}

std::uint32_t extend_portable(std::uint32_t crc, const unsigned char* bytes, std::size_t size) {
  while (size >= 8) {
    const std::uint64_t word = load_le64(bytes) ^ crc;
    crc = tables[7][word & 0xff] ^ tables[6][(word >> 8) & 0xff] ^ tables[5][(word >> 16) & 0xff] ^
          tables[4][(word >> 24) & 0xff] ^ tables[3][(word >> 32) & 0xff] ^ tables[2][(word >> 40) & 0xff] ^
          tables[1][(word >> 48) & 0xff] ^ tables[0][word >> 56];
    bytes += 8;
    size -= 8;
  }
  while (size-- > 0) crc = (crc >> 8) ^ tables[0][(crc ^ *bytes++) & 0xff];
  return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SPINDLE_HAVE_CRC32_INSTRUCTION 1

__attribute__((target("sse4.2"))) std::uint32_t extend_with_instruction(std::uint32_t crc, const unsigned char* bytes,
                                                                        std::size_t size) {
  std::uint64_t wide = crc;
  while (size >= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes, 8);
    wide = __builtin_ia32_crc32di(wide, word);
    bytes += 8;
    size -= 8;
  }
  auto narrow = static_cast<std::uint32_t>(wide);
  while (size-- > 0) narrow = __builtin_ia32_crc32qi(narrow, *bytes++);
  return narrow;
}

bool cpu_has_crc32_instruction() {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

const unsigned char* bytes_of(std::string_view data) {
  return reinterpret_cast<const unsigned char*>(data.data());
}

}  // namespace

std::uint32_t crc32c_portable(std::string_view data) {
  return ~extend_portable(~0u, bytes_of(data), data.size());
}

std::uint32_t crc32c(std::string_view data) {
#ifdef SPINDLE_HAVE_CRC32_INSTRUCTION
  if (cpu_has_crc32_instruction()) return ~extend_with_instruction(~0u, bytes_of(data), data.size());
#endif
  return crc32c_portable(data);
}

}  // namespace spindle::tfevents
