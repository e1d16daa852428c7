#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "spindle/core/event_log.h"
#include "spindle/core/rendezvous.h"
#include "spindle/core/spec_parser.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;

JobSpec job(const std::string& tasks) {
  SpecParseOptions options;
  options.check_files = false;
  auto spec = parse_job_spec("command: x\ntasks: " + tasks + "\n", options);
  EXPECT_TRUE(spec.ok()) << format_diagnostics(spec.error());
  return *spec;
}

TEST(Rendezvous, NobodyGetsAClusterUntilEveryTaskRegistered) {
  Rendezvous rendezvous(job("{worker: {instances: 2}, ps: {}}"));
  std::vector<std::uint64_t> received;
  rendezvous.when_newer(0, [&](auto version) { received.push_back(version->version); });
  ASSERT_TRUE(rendezvous.register_task({"worker", 0}, {"w0", 1}, "c1").ok());
  ASSERT_TRUE(rendezvous.register_task({"ps", 0}, {"p0", 3}, "c3").ok());
  EXPECT_TRUE(received.empty());
  EXPECT_EQ(rendezvous.current(), nullptr);
  EXPECT_EQ(rendezvous.missing(), (std::vector<TaskId>{{"worker", 1}}));
  ASSERT_TRUE(rendezvous.register_task({"worker", 1}, {"w1", 2}, "c2").ok());
  EXPECT_EQ(received, (std::vector<std::uint64_t>{1}));
  auto current = rendezvous.current();
  ASSERT_NE(current, nullptr);
  EXPECT_EQ(current->cluster_json, R"({"worker":["w0:1","w1:2"],"ps":["p0:3"]})");
  // A late waiter gets the cluster at once.
  std::uint64_t late = 0;
  rendezvous.when_newer(0, [&](auto version) { late = version->version; });
  EXPECT_EQ(late, 1u);
}

TEST(Rendezvous, AForgottenWaiterIsNeitherCalledNorKept) {
  Rendezvous rendezvous(job("{worker: {instances: 1}}"));
  auto held = std::make_shared<int>(0);
  int called = 0;
  const auto ticket = rendezvous.when_newer(0, [&called, held](auto) { ++called; });
  EXPECT_NE(ticket, 0u);
  EXPECT_EQ(held.use_count(), 2);
  rendezvous.forget(ticket);
  EXPECT_EQ(held.use_count(), 1);  // what the waiter held is released at once
  ASSERT_TRUE(rendezvous.register_task({"worker", 0}, {"w0", 1}, "c1").ok());
  EXPECT_EQ(called, 0);
  // Called at once: no ticket, nothing to forget.
  EXPECT_EQ(rendezvous.when_newer(0, [&called](auto) { ++called; }), 0u);
  EXPECT_EQ(called, 1);
  rendezvous.forget(0);
}

TEST(EventLog, AForgottenWaiterIsNeitherCalledNorKept) {
  EventLog log;
  int called = 0;
  const auto ticket = log.when_after(0, [&called](auto) { ++called; });
  const auto other = log.when_after(0, [&called](auto) { called += 10; });
  log.forget(ticket);
  log.append("job", "", "something");
  EXPECT_EQ(called, 10);
  log.forget(other);  // already called: nothing to drop
}

TEST(Rendezvous, RefusesStrangersAndSecondRegistrations) {
  Rendezvous rendezvous(job("{worker: {instances: 1}}"));
  auto stranger = rendezvous.register_task({"worker", 1}, {"h", 1}, "c9");
  ASSERT_FALSE(stranger.ok());
  EXPECT_EQ(stranger.error().message, "worker:1 is not a task of this job");
  EXPECT_FALSE(rendezvous.register_task({"chief", 0}, {"h", 1}, "c9").ok());
  ASSERT_TRUE(rendezvous.register_task({"worker", 0}, {"h", 1}, "c1").ok());
  EXPECT_TRUE(rendezvous.register_task({"worker", 0}, {"h", 1}, "c1").ok());  // a retry of the same
  auto impostor = rendezvous.register_task({"worker", 0}, {"evil", 2}, "c2");
  ASSERT_FALSE(impostor.ok());
  EXPECT_EQ(impostor.error().message, "worker:0 is already registered from c1; a task registers once per container");
  EXPECT_EQ(rendezvous.current()->addresses.at({"worker", 0}).host, "h");
}

TEST(Rendezvous, ARestartedTaskPublishesANewVersion) {
  Rendezvous rendezvous(job("{chief: {}, worker: {instances: 2}}"));
  ASSERT_TRUE(rendezvous.register_task({"chief", 0}, {"c", 1}, "c1").ok());
  ASSERT_TRUE(rendezvous.register_task({"worker", 0}, {"w0", 2}, "c2").ok());
  ASSERT_TRUE(rendezvous.register_task({"worker", 1}, {"w1", 3}, "c3").ok());
  ASSERT_EQ(rendezvous.current()->version, 1u);

  std::shared_ptr<const ClusterVersion> seen_by_chief;
  rendezvous.when_newer(1, [&](auto version) { seen_by_chief = version; });
  rendezvous.task_restarting({"worker", 1});
  EXPECT_EQ(rendezvous.missing(), (std::vector<TaskId>{{"worker", 1}}));
  EXPECT_EQ(rendezvous.wait_newer(1, 50ms), nullptr);
  ASSERT_TRUE(rendezvous.register_task({"worker", 1}, {"w1-new", 4}, "c4").ok());
  ASSERT_NE(seen_by_chief, nullptr);
  EXPECT_EQ(seen_by_chief->version, 2u);
  EXPECT_EQ(seen_by_chief->addresses.at({"worker", 1}), (HostPort{"w1-new", 4}));
  EXPECT_EQ(rendezvous.wait_newer(1, 50ms)->version, 2u);
}

// While several tasks restart (PyTorch's group restarts as a whole), the first to register again
// must not be handed the last cluster, which names the others' old addresses.
TEST(Rendezvous, NoStaleClusterWhileTasksRestart) {
  Rendezvous rendezvous(job("{chief: {}, worker: {}}"));
  ASSERT_TRUE(rendezvous.register_task({"chief", 0}, {"c", 1}, "c1").ok());
  ASSERT_TRUE(rendezvous.register_task({"worker", 0}, {"w", 2}, "c2").ok());
  rendezvous.task_restarting({"chief", 0});
  rendezvous.task_restarting({"worker", 0});
  std::vector<std::uint64_t> received;
  rendezvous.when_newer(0, [&](auto version) { received.push_back(version->version); });
  ASSERT_TRUE(rendezvous.register_task({"worker", 0}, {"w", 4}, "c4").ok());
  EXPECT_TRUE(received.empty()) << "handed version " << received.front() << " with the chief's old address";
  ASSERT_TRUE(rendezvous.register_task({"chief", 0}, {"c", 3}, "c3").ok());
  EXPECT_EQ(received, (std::vector<std::uint64_t>{2}));
}

TEST(Rendezvous, TheEndReachesEveryWaiterEvenWhileATaskRestarts) {
  Rendezvous rendezvous(job("{worker: {instances: 2}}"));
  rendezvous.end("too early");  // no cluster yet, no command runs: nothing to tell
  ASSERT_TRUE(rendezvous.register_task({"worker", 0}, {"w0", 1}, "c1").ok());
  ASSERT_TRUE(rendezvous.register_task({"worker", 1}, {"w1", 2}, "c2").ok());
  EXPECT_TRUE(rendezvous.current()->ending.empty());
  rendezvous.task_restarting({"worker", 1});
  std::vector<std::string> endings;
  rendezvous.when_newer(1, [&](auto version) { endings.push_back(version->ending); });
  rendezvous.end("the chief succeeded.");
  rendezvous.end("said twice");
  EXPECT_EQ(endings, (std::vector<std::string>{"the chief succeeded."}));
  const auto ended = rendezvous.current();
  EXPECT_EQ(ended->version, 1u);  // the same cluster: the number counts clusters
  EXPECT_EQ(ended->cluster_json, R"({"worker":["w0:1","w1:2"]})");
  EXPECT_NE(ended->answer_json->find(R"("ending":"the chief succeeded.")"), std::string::npos) << *ended->answer_json;
  // A late waiter learns it at once, whatever it holds.
  EXPECT_EQ(rendezvous.when_newer(1, [&](auto version) { endings.push_back(version->ending); }), 0u);
  EXPECT_EQ(rendezvous.when_newer(0, [&](auto version) { endings.push_back(version->ending); }), 0u);
  EXPECT_EQ(endings.size(), 3u);
  EXPECT_EQ(endings.back(), "the chief succeeded.");
}

TEST(Rendezvous, ManyExecutorsAtOnce) {
  constexpr int workers = 10'000;
  Rendezvous rendezvous(job("{worker: {instances: " + std::to_string(workers) + "}}"));
  std::atomic<int> received = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < workers; i += 8) {
        ASSERT_TRUE(rendezvous
                        .register_task({"worker", i},
                                       {"10.0." + std::to_string(i / 250) + "." + std::to_string(i % 250),
                                        static_cast<std::uint16_t>(2000 + i % 1000)},
                                       "container_" + std::to_string(i))
                        .ok());
        rendezvous.when_newer(0, [&](auto version) {
          if (version->version == 1) ++received;
        });
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(received.load(), workers);
  EXPECT_EQ(rendezvous.current()->addresses.all().size(), static_cast<std::size_t>(workers));
}

}  // namespace
}  // namespace spindle
