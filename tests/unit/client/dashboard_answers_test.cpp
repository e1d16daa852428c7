// The desktop app's reading of `spindle serve`: the address a user pastes,
// each answer of the API (kept in tests/fuzz/corpus/dashboard_answer as the
// server gave them), and answers in shapes it does not know.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "client/remote/dashboard_answers.h"
#include "spindle/client/json_shapes.h"
#include "spindle/client/serve_api.h"
#include "spindle/client/sweeps.h"

namespace spindle::client {
namespace {

const std::string server = "http://127.0.0.1:8080";

std::string answer(const std::string& name) {
  std::ifstream in(std::string(SPINDLE_SOURCE_DIR) + "/tests/fuzz/corpus/dashboard_answer/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(DashboardAddressTest, TakesTheLineTheServerPrinted) {
  auto address = parse_dashboard_address("http://127.0.0.1:41234/?token=abc123\n");
  ASSERT_TRUE(address) << address.error().message;
  EXPECT_EQ(address->url, "http://127.0.0.1:41234");
  EXPECT_EQ(address->token, "abc123");
  address = parse_dashboard_address("https://gateway.example:8443", "t0k");
  ASSERT_TRUE(address);
  EXPECT_EQ(address->url, "https://gateway.example:8443");
  EXPECT_EQ(address->token, "t0k");
}

TEST(DashboardAddressTest, WithoutATokenTheClientSignsInWithKerberos) {
  auto address = parse_dashboard_address("https://gateway.example.com:8443/");
  ASSERT_TRUE(address) << address.error().message;
  EXPECT_EQ(address->token, "");
  const DashboardClient client(*address);
  EXPECT_EQ(client.browser_url("/tb/application_1_0001/"), "https://gateway.example.com:8443/tb/application_1_0001/");
}

TEST(FilesToSendTest, ReadsTheLocalFilesAndLeavesTheClustersAlone) {
  const auto directory =
      std::filesystem::temp_directory_path() / ("spindle-files-to-send-" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  std::ofstream(directory / "train.py") << "print(1)\n";
  std::ofstream(directory / "empty.txt");
  JobSpec spec;
  spec.files = {{"train.py", (directory / "train.py").string()},
                {"data.csv", "hdfs://nameservice/data.csv"},
                {"empty.txt", (directory / "empty.txt").string()}};
  spec.archives = {{"words", "hdfs://nameservice/words.zip"}};
  auto files = read_files_to_send(spec);
  ASSERT_TRUE(files) << files.error().message;
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].name, "train.py");
  EXPECT_EQ((*files)[0].bytes, "print(1)\n");
  EXPECT_EQ((*files)[1].name, "empty.txt");
  EXPECT_EQ((*files)[1].bytes, "");

  spec.archives.push_back({"model", (directory / "missing.tar.gz").string()});
  files = read_files_to_send(spec);
  ASSERT_FALSE(files);
  EXPECT_EQ(files.error().kind, SubmitError::Kind::bad_input);
  EXPECT_EQ(files.error().message.rfind(
                "archives: model: cannot read " + (directory / "missing.tar.gz").string() + " on this machine (", 0),
            0u)
      << files.error().message;
  std::filesystem::remove_all(directory);
}

TEST(DashboardAddressTest, SaysWhatIsMissing) {
  auto address = parse_dashboard_address("127.0.0.1:41234/?token=x");
  ASSERT_FALSE(address);
  EXPECT_NE(address.error().message.find("starts with http:// or https://"), std::string::npos);
  address = parse_dashboard_address("ftp://x/?token=y");
  ASSERT_FALSE(address);
  address = parse_dashboard_address("http:///?token=y");
  ASSERT_FALSE(address);
  EXPECT_NE(address.error().message.find("names no host"), std::string::npos);
}

TEST(DashboardAnswersTest, ReadsTheServersAnswers) {
  auto user = read_session_user(answer("session.json"), server);
  ASSERT_TRUE(user) << user.error().message;
  EXPECT_EQ(*user, "root");

  auto job = read_job(answer("job.json"), server);
  ASSERT_TRUE(job) << job.error().message;
  EXPECT_EQ(job->entry.name, "seed-job");
  EXPECT_EQ(job->yarn_state, "RUNNING");
  EXPECT_EQ(job->final_status, "UNDEFINED");
  EXPECT_FALSE(job->finished);
  ASSERT_TRUE(job->status);
  EXPECT_EQ(job->status->tasks.size(), 2u);

  auto jobs = read_jobs(answer("jobs.json"), server);
  ASSERT_TRUE(jobs) << jobs.error().message;
  EXPECT_FALSE(jobs->empty());

  auto cluster = read_cluster(answer("cluster.json"), server);
  ASSERT_TRUE(cluster) << cluster.error().message;
  EXPECT_FALSE(cluster->nodes.empty());
  EXPECT_EQ(cluster->root.name, "root");

  auto points = read_points(answer("metrics.json"), server);
  ASSERT_TRUE(points) << points.error().message;
  ASSERT_EQ(points->points.size(), 2u);
  EXPECT_EQ(points->next, 2u);
  EXPECT_EQ(points->points[0].tag, "loss");
  EXPECT_DOUBLE_EQ(points->points[0].value, 1.0);

  auto log = read_log(answer("log.json"), server);
  ASSERT_TRUE(log) << log.error().message;
  EXPECT_NE(log->text.find("spindle executor: worker:0 registered"), std::string::npos);
  EXPECT_FALSE(log->aggregated);

  auto spec = read_spec(answer("spec.json"), server);
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_NE(spec->find("name: seed-job"), std::string::npos);

  auto submitted = read_submitted(answer("submitted.json"), server);
  ASSERT_TRUE(submitted);
  EXPECT_EQ(*submitted, "application_1_0001");
  EXPECT_EQ(read_refusal(answer("refusal.json")),
            "The spec has mistakes; nothing was submitted.\nline 2, queue: no such queue");
}

TEST(DashboardAnswersTest, AnUnknownShapeIsSaidToBeOne) {
  for (const std::string body : {"", "<html>", "[]", "{\"job\": 3}", "{\"points\": {}}"}) {
    auto job = read_job(body, server);
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("in a shape this version does not know"), std::string::npos);
    EXPECT_FALSE(read_points(body, server));
    EXPECT_FALSE(read_jobs(body, server));
    EXPECT_FALSE(read_cluster(body, server));
    EXPECT_EQ(read_refusal(body), "");
  }
  // A job without the application master's status is still a job.
  auto bare = read_job(R"({"job": {"name": "x", "state": "accepted"}, "status": null})", server);
  ASSERT_TRUE(bare);
  EXPECT_FALSE(bare->status);
  EXPECT_FALSE(bare->finished);
}

TEST(DashboardAnswersTest, NodesAndQueuesComeBackAsTheyWent) {
  yarn::NodeInfo node;
  node.id = "node1:45454";
  node.state = "RUNNING";
  node.http_address = "node1:8042";
  node.rack = "/default-rack";
  node.labels = {"gpu"};
  node.containers = 3;
  node.capability = {8192, 8, {{"yarn.io/gpu", 2}}};
  node.used = {1024, 1, {}};
  const auto back = node_from_json(nlohmann::json::parse(node_json(node).dump()));
  EXPECT_EQ(back.id, node.id);
  EXPECT_EQ(back.labels, node.labels);
  EXPECT_EQ(back.containers, 3);
  EXPECT_EQ(back.capability.memory_mib, 8192);
  EXPECT_EQ(back.capability.others.at("yarn.io/gpu"), 2);
  EXPECT_EQ(back.used.vcores, 1);

  yarn::QueueInfo root;
  root.name = "root";
  root.capacity = 1;
  yarn::QueueInfo leaf;
  leaf.name = "default";
  leaf.accessible_labels = {"*"};
  leaf.apps_running = 2;
  root.children.push_back(leaf);
  const auto queues = queue_from_json(nlohmann::json::parse(queue_json(root).dump()));
  ASSERT_EQ(queues.children.size(), 1u);
  EXPECT_EQ(queues.children[0].name, "default");
  EXPECT_EQ(queues.children[0].accessible_labels, std::vector<std::string>{"*"});
  EXPECT_EQ(queues.children[0].apps_running, 2);
  EXPECT_EQ(queue_from_json(nlohmann::json(3)).name, "");
}

// What the server writes, the app reads back whole: one codec, both ends.
TEST(ServeApiTest, EachAnswerTheServerWritesReadsBackWhole) {
  namespace api = serve_api;
  const auto through_the_wire = [](const api::Json& written) { return std::string(written.dump()); };

  EXPECT_EQ(*read_session_user(through_the_wire(api::session_json({"alice", "1.2.3"})), server), "alice");

  JobHistoryEntry entry;
  entry.application_id = "application_1_0007";
  entry.name = "mnist";
  entry.user = "alice";
  entry.queue = "default";
  entry.state = "running";
  entry.submitted_ms = 11;
  entry.started_ms = 12;
  api::JobsPage page{{entry}, "the ResourceManager is away"};
  auto jobs = read_jobs(through_the_wire(api::jobs_page_json(page)), server);
  ASSERT_TRUE(jobs) << jobs.error().message;
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ(jobs->front().application_id, entry.application_id);
  EXPECT_EQ(jobs->front().queue, "default");
  EXPECT_EQ(jobs->front().submitted_ms, 11);
  const auto page_back = api::jobs_page_from_json(nlohmann::json::parse(through_the_wire(api::jobs_page_json(page))));
  ASSERT_TRUE(page_back);
  EXPECT_EQ(page_back->cluster_problem, "the ResourceManager is away");

  RemoteJob remote;
  remote.entry = entry;
  remote.yarn_state = "RUNNING";
  remote.final_status = "UNDEFINED";
  remote.status = JobStatus{};
  remote.status->state = "running";
  remote.status->tasks.push_back(TaskStatus{});
  remote.status->tasks.back().task = "chief:0";
  remote.tensorboard_path = "/tb/application_1_0007/";
  auto job = read_job(through_the_wire(api::remote_job_json(remote, 3.5)), server);
  ASSERT_TRUE(job) << job.error().message;
  EXPECT_EQ(job->entry.name, "mnist");
  EXPECT_EQ(job->yarn_state, "RUNNING");
  EXPECT_FALSE(job->finished);
  ASSERT_TRUE(job->status);
  ASSERT_EQ(job->status->tasks.size(), 1u);
  EXPECT_EQ(job->status->tasks.front().task, "chief:0");
  EXPECT_EQ(job->tensorboard_path, remote.tensorboard_path);
  EXPECT_EQ(job->mlflow_run, "");

  EXPECT_EQ(*read_spec(through_the_wire(api::spec_json("name: x\n")), server), "name: x\n");

  RemotePoints points{{MetricPoint{"scalars", "train", "loss", 7, 100.5, 0.25}}, 9};
  auto points_back = read_points(through_the_wire(api::points_json(points)), server);
  ASSERT_TRUE(points_back);
  EXPECT_EQ(points_back->next, 9u);
  ASSERT_EQ(points_back->points.size(), 1u);
  EXPECT_EQ(points_back->points[0].tag, "loss");
  EXPECT_EQ(points_back->points[0].step, 7);
  EXPECT_DOUBLE_EQ(points_back->points[0].value, 0.25);

  api::LogPiece piece{"worker:0", "stderr", "container_1_0007_01_000002", 4, 10, {"tail", true}};
  auto log = read_log(through_the_wire(api::log_piece_json(piece)), server);
  ASSERT_TRUE(log);
  EXPECT_EQ(log->text, "tail");
  EXPECT_TRUE(log->aggregated);

  ClusterState state;
  state.nodes.push_back(yarn::NodeInfo{});
  state.nodes.back().id = "host-a:8041";
  state.root.name = "root";
  auto cluster = read_cluster(through_the_wire(api::cluster_json(state)), server);
  ASSERT_TRUE(cluster);
  ASSERT_EQ(cluster->nodes.size(), 1u);
  EXPECT_EQ(cluster->nodes[0].id, "host-a:8041");
  EXPECT_EQ(cluster->root.name, "root");

  EXPECT_EQ(*read_submitted(through_the_wire(api::submitted_json("application_1_0008")), server), "application_1_0008");

  auto refusal = api::refusal_json("The spec has mistakes; nothing was submitted.");
  refusal["problems"] = api::problems_json({Diagnostic{"spec", 3, 5, "tasks.worker.memory", "is not a size"}});
  EXPECT_EQ(read_refusal(through_the_wire(refusal)),
            "The spec has mistakes; nothing was submitted.\nspec:3:5: tasks.worker.memory: is not a size");
}

TEST(ServeApiTest, ASweepReadsBackWithItsTrialsAndItsMlflowRun) {
  SweepView view;
  view.record.sweep_id = "application_1_0003";
  view.record.name = "wine";
  view.record.state = SweepState::succeeded;
  view.record.search_json = R"({"metric": {"tag": "loss", "goal": "minimize"}})";
  view.record.mlflow = SweepTrackingRun{"https://mlflow.example.com:5000", "7", "abc123", true};
  TrialRecord trial;
  trial.parameters = {2, {{"width", "32"}}};
  trial.state = TrialState::stopped;
  trial.application_id = "application_1_0005";
  trial.best = MetricSample{40, 0.5};
  trial.mlflow_run_id = "child2";
  view.record.trials.push_back(trial);
  const auto written = sweep_json(view);
  EXPECT_EQ(written["mlflow"], "https://mlflow.example.com:5000/#/experiments/7/runs/abc123");
  EXPECT_EQ(written["trials"][0]["mlflow_run_id"], "child2");
  auto back = sweep_detail_from_json(nlohmann::json::parse(written.dump()));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(sweep_tracking_url(back->view.record), written["mlflow"]);
  ASSERT_EQ(back->view.record.trials.size(), 1u);
  EXPECT_EQ(back->view.record.trials[0].state, TrialState::stopped);
  EXPECT_EQ(back->view.record.best_trial(), &back->view.record.trials[0]);

  view.record.mlflow.reset();
  EXPECT_TRUE(sweep_json(view)["mlflow"].is_null());
  auto without = sweep_detail_from_json(nlohmann::json::parse(sweep_json(view).dump()));
  ASSERT_TRUE(without);
  EXPECT_EQ(sweep_tracking_url(without->view.record), "");
}

}  // namespace
}  // namespace spindle::client
