#include "designer/clusterchecks.h"

#include <QCoreApplication>

#include "convert.h"
#include "spindle/core/quantities.h"

namespace spindle::gui {
namespace {

std::string text(const nlohmann::ordered_json& document, const char* key, const std::string& fallback = {}) {
  const auto found = document.find(key);
  return found != document.end() && found->is_string() ? found->get<std::string>() : fallback;
}

long long number(const nlohmann::ordered_json& document, const char* key, long long fallback) {
  const auto found = document.find(key);
  return found != document.end() && found->is_number_integer() ? found->get<long long>() : fallback;
}

class Checker {
  Q_DECLARE_TR_FUNCTIONS(ClusterChecks)

 public:
  explicit Checker(const ClusterInfo& cluster) : cluster_(cluster) {}

  void queue(const QString& queue) {
    if (!cluster_.queues.isEmpty() && !cluster_.queues.contains(queue)) {
      report("queue", tr("\"%1\" is not a queue of this cluster; use one of %2")
                          .arg(queue, cluster_.queues.join(QStringLiteral(", "))));
    }
  }

  void resources(const std::string& field, const nlohmann::ordered_json& entry) {
    if (const auto memory = text(entry, "memory"); !memory.empty()) {
      auto mib = parse_memory_mib(memory);
      if (mib && static_cast<qint64>(*mib) > cluster_.maxMemoryMib) {
        report(field + ".memory",
               tr("is %1, more than the largest container this cluster grants (%2); ask for at "
                  "most that")
                   .arg(formatMemory(*mib), formatMemory(static_cast<quint64>(cluster_.maxMemoryMib))));
      }
    }
    if (const auto vcores = number(entry, "vcores", 1); vcores > cluster_.maxVcores) {
      report(field + ".vcores", tr("is %1, more than the largest container this cluster grants (%2 vcores); ask "
                                   "for at most that")
                                    .arg(vcores)
                                    .arg(cluster_.maxVcores));
    }
  }

  void task(const std::string& type, const nlohmann::ordered_json& entry, const QString& queue) {
    const std::string field = "tasks." + type;
    resources(field, entry);
    if (const auto gpus = number(entry, "gpus", 0); gpus > cluster_.maxGpus) {
      report(
          field + ".gpus",
          cluster_.maxGpus == 0
              ? tr("asks for %1 GPUs, but no node of this cluster has any").arg(gpus)
              : tr("asks for %1 GPUs, but no node of this cluster has more than %2").arg(gpus).arg(cluster_.maxGpus));
    }
    const QString label = qs(text(entry, "node_label"));
    if (label.isEmpty()) return;
    if (!cluster_.nodeLabels.contains(label)) {
      report(field + ".node_label",
             cluster_.nodeLabels.isEmpty()
                 ? tr("\"%1\" is a label no node of this cluster has (it has no labelled nodes); fix the label or "
                      "leave it out")
                       .arg(label)
                 : tr("\"%1\" is a label no node of this cluster has (labels in use: %2); fix the label or leave it "
                      "out")
                       .arg(label, cluster_.nodeLabels.join(QStringLiteral(", "))));
    } else if (!cluster_.queueReachesLabel(queue, label)) {
      QStringList reaching;
      for (const QString& candidate : cluster_.queues) {
        if (cluster_.queueReachesLabel(candidate, label)) reaching << candidate;
      }
      report(field + ".node_label",
             tr("queue \"%1\" cannot run containers on nodes labelled \"%2\"; submit to a queue that can (%3)")
                 .arg(queue, label, reaching.isEmpty() ? tr("none") : reaching.join(QStringLiteral(", "))));
    }
  }

  void report(const std::string& field, const QString& message) {
    diagnostics_.push_back(Diagnostic{{}, 0, 0, field, ss(message)});
  }

  Diagnostics take() { return std::move(diagnostics_); }

 private:
  const ClusterInfo& cluster_;
  Diagnostics diagnostics_;
};

}  // namespace

Diagnostics checkAgainstCluster(const nlohmann::ordered_json& document, const ClusterInfo& cluster) {
  if (!cluster.known || !document.is_object()) return {};
  Checker checker(cluster);
  const QString queue = qs(text(document, "queue", "default"));
  checker.queue(queue);
  if (const auto master = document.find("application_master"); master != document.end() && master->is_object()) {
    checker.resources("application_master", *master);
  }
  if (const auto tasks = document.find("tasks"); tasks != document.end() && tasks->is_object()) {
    for (const auto& [type, entry] : tasks->items()) {
      if (entry.is_object()) checker.task(type, entry, queue);
    }
  }
  return checker.take();
}

}  // namespace spindle::gui
