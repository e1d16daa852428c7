// The application master's shelf of new tokens, as the job API's long polls use it.

#include "spindle/core/token_shelf.h"
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "spindle/core/clock.h"

namespace spindle {
namespace {

TEST(TokenShelf, AWaiterPastTheNewestGenerationIsCalledWhenTheNextComes) {
  TokenShelf shelf;
  std::uint64_t seen = 0;
  std::string got;
  const auto ticket = shelf.when_after(0, [&](std::uint64_t generation, const std::string& credentials) {
    seen = generation;
    got = credentials;
  });
  EXPECT_NE(ticket, 0u);
  EXPECT_EQ(seen, 0u);
  shelf.put("first");
  EXPECT_EQ(got, "first");
  EXPECT_EQ(seen, shelf.generation());
}

TEST(TokenShelf, AnExecutorBehindGetsTheNewestAtOnce) {
  TokenShelf shelf;
  shelf.put("first");
  shelf.put("second");
  std::string got;
  EXPECT_EQ(shelf.when_after(0, [&](std::uint64_t, const std::string& credentials) { got = credentials; }), 0u);
  EXPECT_EQ(got, "second");
}

TEST(TokenShelf, GenerationsFollowTheWallClockSoALaterAttemptsComeAfter) {
  // An executor of the first attempt holds that attempt's generation; the
  // next attempt's shelf starts anew and must still count past it.
  TokenShelf first_attempt;
  first_attempt.put("a");
  const auto held = first_attempt.generation();
  EXPECT_GE(held, static_cast<std::uint64_t>(wall_clock_ms()) - 60'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // attempts are seconds apart
  TokenShelf second_attempt;
  std::string got;
  second_attempt.when_after(held, [&](std::uint64_t, const std::string& credentials) { got = credentials; });
  second_attempt.put("b");
  EXPECT_EQ(got, "b");
  EXPECT_GT(second_attempt.generation(), held);
}

TEST(TokenShelf, AForgottenWaiterIsNotCalled) {
  TokenShelf shelf;
  bool called = false;
  const auto ticket = shelf.when_after(0, [&](std::uint64_t, const std::string&) { called = true; });
  shelf.forget(ticket);
  shelf.put("x");
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace spindle
