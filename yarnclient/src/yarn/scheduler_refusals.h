#pragma once

// The scheduler's refusals of a container request, in words a user acts on.
// Shared by the submission (the master's own container) and the application
// master's asks (the tasks' containers), which the ResourceManager refuses
// with the same exceptions.

#include <string>
#include <string_view>

namespace spindle::yarn {

// Whether the scheduler's exception (its class without the package, as
// Error::remote_exception holds it, and its text) means a request that can
// never be met as it stands, so that asking again cannot help. A request larger than the nodes registered now, but
// within what the cluster is configured to grant, is not: a node that left may come back.
bool is_permanent_refusal(std::string_view exception_class, const std::string& text);

// The ResourceManager's long text of such a refusal, known by the
// exception's class, as one sentence naming what was asked, what the cluster
// grants and what to do; the text itself when it is not one we know. `queue` is the queue the request was made in,
// empty where the scheduler knows it already.
std::string explain_refusal(std::string_view exception_class, const std::string& text, const std::string& queue);

}  // namespace spindle::yarn
