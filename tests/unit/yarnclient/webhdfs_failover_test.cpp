// WebHDFS against an HA nameservice of scripted NameNodes: a standby's
// refusal and a refused connection send requests to the other NameNode,
// which is remembered; with no active NameNode the error names each; an
// upload cut by a failover starts again and leaves no partial file.

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <string>

#include "closed_port.h"
#include "fake_http_server.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::yarn {
namespace {

using testing::FakeHttpServer;

const std::string standby_body =
    R"({"RemoteException":{"exception":"StandbyException","javaClassName":"org.apache.hadoop.ipc.StandbyException",)"
    R"("message":"Operation category READ is not supported in state standby"}})";

std::string standby(const std::string&) {
  return FakeHttpServer::answer(403, "Forbidden", standby_body, "Content-Type: application/json\r\n");
}

std::string active(const std::string& request) {
  if (request.find("op=GETFILESTATUS") != std::string::npos) {
    return FakeHttpServer::answer(200, "OK", R"({"FileStatus":{"type":"FILE","length":7,"pathSuffix":""}})");
  }
  if (request.find("op=MKDIRS") != std::string::npos) return FakeHttpServer::answer(200, "OK", R"({"boolean":true})");
  return FakeHttpServer::answer(404, "Not Found", "");
}

std::string refusing_address() {
  return "127.0.0.1:" + std::to_string(testing::closed_port());
}

HadoopConfiguration nameservice(const std::string& nn1, const std::string& nn2) {
  HadoopConfiguration configuration;
  configuration.set("fs.defaultFS", "hdfs://spindle-ns");
  configuration.set("dfs.nameservices", "spindle-ns");
  configuration.set("dfs.ha.namenodes.spindle-ns", "nn1,nn2");
  configuration.set("dfs.namenode.rpc-address.spindle-ns.nn1", "127.0.0.1:8020");
  configuration.set("dfs.namenode.rpc-address.spindle-ns.nn2", "127.0.0.1:8021");
  configuration.set("dfs.namenode.http-address.spindle-ns.nn1", nn1);
  configuration.set("dfs.namenode.http-address.spindle-ns.nn2", nn2);
  configuration.set("ipc.client.connect.timeout", "2000");
  return configuration;
}

TEST(WebHdfsFailover, ReadsTheNameserviceFromTheConfiguration) {
  auto hdfs = WebHdfs::from_configuration(nameservice("nn1.example:9870", "nn2.example:9870"));
  ASSERT_TRUE(hdfs.ok()) << hdfs.error().message;
  EXPECT_EQ(hdfs->options().nameservice, "spindle-ns");
  EXPECT_EQ(hdfs->options().namenodes, (std::vector<std::string>{"nn1.example:9870", "nn2.example:9870"}));
  // YARN's NodeManagers resolve the nameservice themselves.
  EXPECT_EQ(hdfs->uri("/user/me/a.txt"), "hdfs://spindle-ns/user/me/a.txt");
}

TEST(WebHdfsFailover, AStandbysRefusalGoesToTheOtherWhichIsRemembered) {
  FakeHttpServer nn1(standby);
  FakeHttpServer nn2(active);
  auto hdfs = WebHdfs::from_configuration(nameservice(nn1.address(), nn2.address()));
  ASSERT_TRUE(hdfs.ok()) << hdfs.error().message;
  auto status = hdfs->status("/a.txt");
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(status->length, 7);
  EXPECT_EQ(hdfs->active_namenode(), nn2.address());
  // The next requests, from this object or a copy, go to nn2 first.
  WebHdfs copy = *hdfs;
  ASSERT_TRUE(copy.mkdirs("/d").ok());
  ASSERT_TRUE(hdfs->exists("/a.txt").ok());
  EXPECT_EQ(nn1.requests().size(), 1u);
  EXPECT_EQ(nn2.requests().size(), 3u);
}

TEST(WebHdfsFailover, ARefusedConnectionGoesToTheOther) {
  FakeHttpServer nn2(active);
  auto hdfs = WebHdfs::from_configuration(nameservice(refusing_address(), nn2.address()));
  ASSERT_TRUE(hdfs.ok()) << hdfs.error().message;
  auto status = hdfs->status("/a.txt");
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(hdfs->active_namenode(), nn2.address());
}

TEST(WebHdfsFailover, WithNoActiveNameNodeOneSentenceNamesBoth) {
  FakeHttpServer nn1(standby);
  const std::string nn2 = refusing_address();
  auto hdfs = WebHdfs::from_configuration(nameservice(nn1.address(), nn2));
  ASSERT_TRUE(hdfs.ok()) << hdfs.error().message;
  auto status = hdfs->status("/a.txt");
  ASSERT_FALSE(status.ok());
  const auto& message = status.error().message;
  EXPECT_TRUE(message.starts_with("looking at /a.txt in HDFS: no NameNode of the nameservice spindle-ns is active ("))
      << message;
  EXPECT_NE(message.find(nn1.address() + " is standby"), std::string::npos) << message;
  EXPECT_NE(message.find(nn2 + " did not answer"), std::string::npos) << message;
  EXPECT_NE(message.find("hdfs haadmin -getAllServiceState"), std::string::npos) << message;
}

TEST(WebHdfsFailover, AnUploadCutByAFailoverStartsAgainAndLeavesNoPartialFile) {
  // The DataNode fails the first transfer (its NameNode went standby under
  // it), then takes the second whole.
  std::atomic<int> transfers = 0;
  std::string received;
  FakeHttpServer datanode([&](const std::string& request) {
    if (++transfers == 1) {
      return FakeHttpServer::answer(
          403, "Forbidden",
          R"({"RemoteException":{"exception":"StandbyException","message":"Operation category WRITE is not supported in state standby"}})");
    }
    received = request.substr(request.find("\r\n\r\n") + 4);
    return FakeHttpServer::answer(201, "Created", "");
  });
  std::atomic<int> deletes = 0;
  FakeHttpServer nn2([&](const std::string& request) {
    if (request.find("op=CREATE") != std::string::npos) {
      return FakeHttpServer::answer(307, "Temporary Redirect", "",
                                    "Location: http://" + datanode.address() + "/webhdfs/v1/f?op=CREATE\r\n");
    }
    if (request.find("op=DELETE") != std::string::npos) {
      ++deletes;
      return FakeHttpServer::answer(200, "OK", R"({"boolean":true})");
    }
    return FakeHttpServer::answer(404, "Not Found", "");
  });
  FakeHttpServer nn1(standby);
  auto hdfs = WebHdfs::from_configuration(nameservice(nn1.address(), nn2.address()));
  ASSERT_TRUE(hdfs.ok()) << hdfs.error().message;
  auto written = hdfs->write("/f", "the whole file", false);
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(transfers.load(), 2);
  EXPECT_EQ(deletes.load(), 1);  // the cut one, before starting again
  EXPECT_EQ(received, "the whole file");
}

// A NameNode that should do the transfer's DataNode side over again with them: each test's DataNode
// answers `refusals` transfers with `refusal`, then takes the data.
struct RetriedUpload {
  int transfers = 0;
  bool written = false;
  std::string message;
};

RetriedUpload upload_through_refusals(int refusals, const std::string& refusal) {
  std::atomic<int> transfers = 0;
  FakeHttpServer datanode([&](const std::string&) {
    if (++transfers <= refusals) return FakeHttpServer::answer(403, "Forbidden", refusal);
    return FakeHttpServer::answer(201, "Created", "");
  });
  FakeHttpServer nn2([&](const std::string& request) {
    if (request.find("op=CREATE") != std::string::npos) {
      return FakeHttpServer::answer(307, "Temporary Redirect", "",
                                    "Location: http://" + datanode.address() + "/webhdfs/v1/f?op=CREATE\r\n");
    }
    return FakeHttpServer::answer(200, "OK", R"({"boolean":true})");
  });
  FakeHttpServer nn1(standby);
  auto hdfs = WebHdfs::from_configuration(nameservice(nn1.address(), nn2.address()));
  if (!hdfs) return {0, false, hdfs.error().message};
  auto written = hdfs->write("/f", "the whole file", false);
  return {transfers.load(), written.ok(), written ? "" : written.error().message};
}

TEST(WebHdfsFailover, AnUploadGoesOnThroughAFailoverThatTakesSeconds) {
  // The DataNode's own client reaches the NameNode that went standby twice more, and says so
  // inside a wrapped exception whose name is not StandbyException.
  const auto upload = upload_through_refusals(
      2, R"({"RemoteException":{"exception":"RemoteException","message":"Operation category WRITE is not )"
         R"(supported in state standby. Visit https://s.apache.org/sbnn-error\n\tat org.apache.hadoop..."}})");
  EXPECT_TRUE(upload.written) << upload.message;
  EXPECT_EQ(upload.transfers, 3);
}

TEST(WebHdfsFailover, AnUploadRefusedForAnotherReasonIsNotTriedAgain) {
  const auto upload = upload_through_refusals(
      1, R"({"RemoteException":{"exception":"AccessControlException","message":"Permission denied: user=bob"}})");
  EXPECT_FALSE(upload.written);
  EXPECT_EQ(upload.transfers, 1);
  EXPECT_NE(upload.message.find("Permission denied: user=bob"), std::string::npos) << upload.message;
}

TEST(WebHdfsFailover, AnUploadGivesUpAfterFourTransfersRefusedByAStandby) {
  const auto upload = upload_through_refusals(
      10, R"({"RemoteException":{"exception":"StandbyException","message":"Operation category WRITE is not )"
          R"(supported in state standby"}})");
  EXPECT_FALSE(upload.written);
  EXPECT_EQ(upload.transfers, 4);
  EXPECT_NE(upload.message.find("in state standby"), std::string::npos) << upload.message;
}

// A DataNode cut off from the network, which the NameNode has not yet declared dead: it is named
// once, cannot be reached, and the read goes on from another that holds the block. The next read
// leaves it out from its first request: a long read does not wait for the same node again.
TEST(WebHdfsDataNodes, AReadGoesOnFromAnotherDataNodeWhenTheFirstCannotBeReached) {
  FakeHttpServer datanode([](const std::string&) { return FakeHttpServer::answer(200, "OK", "the block's bytes"); });
  // A port nothing listens on, as good as an unreachable node.
  const std::string unreachable = "127.0.0.1:" + std::to_string(testing::closed_port());
  std::vector<std::string> opens;
  std::mutex opens_mutex;
  FakeHttpServer nn2([&](const std::string& request) {
    const std::string line = request.substr(0, request.find("\r\n"));
    {
      std::lock_guard lock(opens_mutex);
      opens.push_back(line);
    }
    const bool excluding = line.find("excludedatanodes=127.0.0.1") != std::string::npos;
    return FakeHttpServer::answer(
        307, "Temporary Redirect", "",
        "Location: http://" + (excluding ? datanode.address() : unreachable) + "/webhdfs/v1/f?op=OPEN\r\n");
  });
  FakeHttpServer nn1(standby);
  auto hdfs = WebHdfs::from_configuration(nameservice(nn1.address(), nn2.address()));
  ASSERT_TRUE(hdfs.ok()) << hdfs.error().message;
  auto read = hdfs->read_all("/f");
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(*read, "the block's bytes");
  auto range = hdfs->read_range("/f", 0, 5);
  ASSERT_TRUE(range.ok()) << range.error().message;
  std::lock_guard lock(opens_mutex);
  ASSERT_EQ(opens.size(), 3u);
  EXPECT_EQ(opens[0].find("excludedatanodes"), std::string::npos) << opens[0];
  EXPECT_NE(opens[1].find("excludedatanodes=127.0.0.1"), std::string::npos) << opens[1];
  EXPECT_NE(opens[2].find("excludedatanodes=127.0.0.1"), std::string::npos) << opens[2];
}

}  // namespace
}  // namespace spindle::yarn
