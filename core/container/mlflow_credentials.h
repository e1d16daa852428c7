#pragma once

#include <functional>
#include <string>

#include "spindle/yarn/credentials.h"

namespace spindle::container {

// Puts the MLflow credentials the client carried in this container's
// credentials (mlflow_credentials_alias) into this process's environment,
// where the MLflow client reads them; a CA bundle is written to the
// container's working directory. A problem is a line for `log`: MLflow
// never holds a job or a sweep.
void use_mlflow_credentials(const yarn::Credentials& credentials, const std::function<void(const std::string&)>& log);

}  // namespace spindle::container
