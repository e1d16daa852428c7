// Requests the proxy refuses before any reaches a TensorBoard.

#include <gtest/gtest.h>

#include "proxy_fixture.h"

namespace spindle::tbproxy::testing {
namespace {

class MalformedRequestTest : public ProxyTest {
 protected:
  // Each refusal is checked to have reached no upstream.
  std::string refused(const std::string& bytes) {
    int before = 0;
    {
      std::lock_guard lock(log().mutex);
      before = log().requests;
    }
    auto answer = raw_exchange(proxy_port(), bytes);
    std::lock_guard lock(log().mutex);
    EXPECT_EQ(log().requests, before) << "forwarded:\n" << bytes;
    return answer;
  }
};

std::string job_request(const std::string& fields) {
  return std::string("GET /tb/") + running_job + "/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields + "\r\n";
}

TEST_F(MalformedRequestTest, BadRequestLine) {
  const auto answer = refused("GARBAGE\r\n\r\n");
  EXPECT_EQ(status_line(answer), "HTTP/1.1 400 Bad Request");
  EXPECT_NE(answer.find("The request is not well-formed HTTP/1.1"), std::string::npos);
  EXPECT_EQ(status_line(refused("GET /tb/ HTTP/9.9\r\n\r\n")), "HTTP/1.1 400 Bad Request");
}

TEST_F(MalformedRequestTest, ConflictingLengthAndEncoding) {
  for (const char* fields :
       {"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
        "Transfer-Encoding: gzip\r\nContent-Length: 5\r\n", "Transfer-Encoding: gzip, chunked\r\nContent-Length: 5\r\n",
        "Transfer-Encoding: chunked, gzip\r\n", "Content-Length: 5\r\nContent-Length: 6\r\n",
        "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"}) {
    const auto answer = refused(job_request(fields) + "hello");
    EXPECT_EQ(status_line(answer), "HTTP/1.1 400 Bad Request") << fields;
  }
}

TEST_F(MalformedRequestTest, OversizedHeader) {
  const auto answer = refused(job_request("X-Big: " + std::string(20'000, 'a') + "\r\n"));
  EXPECT_EQ(status_line(answer), "HTTP/1.1 431 Request Header Fields Too Large");
  EXPECT_NE(answer.find("larger than the 16384 bytes this proxy takes."), std::string::npos);
}

TEST_F(MalformedRequestTest, OversizedBodyDeclared) {
  const auto answer = refused(job_request("Content-Length: 9437184\r\n"));
  EXPECT_EQ(status_line(answer), "HTTP/1.1 413 Payload Too Large");
}

TEST_F(MalformedRequestTest, AbsoluteFormNamingAnotherHost) {
  for (const char* target : {"http://example.com:80/", "http://127.0.0.1:22/tb/application_1_0001/",
                             "http://127.0.0.1/tb/application_1_0001/echo"}) {
    const auto answer = refused(std::string("GET ") + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    EXPECT_EQ(status_line(answer), "HTTP/1.1 400 Bad Request") << target;
    EXPECT_NE(answer.find("it never forwards to a host a request names."), std::string::npos);
  }
}

TEST_F(MalformedRequestTest, ConnectAndOtherMethods) {
  auto answer = refused("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
  EXPECT_EQ(status_line(answer), "HTTP/1.1 405 Method Not Allowed");
  EXPECT_NE(answer.find("Allow: GET, HEAD, POST"), std::string::npos);
  answer = refused(std::string("DELETE /tb/") + running_job + "/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_EQ(status_line(answer), "HTTP/1.1 405 Method Not Allowed");
}

TEST_F(MalformedRequestTest, PathsOutsideAnyJob) {
  for (const char* target : {"/", "/data/plugins_listing", "/tb/", "/tb/not-a-job/", "/tb/application_x_0001/"}) {
    const auto answer = refused(std::string("GET ") + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    EXPECT_EQ(status_line(answer), "HTTP/1.1 404 Not Found") << target;
    EXPECT_NE(answer.find("This proxy serves only /tb/&lt;application id&gt;/"), std::string::npos);
  }
  EXPECT_EQ(status_line(refused("GET /tb/application_1_9999/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")),
            "HTTP/1.1 404 Not Found");
}

TEST_F(MalformedRequestTest, HostFields) {
  EXPECT_EQ(status_line(refused(std::string("GET /tb/") + running_job + "/echo HTTP/1.1\r\n\r\n")),
            "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(status_line(refused(job_request("Host: 127.0.0.1\r\n"))), "HTTP/1.1 400 Bad Request");
  // A page of another site rebinding its name to this machine.
  const auto answer = refused(std::string("GET /tb/") + running_job + "/echo HTTP/1.1\r\nHost: evil.example\r\n\r\n");
  EXPECT_EQ(status_line(answer), "HTTP/1.1 403 Forbidden");
}

TEST_F(MalformedRequestTest, BrokenChunkedBody) {
  const auto answer = raw_exchange(proxy_port(), std::string("POST /tb/") + running_job +
                                                     "/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                     "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n");
  EXPECT_EQ(status_line(answer), "HTTP/1.1 400 Bad Request");
}

}  // namespace
}  // namespace spindle::tbproxy::testing
