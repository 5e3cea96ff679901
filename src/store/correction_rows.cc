#include "src/store/correction_rows.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "src/store/array_literal.h"
#include "src/store/window_blocks.h"

namespace vrecon {
namespace {

constexpr std::pair<TimeNs, TimeNs> kUnbounded = {std::numeric_limits<TimeNs>::min(),
                                                  std::numeric_limits<TimeNs>::max()};

}  // namespace

CorrectionRows::CorrectionRows(Store* store, TimeNs from, TimeNs to)
    : store_(store),
      from_(from),
      to_(to),
      // A range that cuts an hour keeps the hour's other windows: that needs their read, VM by VM.
      held_(store->db()->backend() == Backend::kPostgres &&
            (from == kUnbounded.first || FloorTo(from, kNsPerHour) == from) &&
            (to == kUnbounded.second || FloorTo(to, kNsPerHour) == to)),
      vms_(CorrVmUpsert(store->db())),
      windows_(WindowBlockWrite(store->db())),
      hours_(ProcessHourUpsert(store->db())) {}

Status CorrectionRows::SaveVm(const CorrVm& vm, int64_t id) {
  if (!held_) return UpsertCorrVm(store_, vm).status();
  // Its row since the last Flush is still held (its Replace is): one statement may not change a
  // row twice.
  if (std::find(replaced_.begin(), replaced_.end(), id) != replaced_.end()) RETURN_IF_ERROR(Flush());
  vms_.Add(CorrVmRow(vm));
  return Status::Ok();
}

Status CorrectionRows::Replace(int64_t vm_id, std::span<const StoredWindow> windows,
                               const std::vector<std::pair<TimeNs, std::vector<ProcessAggregate>>>& process_hours) {
  if (!held_) {
    RETURN_IF_ERROR(DeleteProcessHours(store_, vm_id, from_, to_));
    RETURN_IF_ERROR(ReplaceCorrWindows(store_, vm_id, from_, to_, windows));
    for (const auto& [hour, procs] : process_hours) RETURN_IF_ERROR(InsertProcessHour(store_, vm_id, hour, procs));
    return Status::Ok();
  }
  // A VM given twice before a Flush would meet itself in one statement.
  if (std::find(replaced_.begin(), replaced_.end(), vm_id) != replaced_.end()) RETURN_IF_ERROR(Flush());
  replaced_.push_back(vm_id);
  std::map<TimeNs, std::vector<StoredWindow>> hours;
  AddByHour(windows, from_, to_, &hours);
  for (const auto& [hour, list] : hours) windows_.Add(WindowBlockRow(vm_id, hour, list));
  for (const auto& [hour, procs] : process_hours) hours_.Add(ProcessHourRow(vm_id, hour, procs));
  return replaced_.size() < kVmsPerFlush ? Status::Ok() : Flush();
}

Status CorrectionRows::Flush() {
  RETURN_IF_ERROR(vms_.Flush());
  if (replaced_.empty()) return Status::Ok();
  // The VMs' ranges go first, then their new rows.
  Database* db = store_->db();
  const std::string ids = ArrayLiteral(replaced_);
  for (const char* sql : {"DELETE FROM corr_window_block WHERE vm_id = ANY(?::bigint[]) AND hour_ns >= ? AND "
                          "hour_ns < ?",
                          "DELETE FROM corr_process_hour WHERE vm_id = ANY(?::bigint[]) AND hour_ns >= ? AND "
                          "hour_ns < ?"}) {
    ASSIGN_OR_RETURN(Statement * d, db->Cached(sql));
    RETURN_IF_ERROR(d->Bind(1, ids).Bind(2, static_cast<int64_t>(from_)).Bind(3, static_cast<int64_t>(to_)).Run());
  }
  replaced_.clear();
  RETURN_IF_ERROR(windows_.Flush());
  return hours_.Flush();
}

}  // namespace vrecon
