#pragma once

#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <memory>

#include "live_view.h"
#include "spindle/serve/cluster_access.h"
#include "spindle/tbproxy/local_site.h"
#include "static_assets.h"

namespace spindle::serve {

// Everything on the port that is not a job's TensorBoard: the page and its
// files, and the API. Calls that ask the cluster run on a pool of worker
// threads; long polls wait in the live view without a thread.
class DashboardSite final : public tbproxy::LocalSite {
 public:
  DashboardSite(std::shared_ptr<ClusterAccess> cluster, std::chrono::milliseconds refresh_interval,
                std::chrono::milliseconds longest_wait, int worker_threads);
  ~DashboardSite() override;

  void handle(tbproxy::SiteRequest request, tbproxy::SiteResponder respond) override;
  // Answers the waiting polls, then waits for the calls under way.
  void stop();

 private:
  void serve_file(const tbproxy::SiteRequest& request, const tbproxy::SiteResponder& respond) const;
  void serve_api(tbproxy::SiteRequest request, tbproxy::SiteResponder respond);

  std::shared_ptr<ClusterAccess> cluster_;
  std::chrono::milliseconds longest_wait_;
  StaticAssets assets_;
  boost::asio::thread_pool workers_;
  LiveView live_;
};

}  // namespace spindle::serve
