// The web servers' HTTPS policies and the truststore of ssl-client.xml:
// PEM, PKCS12 and Java KeyStores read, everything else one sentence.

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

// Java KeyStores made by Java's own keytool.
TEST_F(Truststores, AJavaKeyStoreIsReadAndItsSealChecked) {
  run("keytool -importcert -noprompt -alias ca -storetype JKS -file " + path("ca.pem") + " -keystore " +
      path("trust.jks") + " -storepass changeit");
  auto trust = web_trust(with_truststore(path("trust.jks"), "jks", "changeit"));
  ASSERT_TRUE(trust.ok()) << trust.error().message;
  EXPECT_EQ((*trust)->ca_pem, ca_pem());
  EXPECT_NE((*trust)->source.find(path("trust.jks")), std::string::npos);
  // Without a password Java reads the store unchecked, and so does Spindle.
  auto unchecked = web_trust(with_truststore(path("trust.jks"), "jks", ""));
  ASSERT_TRUE(unchecked.ok()) << unchecked.error().message;
  EXPECT_EQ((*unchecked)->ca_pem, ca_pem());
  auto wrong = web_trust(with_truststore(path("trust.jks"), "jks", "guess"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().message, "the truststore " + path("trust.jks") +
                                       " (ssl.client.truststore.location in ssl-client.xml) does not open with its "
                                       "password; check ssl.client.truststore.password in ssl-client.xml");
}

TEST_F(Truststores, AJavaKeyStoreWithAKeyTrustsItsCertificateAndANonAsciiPassword) {
  run("keytool -genkeypair -alias server -keyalg EC -groupname secp256r1 -dname CN=server -validity 2 "
      "-storetype JKS -keystore " +
      path("keys.jks") + " -storepass 'pässwörd€' -keypass 'pässwörd€'");
  auto trust = web_trust(with_truststore(path("keys.jks"), "jks", "pässwörd€"));
  ASSERT_TRUE(trust.ok()) << trust.error().message;
  EXPECT_NE((*trust)->ca_pem.find("-----BEGIN CERTIFICATE-----"), std::string::npos);
}

TEST_F(Truststores, ADamagedJavaKeyStoreSaysSo) {
  run("keytool -importcert -noprompt -alias ca -storetype JKS -file " + path("ca.pem") + " -keystore " +
      path("trust.jks") + " -storepass changeit");
  std::ifstream in(path("trust.jks"), std::ios::binary);
  std::string bytes(std::istreambuf_iterator<char>(in), {});
  std::ofstream(path("cut.jks"), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  auto cut = web_trust(with_truststore(path("cut.jks"), "jks", "changeit"));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.error().message.find("is a Java KeyStore that cannot be read (it ends inside its entries)"),
            std::string::npos)
      << cut.error().message;
  std::ofstream(path("jceks"), std::ios::binary) << std::string("\xCE\xCE\xCE\xCE\x00\x00\x00\x02", 8);
  auto jceks = web_trust(with_truststore(path("jceks"), "jceks", "changeit"));
  ASSERT_FALSE(jceks.ok());
  EXPECT_NE(jceks.error().message.find("is a JCEKS keystore, which Spindle does not read; convert it with keytool"),
            std::string::npos);
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
