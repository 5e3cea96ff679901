#include "src/collect/query_pool.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace vrecon {

PoolRun RunQueryPool(size_t count, int workers, const std::function<QueryAnswer(int worker, size_t i)>& ask,
                     const std::function<bool(size_t i, QueryAnswer answer)>& store, const std::atomic<bool>* stop) {
  struct Answer {
    size_t index;
    QueryAnswer result;
  };
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Answer> ready;
  PoolRun run;
  bool halted = false;  // `store` failed: ask no more
  int running = workers;
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      while (true) {
        size_t i;
        {
          std::unique_lock<std::mutex> lock(mu);
          cv.wait(lock, [&] { return ready.size() < 2 * static_cast<size_t>(workers); });
          if (run.asked >= count || halted) break;
          if (stop && stop->load()) {
            run.stopped = true;
            break;
          }
          i = run.asked++;
        }
        QueryAnswer r = ask(w, i);
        std::lock_guard<std::mutex> lock(mu);
        ready.push_back(Answer{i, std::move(r)});
        cv.notify_all();
      }
      std::lock_guard<std::mutex> lock(mu);
      --running;
      cv.notify_all();
    });
  }
  while (true) {
    std::optional<Answer> a;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return !ready.empty() || running == 0; });
      if (ready.empty()) break;
      a.emplace(std::move(ready.front()));
      ready.pop_front();
      cv.notify_all();
    }
    if (!store(a->index, std::move(a->result))) {
      std::lock_guard<std::mutex> lock(mu);
      halted = true;
    }
  }
  for (std::thread& t : threads) t.join();
  return run;
}

}  // namespace vrecon
