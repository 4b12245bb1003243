// Paths that are not regular files (character and block devices, named pipes, sockets, links to
// them): the mesh loader and the ray reader refuse them at once with an io_error naming the path
// and what is there, and never read them. /dev/zero read whole grows memory until the process is
// killed, and opening a named pipe for reading waits for a writer forever, so a regression here
// shows as a test that never ends.

#include "hitscan/io/mesh_loader.hpp"
#include "hitscan/io/ray_file.hpp"
#include "io/regular_file.hpp"
#include "support/cube_off.hpp"
#include "support/file_contents.hpp"
#include "support/scratch_directory.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace hitscan::io {
namespace {

namespace fs = std::filesystem;

using test::ScratchDirectory;
using test::write_file;

// A named pipe, with no writer.
std::string make_fifo(const ScratchDirectory& directory, const std::string& name) {
  const std::string path = directory.file(name);
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0) << path << ": " << std::strerror(errno);
  return path;
}

// A Unix domain socket bound at a path, kept open for the test's length.
class BoundSocket {
 public:
  explicit BoundSocket(const std::string& path) : path_(path), descriptor_(::socket(AF_UNIX, SOCK_STREAM, 0)) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    EXPECT_LT(path.size(), sizeof address.sun_path) << path;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    EXPECT_EQ(::bind(descriptor_, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0)
        << path << ": " << std::strerror(errno);
  }
  ~BoundSocket() { ::close(descriptor_); }
  BoundSocket(const BoundSocket&) = delete;
  BoundSocket& operator=(const BoundSocket&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int descriptor_;
};

// A symbolic link at `name` in `directory` to `target`.
std::string link_to(const ScratchDirectory& directory, const std::string& name, const std::string& target) {
  const std::string path = directory.file(name);
  fs::create_symlink(target, path);
  return path;
}

// The message begins with the path and holds `reason`.
void expect_io_error(const Status& status, const std::string& path, const std::string& reason) {
  EXPECT_EQ(status.code(), StatusCode::io_error) << status_code_name(status.code()) << ": " << status.message();
  EXPECT_EQ(status.message().rfind(path + ": ", 0), 0u) << status.message();
  EXPECT_NE(status.message().find(reason), std::string::npos) << status.message();
}

void expect_mesh_refused(const std::string& path, const std::string& reason) {
  SCOPED_TRACE(path);
  for (const bool isolate : {true, false}) {
    const Result<TriangleMesh> mesh = load_mesh(path, {.isolate_importer = isolate});
    ASSERT_FALSE(mesh.ok());
    expect_io_error(mesh.status(), path, reason);
    EXPECT_NE(mesh.status().message().find("not a mesh file (only regular files are read)"), std::string::npos)
        << mesh.status().message();
  }
}

void expect_rays_refused(const std::string& path, const std::string& reason) {
  SCOPED_TRACE(path);
  const Result<std::vector<Rayf>> rays = read_rays(path);
  ASSERT_FALSE(rays.ok());
  expect_io_error(rays.status(), path, reason);
  EXPECT_NE(rays.status().message().find("not a ray file (only regular files are read)"), std::string::npos)
      << rays.status().message();
}

TEST(LoadMeshSpecialFiles, CharacterDevicesAreRefusedAtOnce) {
  const ScratchDirectory directory;
  expect_mesh_refused("/dev/zero", "is a character device");
  expect_mesh_refused("/dev/null", "is a character device");
  // The name's extension picks a format, whose pre-check would read the file first.
  for (const char* name : {"zero.stl", "zero.off", "zero.ply", "zero.glb", "zero.obj"}) {
    expect_mesh_refused(link_to(directory, name, "/dev/zero"), "is a character device");
  }
}

TEST(LoadMeshSpecialFiles, NamedPipeWithoutAWriterIsRefusedAtOnce) {
  const ScratchDirectory directory;
  expect_mesh_refused(make_fifo(directory, "pipe.obj"), "is a named pipe (FIFO)");
  expect_mesh_refused(link_to(directory, "link_to_pipe.off", directory.file("pipe.obj")), "is a named pipe (FIFO)");
}

TEST(LoadMeshSpecialFiles, SocketIsRefused) {
  const ScratchDirectory directory;
  const BoundSocket socket(directory.file("socket.ply"));
  expect_mesh_refused(socket.path(), "is a socket");
}

TEST(LoadMeshSpecialFiles, SymbolicLinkToARegularFileLoads) {
  const ScratchDirectory directory;
  write_file(directory.file("cube.off"), test::kUnitCubeOff);
  const Result<TriangleMesh> mesh = load_mesh(link_to(directory, "link.off", directory.file("cube.off")));
  ASSERT_TRUE(mesh.ok()) << mesh.status().message();
  EXPECT_EQ(mesh.value().triangle_count(), 12u);
}

TEST(ReadRaysSpecialFiles, DevicesPipesAndSocketsAreRefusedAtOnce) {
  const ScratchDirectory directory;
  expect_rays_refused(link_to(directory, "zero.npy", "/dev/zero"), "is a character device");
  expect_rays_refused(link_to(directory, "null.csv", "/dev/null"), "is a character device");
  expect_rays_refused(make_fifo(directory, "pipe.csv"), "is a named pipe (FIFO)");
  expect_rays_refused(make_fifo(directory, "pipe.npy"), "is a named pipe (FIFO)");
  const BoundSocket socket(directory.file("socket.csv"));
  expect_rays_refused(socket.path(), "is a socket");
}

TEST(ReadRaysSpecialFiles, SymbolicLinkToARegularFileIsRead) {
  const ScratchDirectory directory;
  write_file(directory.file("rays.csv"), "0,0,0,0,0,1\n");
  const Result<std::vector<Rayf>> rays = read_rays(link_to(directory, "link.csv", directory.file("rays.csv")));
  ASSERT_TRUE(rays.ok()) << rays.status().message();
  EXPECT_EQ(rays.value().size(), 1u);
}

TEST(OpenRegularFile, BlockDeviceIsRefused) {
  std::string device;
  for (const char* candidate : {"/dev/loop0", "/dev/sda", "/dev/vda", "/dev/nvme0n1", "/dev/ram0"}) {
    struct stat info {};
    if (::stat(candidate, &info) == 0 && S_ISBLK(info.st_mode)) {
      device = candidate;
      break;
    }
  }
  if (device.empty()) GTEST_SKIP() << "no block device found";
  expect_io_error(detail::open_regular_file(device, "mesh file").status(), device, "is a block device");
}

TEST(OpenRegularFile, ReadsAtMostTheBytesAskedFor) {
  const ScratchDirectory directory;
  write_file(directory.file("text"), "0123456789");
  EXPECT_EQ(detail::read_regular_file(directory.file("text"), "file", 4).value(), "0123");
  EXPECT_EQ(detail::read_regular_file(directory.file("text"), "file").value(), "0123456789");
}

}  // namespace
}  // namespace hitscan::io
