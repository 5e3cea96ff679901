#include "src/store/latest_window.h"

#include <array>

#include "src/store/optional_columns.h"
#include "src/store/window_blocks.h"

namespace vrecon {

bool IsCompleteWindow(const StoredWindow& w) {
  return w.guest_cov >= kCompleteCoverage && w.host_cov >= kCompleteCoverage;
}

Status PutLatestWindow(Store* store, int64_t vm_id, const StoredWindow& w, const std::vector<ProcessAggregate>& procs,
                       TimeNs recomputed_from, TimeNs recomputed_to) {
  const std::string window = EncodeWindowBlock(std::array{w});
  const std::string processes = EncodeProcesses(procs);
  ASSIGN_OR_RETURN(
      Statement * q,
      store->db()->Cached(
          "INSERT INTO corr_latest(vm_id, start_ns, end_ns, window_block, process_blob) VALUES(?1, ?2, ?7, ?3, "
          "?4) ON CONFLICT(vm_id) DO UPDATE SET start_ns = excluded.start_ns, end_ns = excluded.end_ns, "
          "window_block = "
          "excluded.window_block, process_blob = excluded.process_blob WHERE excluded.start_ns >= "
          "corr_latest.start_ns OR (corr_latest.start_ns >= ?5 AND corr_latest.start_ns < ?6)"));
  return q->Bind(1, vm_id)
      .Bind(2, w.start)
      .BindBlob(3, window.data(), window.size())
      .BindBlob(4, processes.data(), processes.size())
      .Bind(5, recomputed_from)
      .Bind(6, recomputed_to)
      .Bind(7, w.end)
      .Run();
}

Status ForEachLatestWindow(Store* store, const std::function<Status(const LatestWindow&)>& fn) {
  ASSIGN_OR_RETURN(
      Statement q,
      store->db()->Prepare("SELECT v.id, v.vm, v.guest_machine, v.host_source, v.vcpus, v.vm_key, v.vm_source, "
                           "v.host_counter, l.window_block, l.process_blob FROM corr_vm v JOIN corr_latest l "
                           "ON l.vm_id = v.id ORDER BY v.vm, v.vm_key"));
  LatestWindow latest;
  for (;;) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) return Status::Ok();
    latest.vm = {q.ColumnInt(0), q.ColumnText(1), q.ColumnText(2), q.ColumnText(3),
                 OptInt(q, 4),   q.ColumnText(5), q.ColumnText(6), q.ColumnText(7)};
    bool found = false;
    Status decoded = DecodeWindowBlock(q.ColumnBlob(8), [&](const StoredWindow& w) {
      latest.window = w;
      found = true;
      return false;
    });
    StatusOr<std::vector<ProcessAggregate>> procs = DecodeProcesses(q.ColumnBlob(9));
    if (!decoded.ok() || !found || !procs.ok()) {
      return Status::ParseError("store " + store->db()->path() + ": the latest window of VM " + latest.vm.vm + " (" +
                                latest.vm.vm_key + ") is corrupt");
    }
    latest.processes = *std::move(procs);
    RETURN_IF_ERROR(fn(latest));
  }
}

}  // namespace vrecon
