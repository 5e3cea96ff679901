// The stored form of a Ready-Time digest (models/ready_digest.h), one blob per VM, source and
// UTC day (corr_ready_day) and one for the VM's total (corr_ready.digest). Layout, little-endian:
// u8 version (1, or 2 for a day's digest followed by i64 reach: the latest sample end folded into
// it, so that a later round adds only what ends after it); varint states; then per value digest (ready, costop, run,
// wait, usage, wait per dispatch, host load): varint n, f64 sum, varint thresholds, varint count above each, the
// sketch (src/engine/sketch_codec.h). Varints are LEB128. A blob that does not read back whole is an error naming
// what is wrong.
#ifndef VRECON_SRC_ENGINE_READY_DIGEST_CODEC_H_
#define VRECON_SRC_ENGINE_READY_DIGEST_CODEC_H_

#include <optional>
#include <string>
#include <string_view>

#include "models/ready_digest.h"
#include "src/core/status.h"

namespace vrecon {

std::string EncodeReadyDigest(const models::ReadyDigest& d, std::optional<TimeNs> reach = std::nullopt);
// `reach`, when given, gets the blob's reach (nullopt for a version-1 blob).
StatusOr<models::ReadyDigest> DecodeReadyDigest(std::string_view blob, std::optional<TimeNs>* reach = nullptr);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_READY_DIGEST_CODEC_H_
