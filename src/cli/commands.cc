// The commands' shared helpers (src/cli/commands.h).
#include "src/cli/commands.h"

#include <filesystem>
#include <iostream>

#include "src/store/store_location.h"

namespace vrecon::cli {

void PrintError(const std::string& message) { std::cerr << "vrecon: error: " << message << std::endl; }

int Fail(const std::string& message) {
  PrintError(message);
  return kExitFailure;
}

int Fail(const Status& status) { return Fail(status.message()); }

int FailUsage(const std::string& message) {
  PrintError(message);
  return kExitUsage;
}

int FailUsage(const Status& status) { return FailUsage(status.message()); }

OutputFormat ToFormat(const std::string& s) {
  OutputFormat f = OutputFormat::kTable;
  ParseOutputFormat(s, &f);
  return f;
}

Status ParseTimeOption(const std::string& option, const std::string& text, std::optional<TimeNs>* out) {
  out->reset();
  if (text.empty()) return Status::Ok();
  auto t = ParseIso(text);
  if (!t)
    return Status::InvalidArgument(option + " \"" + text + "\" is not an ISO 8601 time (e.g. 2026-11-01T10:00:00Z)");
  *out = t;
  return Status::Ok();
}

Status ParseTimeRange(const std::string& from_text, const std::string& to_text, std::optional<TimeNs>* from,
                      std::optional<TimeNs>* to) {
  RETURN_IF_ERROR(ParseTimeOption("--from", from_text, from));
  RETURN_IF_ERROR(ParseTimeOption("--to", to_text, to));
  if (*from && *to && **to <= **from)
    return Status::InvalidArgument("--to " + to_text + " is not after --from " + from_text);
  return Status::Ok();
}

StatusOr<std::unique_ptr<Store>> OpenExistingStore(const std::string& path) {
  std::error_code ec;
  if (path != ":memory:" && !IsPostgresUri(path) && !std::filesystem::exists(path, ec))
    return Status::NotFound("store " + path + " does not exist: run `vrecon ingest --db " + path + " FILE...` first");
  return Store::OpenForReading(path);
}

Status ParseMapping(const std::string& text, std::string* guest, std::string* vm) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    return Status::InvalidArgument("--map \"" + text + "\" should be GUEST=VM");
  *guest = text.substr(0, eq);
  *vm = text.substr(eq + 1);
  return Status::Ok();
}

}  // namespace vrecon::cli
