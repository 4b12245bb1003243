#pragma once
// load_mesh for tests whose file must load: a failure fails the test with the loader's message.

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "hitscan/io/mesh_loader.hpp"

namespace hitscan::test {

/// The mesh at `path`, or, after a failed expectation, an empty mesh.
inline TriangleMesh load_or_die(const std::string& path, const io::MeshLoadOptions& options = {},
                                io::MeshLoadReport* report = nullptr) {
  Result<TriangleMesh> mesh = io::load_mesh(path, options, report);
  EXPECT_TRUE(mesh.ok()) << mesh.status().message();
  if (!mesh.ok()) return TriangleMesh::make({}, {}).value();
  return std::move(mesh).value();
}

}  // namespace hitscan::test
