#include "src/serve/basic_auth.h"

#include <crypt.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <sstream>

namespace vrecon::serve {
namespace {

bool AcceptedScheme(std::string_view hash) {
  for (const char* prefix : {"$2a$", "$2b$", "$2y$", "$6$"})
    if (hash.substr(0, std::string_view(prefix).size()) == prefix) return true;
  return false;
}

// Compares without stopping at the first difference, so the time taken says nothing of where
// a guess went wrong.
bool SameBytes(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::optional<std::string> DecodeBase64(std::string_view in) {
  if (in.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < in.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = in[i + static_cast<size_t>(k)];
      if (c == '=' && i + 4 == in.size() && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad > 0) return std::nullopt;  // data after padding
      v[k] = Base64Value(c);
      if (v[k] < 0) return std::nullopt;
    }
    const int bits = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    out.push_back(static_cast<char>((bits >> 16) & 0xff));
    if (pad < 2) out.push_back(static_cast<char>((bits >> 8) & 0xff));
    if (pad < 1) out.push_back(static_cast<char>(bits & 0xff));
  }
  return out;
}

StatusOr<AuthFile> AuthFile::Load(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return Status::IOError("cannot read --auth-file " + path);
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return Status::InvalidArgument("--auth-file " + path +
                                   " may be written by other users, who could add themselves: chmod go-w it");
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status::IOError("cannot read --auth-file " + path);
  std::ostringstream text;
  text << f.rdbuf();
  return Parse(text.str(), path);
}

StatusOr<AuthFile> AuthFile::Parse(std::string_view text, const std::string& path) {
  AuthFile a;
  int line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    const size_t colon = line.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon + 1 == line.size())
      return Status::InvalidArgument(where + "expected user:hash (htpasswd -B or openssl passwd -6)");
    const std::string user(line.substr(0, colon));
    const std::string_view hash = line.substr(colon + 1);
    if (!AcceptedScheme(hash)) {
      return Status::InvalidArgument(where + "the hash of user " + user +
                                     " is neither bcrypt ($2b$...) nor SHA-512 crypt ($6$...): make it with "
                                     "htpasswd -B or openssl passwd -6");
    }
    if (!a.hashes_.emplace(user, std::string(hash)).second)
      return Status::InvalidArgument(where + "user " + user + " is given twice");
  }
  if (a.hashes_.empty()) return Status::InvalidArgument("--auth-file " + path + " names no user");
  return a;
}

std::optional<std::string> AuthFile::Check(std::string_view authorization) const {
  constexpr std::string_view kBasic = "Basic ";
  if (authorization.substr(0, kBasic.size()) != kBasic) return std::nullopt;
  const std::optional<std::string> pair = DecodeBase64(authorization.substr(kBasic.size()));
  if (!pair) return std::nullopt;
  const size_t colon = pair->find(':');
  if (colon == std::string::npos) return std::nullopt;
  const auto it = hashes_.find(std::string_view(*pair).substr(0, colon));
  if (it == hashes_.end()) return std::nullopt;
  const std::string password = pair->substr(colon + 1);
  auto data = std::make_unique<crypt_data>();  // 32 KiB: not on a worker's stack
  const char* computed = crypt_r(password.c_str(), it->second.c_str(), data.get());
  if (computed == nullptr || computed[0] == '*') return std::nullopt;  // libxcrypt's failure token
  if (!SameBytes(computed, it->second)) return std::nullopt;
  return it->first;
}

}  // namespace vrecon::serve
