#pragma once
// The checks load_mesh() makes of a file before assimp 5.2 reads it, each against a way one of
// assimp's readers fails unsafely (a crash, a hang, an allocation of what a header announces, a
// silent misreading): refused here first, the file fails the load with a message that says why.
// Each check applies only to the files its format's reader would read, and lets everything else
// through for assimp to read or reject. Private to the io layer.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "hitscan/status.hpp"

struct aiScene;

namespace hitscan::io::detail {

/// Before anything reads the file: a device, named pipe or socket is refused here, at once, with
/// the io_error of open_regular_file ("... not a mesh file").
Status check_readable(const std::string& path);

/// The counts of an OFF file's header, as assimp reads them.
struct OffCounts {
  std::uint64_t vertices = 0;
  std::uint64_t faces = 0;
  std::size_t body = 0;  // the byte where assimp begins reading vertex lines
};

/// For the files assimp reads as OFF (named .off, or beginning with the keyword): a header that
/// announces more vertices and faces than the file can hold, and face lines that do not begin with
/// a corner count from 1 to 9, are parse errors. `announced` receives the header's counts when
/// assimp would accept the header, for check_off_face_count.
Status check_off_header(const std::string& path, std::optional<OffCounts>& announced);

/// After assimp has read an OFF file (the scene's root is "<OFFRoot>"): fewer faces than
/// `announced` is a parse error.
Status check_off_face_count(const aiScene& scene, const std::string& path, const std::optional<OffCounts>& announced);

/// For the files assimp reads as PLY (named .ply, or beginning with "ply"): a header without an
/// end_header line or declaring an element twice, counts beyond what the bytes after the header
/// hold, and ASCII lines that do not hold exactly their values are parse errors.
Status check_ply(const std::string& path);

/// For the files that begin with "glTF": a GLB header or chunk that announces more bytes than the
/// file has is a parse error.
Status check_glb_header(const std::string& path);

/// For a binary file named .stl: fewer bytes than its triangle count announces is a parse error
/// ("truncated binary STL").
Status check_stl_size(const std::string& path);

}  // namespace hitscan::io::detail
