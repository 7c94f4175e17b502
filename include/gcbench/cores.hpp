#pragma once
// The host cores this process may run on. std::thread::hardware_concurrency counts every
// online core, but a --gpus worker is pinned to its share of the host (sched_setaffinity):
// thread pools sized from the affinity mask stay on that share instead of crowding it.
namespace gcbench {

// The cores in this thread's affinity mask; hardware_concurrency when it cannot be read; at
// least 1.
int usable_cores();

}  // namespace gcbench
