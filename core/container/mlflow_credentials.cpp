#include "container/mlflow_credentials.h"

#include <filesystem>

#include "spindle/client/mlflow_client.h"
#include "spindle/core/container_contract.h"

namespace spindle::container {

void use_mlflow_credentials(const yarn::Credentials& credentials, const std::function<void(const std::string&)>& log) {
  const auto carried = credentials.secrets.find(container_contract::mlflow_credentials_alias);
  if (carried == credentials.secrets.end()) return;
  std::error_code here_error;
  const auto here = std::filesystem::current_path(here_error);
  if (auto used = client::use_carried_mlflow_credentials(carried->second, here.string()); !used) {
    log("MLflow: " + used.error().message);
  }
}

}  // namespace spindle::container
