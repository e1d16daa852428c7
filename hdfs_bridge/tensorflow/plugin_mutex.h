#pragma once

// A mutex straight on pthreads. std::mutex would decide through a weak
// reference to a symbol that glibc 2.34 versioned anew whether the process
// has threads, and on an older C library conclude it has none and never lock.

#include <pthread.h>

namespace spindle::hdfs_bridge {

class PluginMutex {
 public:
  constexpr PluginMutex() = default;
  PluginMutex(const PluginMutex&) = delete;
  PluginMutex& operator=(const PluginMutex&) = delete;
  void lock() { pthread_mutex_lock(&mutex_); }
  void unlock() { pthread_mutex_unlock(&mutex_); }

 private:
  pthread_mutex_t mutex_ = PTHREAD_MUTEX_INITIALIZER;
};

class PluginLock {
 public:
  explicit PluginLock(PluginMutex& mutex) : mutex_(mutex) { mutex_.lock(); }
  ~PluginLock() { mutex_.unlock(); }
  PluginLock(const PluginLock&) = delete;
  PluginLock& operator=(const PluginLock&) = delete;

 private:
  PluginMutex& mutex_;
};

}  // namespace spindle::hdfs_bridge
