#include "src/fleet/fleet_config.h"

#include <sys/stat.h>

#include <toml++/toml.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/host_counters.h"
#include "src/core/text_util.h"
#include "src/fleet/toml_guard.h"
#include "src/store/store_location.h"

namespace vrecon::fleet {
namespace {

// Where a key sits, for messages: "fleet.toml:12: vcenter[1].concurrency: ...".
class Checker {
 public:
  Checker(std::string file, std::filesystem::path dir, const ConfigLookups& lookups)
      : file_(std::move(file)), dir_(std::move(dir)), lookups_(lookups) {}

  const ConfigLookups& lookups() const { return lookups_; }

  Status Bad(const toml::source_region& at, const std::string& key, const std::string& what) const {
    return Status::InvalidArgument(file_ + ":" + std::to_string(at.begin.line) + ": " + key + ": " + what);
  }

  Status CheckKeys(const toml::table& t, const std::string& prefix, const std::set<std::string>& known) const {
    for (auto&& [k, v] : t) {
      if (known.contains(std::string(k.str()))) continue;
      std::string list;
      for (const std::string& n : known) list += (list.empty() ? "" : ", ") + n;
      return Bad(k.source(), prefix + std::string(k.str()), "unknown key (known here: " + list + ")");
    }
    return Status::Ok();
  }

  static std::string TypeName(const toml::node& n) {
    std::ostringstream os;
    os << n.type();
    return os.str();
  }

  Status String(const toml::table& t, const std::string& prefix, const char* key, std::string* out,
                bool required = false) const {
    const toml::node* n = t.get(key);
    if (!n) return required ? Bad(t.source(), prefix + key, "missing (required)") : Status::Ok();
    if (!n->is_string()) return Bad(n->source(), prefix + key, "must be a string, not a " + TypeName(*n));
    *out = n->as_string()->get();
    if (out->empty()) return Bad(n->source(), prefix + key, "must not be empty");
    return Status::Ok();
  }

  Status Path(const toml::table& t, const std::string& prefix, const char* key, std::string* out,
              bool required = false) const {
    RETURN_IF_ERROR(String(t, prefix, key, out, required));
    if (!out->empty() && std::filesystem::path(*out).is_relative()) *out = (dir_ / *out).lexically_normal().string();
    return Status::Ok();
  }

  // A SQLite path (relative to the file) or a postgresql:// URI, which must not carry a password.
  Status Store(const toml::table& t, const char* key, std::string* out) const {
    RETURN_IF_ERROR(String(t, "", key, out));
    if (!IsPostgresUri(*out)) return Path(t, "", key, out);
    if (Status s = CheckPostgresUri(*out); !s.ok()) return Bad(t.get(key)->source(), key, s.message());
    return Status::Ok();
  }

  Status Int(const toml::table& t, const std::string& prefix, const char* key, int lo, int hi, int* out) const {
    const toml::node* n = t.get(key);
    if (!n) return Status::Ok();
    if (!n->is_integer()) return Bad(n->source(), prefix + key, "must be an integer, not a " + TypeName(*n));
    const int64_t v = n->as_integer()->get();
    if (v < lo || v > hi)
      return Bad(
          n->source(), prefix + key,
          "must be from " + std::to_string(lo) + " to " + std::to_string(hi) + " (got " + std::to_string(v) + ")");
    *out = static_cast<int>(v);
    return Status::Ok();
  }

  Status Bool(const toml::table& t, const std::string& prefix, const char* key, bool* out) const {
    const toml::node* n = t.get(key);
    if (!n) return Status::Ok();
    if (!n->is_boolean()) return Bad(n->source(), prefix + key, "must be true or false, not a " + TypeName(*n));
    *out = n->as_boolean()->get();
    return Status::Ok();
  }

  Status Strings(const toml::table& t, const std::string& prefix, const char* key,
                 std::vector<std::string>* out) const {
    const toml::node* n = t.get(key);
    if (!n) return Status::Ok();
    if (!n->is_array()) return Bad(n->source(), prefix + key, "must be an array of strings, not a " + TypeName(*n));
    for (const toml::node& e : *n->as_array()) {
      if (!e.is_string() || e.as_string()->get().empty())
        return Bad(e.source(), prefix + key, "every element must be a non-empty string");
      out->push_back(e.as_string()->get());
    }
    return Status::Ok();
  }

  // An integer number of seconds or a duration text ("30s", "5m", "1h").
  Status Duration(const toml::table& t, const std::string& prefix, const char* key, TimeNs* out) const {
    const toml::node* n = t.get(key);
    if (!n) return Status::Ok();
    std::optional<TimeNs> d;
    // Whole seconds up to the text form's ~31 years: 360077777777 is refused, not overflowed.
    constexpr int64_t kMaxSeconds = 1'000'000'000;
    if (n->is_integer()) {
      const int64_t v = n->as_integer()->get();
      if (v > 0 && v <= kMaxSeconds) d = v * kNsPerSec;
    }
    if (n->is_string()) d = ParseDuration(n->as_string()->get());
    if (!d) return Bad(n->source(), prefix + key, "must be a positive duration such as 30, \"30s\", \"5m\" or \"1h\"");
    *out = *d;
    return Status::Ok();
  }

 private:
  std::string file_;
  std::filesystem::path dir_;
  const ConfigLookups& lookups_;
};

// The password comes from the environment or a file only its owner can read; it never
// appears in a message.
Status ReadPassword(const Checker& c, const toml::table& t, const std::string& prefix, std::string* out) {
  std::string env, file;
  RETURN_IF_ERROR(c.String(t, prefix, "password_env", &env));
  RETURN_IF_ERROR(c.Path(t, prefix, "password_file", &file));
  if (!env.empty() && !file.empty())
    return c.Bad(t.get("password_file")->source(), prefix + "password_file",
                 "give password_env or password_file, not both");
  if (!env.empty()) {
    const std::optional<std::string> v = c.lookups().env(env);
    if (!v || v->empty())
      return c.Bad(t.get("password_env")->source(), prefix + "password_env",
                   "environment variable " + env + " is not set or empty");
    *out = *v;
    return Status::Ok();
  }
  if (file.empty()) return c.Bad(t.source(), prefix + "password_env", "missing: give password_env or password_file");
  StatusOr<std::string> read = c.lookups().password_file(file);
  if (!read.ok()) return c.Bad(t.get("password_file")->source(), prefix + "password_file", read.status().message());
  *out = std::move(read).value();
  return Status::Ok();
}

Status ReadVcenter(const Checker& c, const toml::table& t, const std::string& prefix, VcenterConfig* v) {
  RETURN_IF_ERROR(
      c.CheckKeys(t, prefix,
                  {"name", "url", "user", "password_env", "password_file", "ca", "insecure", "allow_insecure_http",
                   "vms", "exclude", "historical", "backfill_days", "concurrency", "timeout"}));
  RETURN_IF_ERROR(c.String(t, prefix, "url", &v->url, true));
  RETURN_IF_ERROR(c.Bool(t, prefix, "allow_insecure_http", &v->allow_http));
  // Checked before the password is looked up: plain HTTP hands it to anyone on the path.
  if (IsPlainHttpUrl(v->url) && !v->allow_http)
    return c.Bad(
        t.get("url")->source(), prefix + "url",
        "plain http:// would send the password to " + UrlHost(v->url) +
            " unencrypted; use https://, or set allow_insecure_http = true in this [[vcenter]] table to accept that");
  if (!IsHttpsUrl(v->url) && !IsPlainHttpUrl(v->url))
    return c.Bad(t.get("url")->source(), prefix + "url", "must start with https:// (got \"" + v->url + "\")");
  RETURN_IF_ERROR(c.String(t, prefix, "name", &v->id));
  if (v->id.empty()) v->id = v->url;
  RETURN_IF_ERROR(c.String(t, prefix, "user", &v->user, true));
  RETURN_IF_ERROR(ReadPassword(c, t, prefix, &v->password));
  RETURN_IF_ERROR(c.Path(t, prefix, "ca", &v->ca));
  RETURN_IF_ERROR(c.Bool(t, prefix, "insecure", &v->insecure));
  if (v->insecure && !v->ca.empty())
    return c.Bad(t.get("insecure")->source(), prefix + "insecure", "give ca or insecure, not both");
  if (!v->ca.empty() && !c.lookups().is_regular_file(v->ca))
    return c.Bad(t.get("ca")->source(), prefix + "ca", "no such file " + v->ca);
  RETURN_IF_ERROR(c.Strings(t, prefix, "vms", &v->include));
  RETURN_IF_ERROR(c.Strings(t, prefix, "exclude", &v->exclude));
  RETURN_IF_ERROR(c.Bool(t, prefix, "historical", &v->historical));
  RETURN_IF_ERROR(c.Int(t, prefix, "backfill_days", 0, 365, &v->backfill_days));
  RETURN_IF_ERROR(c.Int(t, prefix, "concurrency", 1, 64, &v->concurrency));
  return c.Int(t, prefix, "timeout", 1, 3600, &v->timeout_s);
}

// [[map]] guest = "WEB01" vm = "vsphere:<vCenter id>/vm-42" (a vm_key, or a VM name).
Status ReadMap(const Checker& c, const toml::table& t, const std::string& prefix,
               std::pair<std::string, std::string>* m) {
  RETURN_IF_ERROR(c.CheckKeys(t, prefix, {"guest", "vm"}));
  RETURN_IF_ERROR(c.String(t, prefix, "guest", &m->first, true));
  return c.String(t, prefix, "vm", &m->second, true);
}

Status ReadDropFolder(const Checker& c, const toml::table& t, const std::string& prefix, DropFolderConfig* d) {
  RETURN_IF_ERROR(c.CheckKeys(t, prefix, {"path", "recursive", "include", "exclude"}));
  RETURN_IF_ERROR(c.Path(t, prefix, "path", &d->path, true));
  RETURN_IF_ERROR(c.Bool(t, prefix, "recursive", &d->recursive));
  RETURN_IF_ERROR(c.Strings(t, prefix, "include", &d->include));
  return c.Strings(t, prefix, "exclude", &d->exclude);
}

// [[vcenter]] and [[drop_folder]] are arrays of tables.
template <typename T, typename Fn>
Status ReadArray(const Checker& c, const toml::table& root, const char* key, std::vector<T>* out, Fn read) {
  const toml::node* n = root.get(key);
  if (!n) return Status::Ok();
  if (!n->is_array_of_tables())
    return c.Bad(n->source(), key, std::string("must be written as [[") + key + "]] tables");
  int i = 0;
  for (const toml::node& e : *n->as_array()) {
    T item;
    RETURN_IF_ERROR(read(c, *e.as_table(), std::string(key) + "[" + std::to_string(i++) + "].", &item));
    out->push_back(std::move(item));
  }
  return Status::Ok();
}

}  // namespace

std::optional<TimeNs> ParseDuration(const std::string& s) {
  if (s.empty()) return std::nullopt;
  const char unit = s.back();
  const bool has_unit = unit == 's' || unit == 'm' || unit == 'h' || unit == 'd';
  auto n = ParseDouble(has_unit ? s.substr(0, s.size() - 1) : s);
  if (!n || !(*n > 0) || *n > 1e7) return std::nullopt;
  const double mult = unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 1;
  // At least 1 ns ("1e-12s" is not a zero wait) and at most ~31 years (1e7 d would overflow).
  const double ns = *n * mult * kNsPerSec;
  if (ns < 1 || ns > 1e18) return std::nullopt;
  return static_cast<TimeNs>(ns);
}

ConfigLookups SystemLookups() {
  ConfigLookups l;
  l.env = [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
  l.password_file = [](const std::string& file) -> StatusOr<std::string> {
    struct stat st {};
    if (stat(file.c_str(), &st) != 0) return Status::IOError("cannot read " + file);
    if (st.st_mode & (S_IRWXG | S_IRWXO))
      return Status::InvalidArgument(file + " is readable by group or others; chmod 600 it (refused to use it)");
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
    if (line.empty()) return Status::InvalidArgument(file + " is empty");
    return line;
  };
  l.is_regular_file = [](const std::string& file) {
    std::error_code ec;  // the overload without it throws on an unreadable directory
    return std::filesystem::is_regular_file(file, ec);
  };
  return l;
}

StatusOr<FleetConfig> LoadFleetConfig(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path, ec))
    return Status::IOError("cannot read the configuration file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return ParseFleetConfig(text.str(), path, SystemLookups());
}

// vsphere_counter, esxtop_counter: the words of --vsphere-counter and --esxtop-counter.
template <typename E>
Status ReadCounterWord(const Checker& c, const toml::table& root, const char* key,
                       std::optional<E> (*parse)(std::string_view), const std::vector<std::string>& words, E* out) {
  std::string word(OptionWord(*out));
  RETURN_IF_ERROR(c.String(root, "", key, &word));
  const std::optional<E> choice = parse(word);
  if (!choice) return c.Bad(root.get(key)->source(), key, MustBeOneOf(words));
  *out = *choice;
  return Status::Ok();
}

// retain_samples / retain_corrections: absent keeps everything. Corrections are computed from
// samples: kept for less time, the next recompute would bring them back.
Status ReadRetention(const Checker& c, const toml::table& root, FleetConfig* cfg) {
  for (auto [key, out] :
       {std::pair{"retain_samples", &cfg->retain_samples}, std::pair{"retain_corrections", &cfg->retain_corrections}}) {
    if (!root.get(key)) continue;
    TimeNs keep = 0;
    RETURN_IF_ERROR(c.Duration(root, "", key, &keep));
    *out = keep;
  }
  if (cfg->retain_samples && cfg->retain_corrections && *cfg->retain_corrections < *cfg->retain_samples)
    return c.Bad(root.get("retain_corrections")->source(), "retain_corrections",
                 "is shorter than retain_samples: stored corrections are computed from the samples, keep them at "
                 "least as long");
  return Status::Ok();
}

StatusOr<FleetConfig> ParseFleetConfig(std::string_view text, const std::string& path, const ConfigLookups& lookups) {
  FleetConfig cfg;
  cfg.file = path;
  if (const int64_t line = LineTomlppMisreads(text))
    return Status::InvalidArgument(
        path + ":" + std::to_string(line) +
        ": not valid TOML: a non-ASCII character outside quotes and comments (or right after "
        "a backslash in a \"\"\" string)");
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    return Status::InvalidArgument(path + ":" + std::to_string(e.source().begin.line) +
                                   ": not valid TOML: " + std::string(e.description()));
  }
  std::error_code cwd_error;  // absolute() without it throws when the working directory is gone
  const std::filesystem::path absolute = std::filesystem::absolute(path, cwd_error);
  const Checker c(path, (cwd_error ? std::filesystem::path(path) : absolute).parent_path(), lookups);
  RETURN_IF_ERROR(c.CheckKeys(
      root, "",
      {"db", "window", "since", "parallel_sources", "retries", "retry_backoff", "settle", "mappings", "map", "vcenter",
       "drop_folder", "vsphere_counter", "esxtop_counter", "retain_samples", "retain_corrections"}));
  RETURN_IF_ERROR(c.Store(root, "db", &cfg.db));
  RETURN_IF_ERROR(c.Int(root, "", "window", 20, 86400, &cfg.window_s));
  RETURN_IF_ERROR(c.Duration(root, "", "since", &cfg.since));
  RETURN_IF_ERROR(c.Int(root, "", "parallel_sources", 1, 64, &cfg.parallel_sources));
  RETURN_IF_ERROR(c.Int(root, "", "retries", 0, 10, &cfg.retries));
  RETURN_IF_ERROR(c.Duration(root, "", "retry_backoff", &cfg.retry_backoff));
  RETURN_IF_ERROR(c.Duration(root, "", "settle", &cfg.settle));
  RETURN_IF_ERROR(ReadRetention(c, root, &cfg));
  RETURN_IF_ERROR(ReadCounterWord(c, root, "vsphere_counter", ParseVsphereCounter, VsphereCounterWords(),
                                  &cfg.host_counters.vsphere));
  RETURN_IF_ERROR(
      ReadCounterWord(c, root, "esxtop_counter", ParseEsxtopCounter, EsxtopCounterWords(), &cfg.host_counters.esxtop));
  if (const toml::node* m = root.get("mappings")) {
    if (!m->is_table()) return c.Bad(m->source(), "mappings", "must be a [mappings] table of \"guest\" = \"VM\"");
    for (auto&& [k, v] : *m->as_table()) {
      if (!v.is_string() || v.as_string()->get().empty())
        return c.Bad(v.source(), "mappings." + std::string(k.str()),
                     "must be the VM name (or its vm_key) as a non-empty string");
      cfg.mappings[std::string(k.str())] = v.as_string()->get();
    }
  }
  std::vector<std::pair<std::string, std::string>> maps;
  RETURN_IF_ERROR(ReadArray(c, root, "map", &maps, ReadMap));
  for (auto& [guest, vm] : maps) cfg.mappings[guest] = std::move(vm);
  RETURN_IF_ERROR(ReadArray(c, root, "vcenter", &cfg.vcenters, ReadVcenter));
  RETURN_IF_ERROR(ReadArray(c, root, "drop_folder", &cfg.drop_folders, ReadDropFolder));
  std::set<std::string> ids;
  for (size_t i = 0; i < cfg.vcenters.size(); ++i) {
    if (!ids.insert(cfg.vcenters[i].id).second) {
      const toml::node* n = root.get("vcenter")->as_array()->get(i);
      return c.Bad(n->source(), "vcenter[" + std::to_string(i) + "]",
                   "a second source named " + cfg.vcenters[i].id + " (give each vCenter its own url or name)");
    }
  }
  if (cfg.vcenters.empty() && cfg.drop_folders.empty())
    return Status::InvalidArgument(path +
                                   ":1: vcenter: the file names no source; add a [[vcenter]] or [[drop_folder]]");
  return cfg;
}

}  // namespace vrecon::fleet
