// The bridge's read-ahead: a window fetched ahead is served once, exactly
// where it was started; anything else reads as usual.

#include <gtest/gtest.h>

#include <atomic>

#include "read_ahead.h"

namespace spindle::hdfs_bridge {
namespace {

ReadAhead::Fetch bytes(std::string text, std::atomic<int>* calls = nullptr) {
  return [text = std::move(text), calls]() -> Result<std::string> {
    if (calls) ++*calls;
    return text;
  };
}

TEST(ReadAhead, AWindowFetchedAheadIsServedOnceWhereItWasStarted) {
  ReadAhead ahead;
  std::atomic<int> calls{0};
  ahead.start("/data/a", 100, 8, bytes("abcdefgh", &calls));
  ahead.start("/data/a", 100, 8, bytes("other", &calls));  // one fetch for one place
  EXPECT_EQ(ahead.take("/data/a", 100, 8), "abcdefgh");
  EXPECT_EQ(ahead.take("/data/a", 100, 8), std::nullopt);
  EXPECT_EQ(calls.load(), 1);
}

TEST(ReadAhead, ShorterAsksGetTheirPartAndLongerOnesReadAsUsual) {
  ReadAhead ahead;
  ahead.start("/data/a", 0, 8, bytes("abcdefgh"));
  EXPECT_EQ(ahead.take("/data/a", 0, 3), "abc");
  ahead.start("/data/a", 0, 8, bytes("abcdefgh"));
  EXPECT_EQ(ahead.take("/data/a", 0, 9), std::nullopt);
  EXPECT_EQ(ahead.take("/data/a", 0, 8), std::nullopt) << "a window not served is dropped, not kept";
}

TEST(ReadAhead, OtherPlacesAndFailedFetchesReadAsUsual) {
  ReadAhead ahead;
  ahead.start("/data/a", 0, 4, bytes("abcd"));
  EXPECT_EQ(ahead.take("/data/b", 0, 4), std::nullopt);
  EXPECT_EQ(ahead.take("/data/a", 4, 4), std::nullopt);
  ahead.start("/data/c", 0, 4, [] { return Result<std::string>(make_error("the DataNode went away")); });
  EXPECT_EQ(ahead.take("/data/c", 0, 4), std::nullopt);
}

TEST(ReadAhead, WhatTheBridgeChangesIsForgotten) {
  ReadAhead ahead;
  ahead.start("/data/a", 0, 4, bytes("abcd"));
  ahead.start("/data/b", 0, 4, bytes("wxyz"));
  ahead.forget("/data/a");
  EXPECT_EQ(ahead.take("/data/a", 0, 4), std::nullopt);
  EXPECT_EQ(ahead.take("/data/b", 0, 4), "wxyz");
}

TEST(ReadAhead, OnlyAFewWindowsAreKeptAtOnce) {
  ReadAhead ahead;
  std::atomic<int> calls{0};
  for (int window = 0; window < 10; ++window) ahead.start("/data/a", window * 4, 4, bytes("abcd", &calls));
  int served = 0;
  for (int window = 0; window < 10; ++window) served += ahead.take("/data/a", window * 4, 4).has_value();
  EXPECT_EQ(served, 4);
  EXPECT_EQ(calls.load(), 4);
}

}  // namespace
}  // namespace spindle::hdfs_bridge
