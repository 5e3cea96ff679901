#include "src/fleet/drop_folder.h"

#include <sys/stat.h>

#include <filesystem>
#include <map>

#include "src/core/interruptible_sleep.h"
#include "src/core/text_util.h"
#include "src/ingest/ingest_file.h"
#include "src/store/source_tables.h"

namespace vrecon::fleet {
namespace {

namespace fs = std::filesystem;

std::optional<DropFileMark> Look(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return DropFileMark{static_cast<int64_t>(st.st_size),
                      static_cast<TimeNs>(st.st_mtim.tv_sec) * kNsPerSec + st.st_mtim.tv_nsec};
}

bool Wanted(const DropFolderConfig& folder, const std::string& name) {
  if (name.empty() || name[0] == '.') return false;  // hidden and partial uploads (".name.tmp")
  for (const std::string& g : folder.exclude)
    if (GlobMatch(g, name)) return false;
  if (folder.include.empty()) return true;
  for (const std::string& g : folder.include)
    if (GlobMatch(g, name)) return true;
  return false;
}

}  // namespace

StatusOr<DropFolderResult> CollectDropFolder(Store* store, const DropFolderConfig& folder, TimeNs settle,
                                             const std::atomic<bool>* stop, Logger* log) {
  DropFolderResult r;
  std::error_code ec;
  if (!fs::is_directory(folder.path, ec))
    return Status::IOError("drop folder " + folder.path + " is not a readable directory");
  std::vector<std::string> paths;
  auto collect = [&](const fs::directory_entry& e) {
    if (e.is_regular_file(ec) && Wanted(folder, e.path().filename().string())) paths.push_back(e.path().string());
  };
  if (folder.recursive) {
    fs::recursive_directory_iterator it(folder.path, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) collect(*it);
  } else {
    fs::directory_iterator it(folder.path, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) collect(*it);
  }
  if (ec) return Status::IOError("cannot list drop folder " + folder.path + ": " + ec.message());
  std::sort(paths.begin(), paths.end());
  r.files_seen = static_cast<int>(paths.size());

  ASSIGN_OR_RETURN(auto marks, DropFileMarks(store, folder.path));
  std::map<std::string, DropFileMark> changed;
  for (const std::string& p : paths) {
    auto now = Look(p);
    if (!now) continue;
    auto m = marks.find(p);
    if (m != marks.end() && m->second.size == now->size && m->second.mtime == now->mtime) {
      ++r.files_unchanged;
      continue;
    }
    changed[p] = *now;
  }
  if (!changed.empty() && settle > 0) SleepFor(settle, stop);  // stopped: the files are not read
  for (const auto& [path, first] : changed) {
    if (stop && stop->load()) break;
    auto second = Look(path);
    if (!second || second->size != first.size || second->mtime != first.mtime) {
      ++r.files_waiting;
      log->Debug(path + " is still being written; it waits for the next round");
      continue;
    }
    auto ingested = IngestFile(store, path, IngestOptions{});
    if (!ingested.ok()) {
      ++r.files_failed;
      r.errors.push_back(ingested.status().message());
      // A file that cannot be read as any format is not tried again until it changes; one
      // that could not be opened is tried again next round.
      if (ingested.status().IsIOError()) continue;
    } else {
      ++r.files_ingested;
      const auto& sum = ingested->summary;
      r.rows += sum.rows;
      if (sum.rows > 0) {
        if (sum.first_end && (!r.first_new_end || *sum.first_end < *r.first_new_end)) r.first_new_end = sum.first_end;
        if (sum.last_end && (!r.last_new_end || *sum.last_end > *r.last_new_end)) r.last_new_end = sum.last_end;
      }
      log->Debug(path + ": " + std::to_string(sum.rows) + " new rows");
    }
    RETURN_IF_ERROR(SetDropFileMark(store, path, *second, NowNs()));
  }
  return r;
}

}  // namespace vrecon::fleet
