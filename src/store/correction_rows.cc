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

bool WholeHoursUpTo(TimeNs to) { return to == kUnbounded.second || FloorTo(to, kNsPerHour) == to; }

// The hour a range's start falls inside, when it does not start one.
std::optional<TimeNs> CutHour(TimeNs from) {
  if (from == kUnbounded.first || FloorTo(from, kNsPerHour) == from) return std::nullopt;
  return FloorTo(from, kNsPerHour);
}

}  // namespace

CorrectionRows::CorrectionRows(Store* store, TimeNs from, TimeNs to)
    : store_(store),
      from_(from),
      to_(to),
      // A range that ends inside an hour is for one VM (`correct --to`): its blocks are read and
      // written VM by VM.
      held_(store->db()->backend() == Backend::kPostgres && WholeHoursUpTo(to)),
      cut_hour_(CutHour(from)),
      vms_(CorrVmRewrite(store->db())),
      windows_(WindowBlockWrite(store->db())),
      hours_(ProcessHourUpsert(store->db())) {}

Status CorrectionRows::SaveVm(const CorrVm& vm, int64_t id) {
  if (!held_) return RewriteCorrVm(store_, vm);
  // Its row since the last Flush is still held (its Replace is): one statement may not change a
  // row twice.
  if (std::find(replaced_.begin(), replaced_.end(), id) != replaced_.end()) RETURN_IF_ERROR(Flush());
  vms_.Add(CorrVmRow(vm));
  return Status::Ok();
}

Status CorrectionRows::Replace(int64_t vm_id, std::span<const StoredWindow> windows,
                               const std::vector<std::pair<TimeNs, std::vector<ProcessAggregate>>>& process_hours) {
  for (const auto& [hour, procs] : process_hours)
    if (cut_hour_ && hour == *cut_hour_ && !procs.empty())
      return Status::Internal("an hour's process figures cannot be replaced from inside the hour (VM id " +
                              std::to_string(vm_id) + ", " + FormatIso(hour, false) + ")");
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
  for (auto& [hour, list] : hours) {
    if (cut_hour_ && hour == *cut_hour_) {
      cut_[vm_id] = std::move(list);  // joined at the Flush with the windows it keeps
    } else {
      windows_.Add(WindowBlockRow(vm_id, hour, list));
    }
  }
  for (const auto& [hour, procs] : process_hours) hours_.Add(ProcessHourRow(vm_id, hour, procs));
  return replaced_.size() < kVmsPerFlush ? Status::Ok() : Flush();
}

// The replaced VMs' blocks of the hour the range starts inside: the windows before the range
// kept, the new ones after them. One read for the VMs, not one each.
Status CorrectionRows::JoinCutHour() {
  Database* db = store_->db();
  const std::string ids = ArrayLiteral(replaced_);
  std::map<int64_t, std::vector<StoredWindow>> kept;
  std::vector<int64_t> emptied;  // a stored block left with no window
  ASSIGN_OR_RETURN(Statement * q, db->Cached("SELECT vm_id, data FROM corr_window_block WHERE vm_id = "
                                             "ANY(?::bigint[]) AND hour_ns = ?"));
  q->Bind(1, ids).Bind(2, static_cast<int64_t>(*cut_hour_));
  for (;;) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    const int64_t vm_id = q->ColumnInt(0);
    std::vector<StoredWindow>& keep = kept[vm_id];
    bool dropped = false;
    Status st = DecodeWindowBlock(q->ColumnBlob(1), [&](const StoredWindow& w) {
      if (w.start < from_) keep.push_back(w);
      else dropped = true;
      return true;
    });
    if (!st.ok()) {
      q->Reset();
      return CorruptWindowBlock(db, vm_id, *cut_hour_, st);
    }
    if (dropped && keep.empty() && !cut_.contains(vm_id)) emptied.push_back(vm_id);
    if (!dropped && !cut_.contains(vm_id)) kept.erase(vm_id);  // unchanged: not written again
  }
  q->Reset();
  for (auto& [vm_id, list] : cut_) {
    std::vector<StoredWindow>& block = kept[vm_id];
    std::move(list.begin(), list.end(), std::back_inserter(block));
  }
  for (const auto& [vm_id, block] : kept)
    if (!block.empty()) windows_.Add(WindowBlockRow(vm_id, *cut_hour_, block));
  cut_.clear();
  if (emptied.empty()) return Status::Ok();
  ASSIGN_OR_RETURN(Statement * d,
                   db->Cached("DELETE FROM corr_window_block WHERE vm_id = ANY(?::bigint[]) AND hour_ns = ?"));
  return d->Bind(1, ArrayLiteral(emptied)).Bind(2, static_cast<int64_t>(*cut_hour_)).Run();
}

Status CorrectionRows::Flush() {
  RETURN_IF_ERROR(vms_.Flush());
  if (replaced_.empty()) return Status::Ok();
  if (cut_hour_) RETURN_IF_ERROR(JoinCutHour());
  // The VMs' range goes first (the hour it starts inside is not in it: its blocks were joined
  // above), then their new rows.
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
