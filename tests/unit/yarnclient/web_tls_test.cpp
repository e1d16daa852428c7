// The web servers' HTTPS policies and the truststore of ssl-client.xml:
// PEM and PKCS12 read, everything else one sentence.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "spindle/yarn/web_tls.h"

namespace spindle::yarn {
namespace {

namespace fs = std::filesystem;

class Truststores : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("spindle-web-tls-" + std::to_string(::getpid()));
    fs::create_directories(directory_);
    run("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=test-ca -keyout " + path("ca.key") + " -out " +
        path("ca.pem"));
    run("openssl pkcs12 -export -nokeys -in " + path("ca.pem") + " -passout pass:secret -out " + path("trust.p12"));
  }
  void TearDown() override { fs::remove_all(directory_); }

  static void run(const std::string& command) {
    ASSERT_EQ(std::system((command + " >/dev/null 2>&1").c_str()), 0) << command;
  }
  std::string path(const std::string& name) const { return (directory_ / name).string(); }

  HadoopConfiguration with_truststore(const std::string& location, const std::string& type,
                                      const std::string& password) const {
    HadoopConfiguration configuration;
    configuration.set("ssl.client.truststore.location", location);
    configuration.set("ssl.client.truststore.type", type);
    configuration.set("ssl.client.truststore.password", password);
    return configuration;
  }

  std::string ca_pem() const {
    std::ifstream in(path("ca.pem"));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  fs::path directory_;
};

TEST_F(Truststores, APemFileIsTrustedAsItIs) {
  auto trust = web_trust(with_truststore(path("ca.pem"), "pem", ""));
  ASSERT_TRUE(trust.ok()) << trust.error().message;
  EXPECT_EQ((*trust)->ca_pem, ca_pem());
  EXPECT_NE((*trust)->source.find(path("ca.pem")), std::string::npos);
}

TEST_F(Truststores, APkcs12StoreGivesItsCertificates) {
  auto trust = web_trust(with_truststore(path("trust.p12"), "pkcs12", "secret"));
  ASSERT_TRUE(trust.ok()) << trust.error().message;
  EXPECT_EQ((*trust)->ca_pem, ca_pem());
}

TEST_F(Truststores, AWrongPasswordSaysWhichSetting) {
  auto trust = web_trust(with_truststore(path("trust.p12"), "pkcs12", "guess"));
  ASSERT_FALSE(trust.ok());
  EXPECT_EQ(trust.error().message, "the truststore " + path("trust.p12") +
                                       " (ssl.client.truststore.location in ssl-client.xml) does not open with its "
                                       "password; check ssl.client.truststore.password in ssl-client.xml");
}

TEST_F(Truststores, AJavaKeyStoreGetsTheCommandThatConvertsIt) {
  std::ofstream(path("trust.jks"), std::ios::binary) << std::string("\xFE\xED\xFE\xED\x00\x00\x00\x02", 8);
  auto trust = web_trust(with_truststore(path("trust.jks"), "jks", "changeit"));
  ASSERT_FALSE(trust.ok());
  EXPECT_NE(trust.error().message.find("is a Java KeyStore (JKS), which Spindle does not read; convert it with "
                                       "keytool -importkeystore -srckeystore " +
                                       path("trust.jks")),
            std::string::npos);
  EXPECT_NE(trust.error().message.find("ssl.client.truststore.type=pkcs12"), std::string::npos);
}

TEST_F(Truststores, AMissingOrEmptyStoreIsASentence) {
  auto missing = web_trust(with_truststore(path("nowhere.p12"), "pkcs12", ""));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot be read; check the path and its permissions"), std::string::npos);
  std::ofstream(path("empty.pem")) << "-----BEGIN NOTHING-----\n";
  auto empty = web_trust(with_truststore(path("empty.pem"), "pem", ""));
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("holds no PEM certificates"), std::string::npos);
}

TEST(WebPolicies, OnlyHttpsOnlyMeansHttps) {
  HadoopConfiguration configuration;
  EXPECT_FALSE(https_only(configuration, WebService::yarn));
  EXPECT_EQ(web_scheme(configuration, WebService::hdfs), "http");
  configuration.set("yarn.http.policy", "https_only");
  configuration.set("dfs.http.policy", "HTTP_AND_HTTPS");
  EXPECT_TRUE(https_only(configuration, WebService::yarn));
  EXPECT_FALSE(https_only(configuration, WebService::hdfs));
  // Without a truststore the system's CAs are trusted, and the sentence says so.
  auto trust = web_trust(configuration);
  ASSERT_TRUE(trust.ok());
  EXPECT_TRUE((*trust)->ca_pem.empty());
  EXPECT_NE((*trust)->source.find("the system's CA certificates"), std::string::npos);
}

}  // namespace
}  // namespace spindle::yarn
