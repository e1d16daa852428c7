// Packing Python environments: what is rewritten so that an environment
// works from another directory, what is refused, how change is detected, and
// a real venv packed, unpacked elsewhere and run.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "client/python_env/relocation.h"
#include "spindle/client/python_env.h"

namespace {

namespace fs = std::filesystem;
using namespace spindle::client;
using spindle::Result;

const std::string root = "/home/ada/envs/train";

TEST(Relocation, ScriptsFindTheirInterpreterOnPath) {
  EXPECT_EQ(relocation::relocated_script("#!" + root + "/bin/python3.11\nimport sys\n", root),
            "#!/usr/bin/env python3.11\nimport sys\n");
  EXPECT_EQ(relocation::relocated_script("#!/bin/sh\n'''exec' " + root + "/bin/python \"$0\" \"$@\"\n' '''\nx\n", root),
            "#!/bin/sh\n'''exec' python \"$0\" \"$@\"\n' '''\nx\n");
  EXPECT_FALSE(relocation::relocated_script("#!/usr/bin/env python3\n", root));
  EXPECT_FALSE(relocation::relocated_script("#!/home/ada/envs/training/bin/python\n", root));
  // Not directly in bin/, so PATH would not find it by its name.
  EXPECT_FALSE(relocation::relocated_script("#!" + root + "/bin/tools/python\n", root));
  EXPECT_FALSE(relocation::relocated_script("#!/bin/sh\n'''exec' " + root + "/bin//x \"$0\"\n", root));
  EXPECT_FALSE(
      relocation::relocated_script("\x7f"
                                   "ELF binary",
                                   root));
}

TEST(Relocation, ActivateScriptsComputeTheirDirectory) {
  const auto bash =
      relocation::relocated_activate("activate", "x\nVIRTUAL_ENV=\"" + root + "\"\nexport VIRTUAL_ENV\n", root);
  ASSERT_TRUE(bash);
  EXPECT_EQ(bash->find(root), std::string::npos) << *bash;
  EXPECT_NE(bash->find("VIRTUAL_ENV=\"$(cd \"$(dirname \"${BASH_SOURCE[0]:-$0}\")/..\" && pwd)\""), std::string::npos);
  const auto fish = relocation::relocated_activate("activate.fish", "set -gx VIRTUAL_ENV \"" + root + "\"\n", root);
  ASSERT_TRUE(fish);
  EXPECT_EQ(fish->find(root), std::string::npos) << *fish;
  EXPECT_FALSE(relocation::relocated_activate("pip", "VIRTUAL_ENV=\"" + root + "\"", root));
  EXPECT_TRUE(relocation::is_unrelocatable_activate("activate.csh"));
}

TEST(Relocation, PyvenvCfgKeepsTheBaseInterpreterAndDropsTheCommand) {
  EXPECT_EQ(relocation::relocated_pyvenv_cfg("home = /usr/bin\nversion = 3.11.2\ncommand = /usr/bin/python3 -m venv " +
                                             root + "\n"),
            "home = /usr/bin\nversion = 3.11.2\n");
}

TEST(Relocation, PathsOutsideTheEnvironmentAreRefused) {
  const fs::path site = "lib/python3.11/site-packages";
  const auto editable =
      relocation::outside_reference(site / "__editable__.mylib-0.1.pth", "/home/ada/src/mylib\n", root);
  ASSERT_TRUE(editable);
  EXPECT_NE(editable->find("adds /home/ada/src/mylib to the module path, outside the environment (an editable "
                           "install)"),
            std::string::npos)
      << *editable;
  EXPECT_TRUE(relocation::outside_reference(site / "mylib.egg-link", "/home/ada/src/mylib\n.\n", root));
  EXPECT_TRUE(relocation::outside_reference(site / "__editable___mylib_0_1_finder.py", "MAPPING = {}", root));
  EXPECT_FALSE(relocation::outside_reference(site / "distutils-precedence.pth", "import os; x = 1\n", root));
  EXPECT_FALSE(relocation::outside_reference(site / "inside.pth", root + "/lib/extra\n# note\n", root));
  EXPECT_FALSE(relocation::outside_reference(site / "module.py", "/etc/passwd", root));
}

TEST(Relocation, LinksInsideBecomeRelativeAndTheInterpreterLinkStays) {
  auto inside = relocation::relocated_link("lib64", root + "/lib", root);
  ASSERT_TRUE(inside);
  EXPECT_EQ(*inside, "lib");
  auto deeper = relocation::relocated_link("bin/tool", root + "/lib/tool/run", root);
  ASSERT_TRUE(deeper);
  EXPECT_EQ(*deeper, "../lib/tool/run");
  auto interpreter = relocation::relocated_link("bin/python3", "/usr/bin/python3", root);
  ASSERT_TRUE(interpreter);
  EXPECT_EQ(*interpreter, "/usr/bin/python3");
  auto outside = relocation::relocated_link("lib/data", "/srv/data", root);
  ASSERT_FALSE(outside);
  EXPECT_NE(outside.error().message.find("is a link to /srv/data, outside the environment"), std::string::npos);
  EXPECT_FALSE(relocation::relocated_link("lib/up", "../../elsewhere", root));
}

class PythonEnvTest : public testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::path(testing::TempDir()) / ("python-env-test-" + std::to_string(::getpid()) + "-" +
                                                 testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
    cache_ = directory_ / "cache";
  }
  void TearDown() override { fs::remove_all(directory_); }

  fs::path make_venv(const std::string& name) {
    const auto venv = directory_ / name;
    const std::string command = std::string(SPINDLE_PYTHON_BASE) + " -m venv --without-pip " + venv.string();
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    std::ofstream(venv / "bin/hello") << "#!" << (venv / "bin/python3").string() << "\nprint('hello')\n";
    fs::permissions(venv / "bin/hello", fs::perms::owner_all);
    return venv;
  }

  Result<PackedEnvironment> pack(const fs::path& path) {
    auto located = locate_python_env(path.string());
    if (!located) return located.error();
    PackOptions options;
    options.cache_directory = cache_;
    return pack_python_env(*located, options);
  }

  static std::string output_of(const std::string& command) {
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    std::string output;
    char buffer[512];
    while (pipe && std::fgets(buffer, sizeof(buffer), pipe)) output += buffer;
    if (pipe) ::pclose(pipe);
    return output;
  }

  fs::path directory_;
  fs::path cache_;
};

TEST_F(PythonEnvTest, AVenvPackedHereRunsUnpackedElsewhere) {
  const auto venv = make_venv("train");
  auto packed = pack(venv);
  ASSERT_TRUE(packed) << packed.error().message;
  EXPECT_TRUE(packed->packed_now);
  EXPECT_TRUE(packed->name.starts_with("train-")) << packed->name;
  EXPECT_TRUE(packed->name.ends_with(".tar.gz")) << packed->name;
  EXPECT_EQ(packed->archive, cache_ / packed->name);

  const auto elsewhere = directory_ / "node" / "container_01" / "python_env";
  fs::create_directories(elsewhere);
  ASSERT_EQ(std::system(("tar xzf " + packed->archive.string() + " -C " + elsewhere.string()).c_str()), 0);
  fs::remove_all(venv);  // nothing may still point at it
  EXPECT_EQ(output_of("PATH=" + elsewhere.string() + "/bin:/usr/bin:/bin hello"), "hello\n");
  EXPECT_EQ(output_of(elsewhere.string() + "/bin/python -c 'import sys; print(sys.prefix)'"),
            elsewhere.string() + "\n");
  EXPECT_EQ(output_of("bash -c '. " + elsewhere.string() + "/bin/activate && echo $VIRTUAL_ENV'"),
            elsewhere.string() + "\n");
  EXPECT_FALSE(fs::exists(elsewhere / "bin/activate.csh"));
}

TEST_F(PythonEnvTest, UnchangedContentIsNotPackedAgainAndAnyChangeIsSeen) {
  const auto venv = make_venv("env");
  const auto located = locate_python_env(venv.string());
  ASSERT_TRUE(located);
  const auto before = python_env_fingerprint(*located);
  ASSERT_TRUE(before);
  ASSERT_TRUE(pack(venv));
  auto again = pack(venv);
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->packed_now);

  // Byte code written by running the environment is not a change.
  fs::create_directories(venv / "lib/__pycache__");
  std::ofstream(venv / "lib/__pycache__/x.cpython-311.pyc") << "code";
  EXPECT_EQ(*python_env_fingerprint(*located), *before);

  // A package added is.
  fs::create_directories(venv / "lib/site-packages/newpkg");
  std::ofstream(venv / "lib/site-packages/newpkg/__init__.py") << "";
  const auto added = python_env_fingerprint(*located);
  EXPECT_NE(*added, *before);
  // And so is a file rewritten in place, even at the same size.
  std::ofstream(venv / "lib/site-packages/newpkg/__init__.py") << "";
  fs::last_write_time(venv / "lib/site-packages/newpkg/__init__.py",
                      fs::last_write_time(venv / "lib/site-packages/newpkg/__init__.py") + std::chrono::seconds(1));
  EXPECT_NE(*python_env_fingerprint(*located), *added);
  auto repacked = pack(venv);
  ASSERT_TRUE(repacked);
  EXPECT_TRUE(repacked->packed_now);
  EXPECT_NE(repacked->name, again->name);
}

TEST_F(PythonEnvTest, WhatCannotBeRelocatedIsRefusedNamingTheFile) {
  const auto venv = make_venv("editable");
  fs::create_directories(venv / "lib/python3/site-packages");
  const auto pth = venv / "lib/python3/site-packages/__editable__.mylib-0.1.pth";
  std::ofstream(pth) << "/home/ada/src/mylib\n";
  auto refused = pack(venv);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message.find("python_env: " + pth.string() +
                                         " adds /home/ada/src/mylib to the module path, outside the environment"),
            0u)
      << refused.error().message;
  fs::remove(pth);
  fs::create_symlink("/srv/data", venv / "data");
  refused = pack(venv);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find((venv / "data").string() + " is a link to /srv/data"), std::string::npos);
  EXPECT_FALSE(fs::exists(cache_) && !fs::is_empty(cache_)) << "nothing is written before a refusal";
}

TEST_F(PythonEnvTest, EachBadChoiceIsOneSentence) {
  auto missing = locate_python_env((directory_ / "nope").string());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("nope does not exist"), std::string::npos);

  fs::create_directories(directory_ / "plain");
  auto plain = locate_python_env((directory_ / "plain").string());
  ASSERT_FALSE(plain);
  EXPECT_NE(plain.error().message.find("is not a Python environment: it has neither pyvenv.cfg"), std::string::npos);

  std::ofstream(directory_ / "notes.txt") << "x";
  EXPECT_FALSE(locate_python_env((directory_ / "notes.txt").string()));

  fs::create_directories(directory_ / "conda/conda-meta");
  auto conda = locate_python_env((directory_ / "conda").string());
  ASSERT_TRUE(conda);
  PackOptions options;
  options.cache_directory = cache_;
  auto conda_packed = pack_python_env(*conda, options);
  ASSERT_FALSE(conda_packed);
  EXPECT_NE(conda_packed.error().message.find("conda-pack"), std::string::npos);

  std::ofstream(directory_ / "broken.tar.gz") << "\x1f\x8b this is not gzip";
  auto corrupt = pack(directory_ / "broken.tar.gz");
  ASSERT_FALSE(corrupt);
  EXPECT_NE(corrupt.error().message.find("broken.tar.gz is "), std::string::npos) << corrupt.error().message;

  const auto truncated = directory_ / "truncated.tar.gz";
  const auto venv = make_venv("whole");
  ASSERT_EQ(std::system(("tar czf " + truncated.string() + " -C " + venv.string() + " .").c_str()), 0);
  fs::resize_file(truncated, fs::file_size(truncated) / 2);
  auto cut = pack(truncated);
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message.find("is a corrupt archive"), std::string::npos) << cut.error().message;
}

TEST_F(PythonEnvTest, AnEnvironmentOnTheNodesHasNothingToPack) {
  auto installed = locate_python_env("node:/opt/envs/torch");
  ASSERT_FALSE(installed);
  EXPECT_EQ(installed.error().message,
            "python_env node:/opt/envs/torch is an environment installed on the nodes; there is nothing here to pack "
            "or ship");
}

TEST_F(PythonEnvTest, CurrentIsTheActiveVenvOrTheOneOfPython3OnPath) {
  const auto venv = make_venv("active");
  const std::string saved_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  const char* saved_venv = std::getenv("VIRTUAL_ENV");
  ::unsetenv("VIRTUAL_ENV");
  ::unsetenv("CONDA_PREFIX");
  ::setenv("PATH", ((venv / "bin").string() + ":/usr/bin:/bin").c_str(), 1);
  auto found = locate_python_env("current");
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->path, venv);

  fs::create_directories(directory_ / "system/bin");
  std::ofstream(directory_ / "system/bin/python3") << "#!/bin/sh\n";
  fs::permissions(directory_ / "system/bin/python3", fs::perms::owner_all);
  ::setenv("PATH", (directory_ / "system/bin").c_str(), 1);
  auto system = locate_python_env("current");
  ASSERT_FALSE(system);
  EXPECT_NE(system.error().message.find("belongs to no venv or conda environment"), std::string::npos);

  ::setenv("VIRTUAL_ENV", venv.c_str(), 1);
  auto active = locate_python_env("current");
  ASSERT_TRUE(active);
  EXPECT_EQ(active->path, venv);
  ::setenv("PATH", saved_path.c_str(), 1);
  if (saved_venv) {
    ::setenv("VIRTUAL_ENV", saved_venv, 1);
  } else {
    ::unsetenv("VIRTUAL_ENV");
  }
}

}  // namespace
