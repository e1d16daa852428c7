#pragma once

#include <QString>
#include <QUrl>
#include <memory>
#include <mutex>

#include "cluster/hadoopsetup.h"
#include "spindle/tbproxy/upstream.h"

namespace spindle::tbproxy {
class ProxyServer;
}

namespace spindle::gui {

// The app's one TensorBoard proxy, on 127.0.0.1 and a free port, started
// the first time a job's TensorBoard is asked for: it serves
// /tb/<application id>/ from the TensorBoard task of each job this machine
// submitted, found through its application master, as `spindle
// tensorboard` does.
class TensorBoardProxy {
 public:
  static TensorBoardProxy& shared();
  ~TensorBoardProxy();

  // The jobs are looked up with this Hadoop set-up (a running proxy follows).
  void setSetup(const HadoopSetup& setup);
  // Serves from this resolver instead (tests); restarts a running proxy.
  void setResolver(tbproxy::UpstreamResolver resolver);
  // http://127.0.0.1:PORT/tb/<id>/, starting the proxy if needed; empty and
  // `error` set when it cannot listen.
  QUrl url(const QString& applicationId, QString* error = nullptr);
  quint16 port() const;
  void stop();

 private:
  TensorBoardProxy() = default;
  struct Lookup;
  mutable std::mutex mutex_;
  std::unique_ptr<tbproxy::ProxyServer> server_;
  std::shared_ptr<Lookup> lookup_;
  tbproxy::UpstreamResolver resolver_;
};

}  // namespace spindle::gui
