#include "spindle/hdfs_bridge/protocol.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "spindle/hdfs_bridge/frame_io.h"

namespace spindle::hdfs_bridge {
namespace {

std::string_view body_of(const std::string& frame) {
  EXPECT_GE(frame.size(), 4u);
  EXPECT_EQ(frame_length(frame.data()), frame.size() - 4);
  return std::string_view(frame).substr(4);
}

TEST(HdfsBridgeProtocol, RequestsDecodeAsTheyWereEncoded) {
  Request request;
  request.operation = Operation::write;
  request.path = "hdfs://spindle-ns/user/alice/ckpt-1.data-00000-of-00001";
  request.second_path = "";
  request.offset = 5'000'000'000;  // past 32 bits
  request.length = 7;
  request.flag = true;
  request.data = std::string("\0\x01\xff bytes", 9);
  DecodeError error;
  const auto decoded = decode_request(body_of(encode(request)), error);
  ASSERT_TRUE(decoded) << error.message;
  EXPECT_EQ(decoded->operation, Operation::write);
  EXPECT_EQ(decoded->path, request.path);
  EXPECT_EQ(decoded->offset, request.offset);
  EXPECT_EQ(decoded->length, 7);
  EXPECT_TRUE(decoded->flag);
  EXPECT_EQ(decoded->data, request.data);
}

TEST(HdfsBridgeProtocol, RepliesDecodeAsTheyWereEncoded) {
  Reply reply;
  reply.outcome = Outcome::not_empty;
  reply.message = "/user/alice/runs is not empty";
  reply.status = Entry{"", true, 0, 1'764'000'000'000};
  reply.entries = {Entry{"events.out.tfevents.1", false, 1234, 1}, Entry{"variables", true, 0, 2}};
  reply.data = "abc";
  DecodeError error;
  const auto decoded = decode_reply(body_of(encode(reply)), error);
  ASSERT_TRUE(decoded) << error.message;
  EXPECT_EQ(decoded->outcome, Outcome::not_empty);
  EXPECT_EQ(decoded->message, reply.message);
  EXPECT_TRUE(decoded->status.directory);
  EXPECT_EQ(decoded->status.modified_ms, 1'764'000'000'000);
  ASSERT_EQ(decoded->entries.size(), 2u);
  EXPECT_EQ(decoded->entries[0].name, "events.out.tfevents.1");
  EXPECT_EQ(decoded->entries[0].length, 1234);
  EXPECT_TRUE(decoded->entries[1].directory);
  EXPECT_EQ(decoded->data, "abc");
}

TEST(HdfsBridgeProtocol, EachBrokenFrameNamesWhatIsWrong) {
  Request request;
  request.operation = Operation::read;
  request.path = "/x";
  const std::string body(body_of(encode(request)));
  DecodeError error;
  EXPECT_FALSE(decode_request(body.substr(0, 3), error));
  EXPECT_EQ(error.message, "the frame ends inside its path (4 bytes needed, 2 left)");

  error = {};
  EXPECT_FALSE(decode_request(body + "x", error));
  EXPECT_EQ(error.message, "1 bytes follow the last field");

  error = {};
  std::string unknown = body;
  unknown[0] = 42;
  EXPECT_FALSE(decode_request(unknown, error));
  EXPECT_EQ(error.message, "operation 42 is none this bridge knows");

  // A count of entries that the frame cannot hold is refused before anything is made for them.
  Reply reply;
  std::string reply_body(body_of(encode(reply)));
  const std::size_t count_at = 1 + 4 + 1 + (4 + 1 + 8 + 8);
  reply_body[count_at + 3] = 0x7f;
  error = {};
  EXPECT_FALSE(decode_reply(reply_body, error));
  EXPECT_NE(error.message.find("entries but holds"), std::string::npos) << error.message;
}

TEST(HdfsBridgeProtocol, NegativeOffsetsAreRefused) {
  Request request;
  request.operation = Operation::read;
  request.path = "/x";
  request.offset = -1;
  DecodeError error;
  EXPECT_FALSE(decode_request(body_of(encode(request)), error));
  EXPECT_EQ(error.message, "a negative offset or length (-1, 0)");
}

TEST(HdfsBridgeFrames, FramesAndDescriptorsCrossASocketPair) {
  int control[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, control), 0);
  int connection[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, connection), 0);
  std::string error;
  ASSERT_TRUE(send_descriptor(control[0], connection[1], error)) << error;
  ::close(connection[1]);
  const int received = receive_descriptor(control[1], error);
  ASSERT_GE(received, 0) << error;

  // A frame larger than a socket's buffer, written while the other side reads.
  Request request;
  request.operation = Operation::write;
  request.path = "/big";
  request.data.assign(3 * 1024 * 1024, 'x');
  std::thread writer([&] {
    std::string write_error;
    EXPECT_TRUE(write_all(connection[0], encode(request), write_error)) << write_error;
  });
  std::string body;
  ASSERT_EQ(read_frame(received, body, std::chrono::seconds(10), error), ReadOutcome::frame) << error;
  writer.join();
  DecodeError decode_error;
  const auto decoded = decode_request(body, decode_error);
  ASSERT_TRUE(decoded) << decode_error.message;
  EXPECT_EQ(decoded->data.size(), request.data.size());

  // A peer that closes between frames has closed; one that stops inside a frame has failed.
  ASSERT_TRUE(write_all(connection[0], std::string("\x10\x00\x00\x00", 4) + "abc", error));
  ::close(connection[0]);
  EXPECT_EQ(read_frame(received, body, std::chrono::seconds(10), error), ReadOutcome::failed);
  EXPECT_EQ(error, "the peer closed the connection inside a frame");
  ::close(received);

  ::close(control[0]);
  error.clear();
  EXPECT_EQ(receive_descriptor(control[1], error), -1);
  EXPECT_EQ(error, "");
  ::close(control[1]);
}

TEST(HdfsBridgeFrames, ASilentPeerIsGivenUpOnAfterItsPatience) {
  int pair[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  std::string body;
  std::string error;
  EXPECT_EQ(read_frame(pair[0], body, std::chrono::milliseconds(50), error), ReadOutcome::failed);
  EXPECT_EQ(error, "no answer for 0 s");
  ::close(pair[0]);
  ::close(pair[1]);
}

TEST(HdfsBridgeFrames, AFrameLargerThanAllowedIsRefusedUnread) {
  int pair[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  std::string error;
  ASSERT_TRUE(write_all(pair[1], std::string("\xff\xff\xff\xff", 4), error));
  std::string body;
  EXPECT_EQ(read_frame(pair[0], body, std::chrono::seconds(5), error), ReadOutcome::failed);
  EXPECT_EQ(error, "a frame of 4294967295 bytes, more than the 83886080 allowed");
  ::close(pair[0]);
  ::close(pair[1]);
}

}  // namespace
}  // namespace spindle::hdfs_bridge
