#!/usr/bin/python3
"""Writes the seed corpus of each fuzz target (fuzz/README.md) into OUT/<target>/ (default OUT:
build/fuzz-corpus), from real files and files made here; nothing is downloaded.

  fuzz_mesh_loader  assimp's small test models (OBJ, PLY, STL, OFF, glTF, GLB) when the
                    assimp-testmodels package is installed, meshes written here in each format,
                    and truncations of them; each file behind the byte that selects its format.
  fuzz_ray_file     .npy tables (float32 and float64, 6 and 8 columns, format 1.0 and 2.0) and
                    .csv tables, valid and truncated.
  fuzz_capi         programs of C API calls, assembled with the encoding of fuzz/capi_program.hpp.

Usage: scripts/make_fuzz_corpus.py [OUT]
"""

import base64
import hashlib
import json
import math
import os
import shutil
import struct
import sys

ASSIMP_MODELS = "/usr/share/assimp/models"
MESH_FORMATS = ["obj", "ply", "stl", "off", "gltf", "glb"]  # the selector byte's value mod 6
LARGEST_MODEL = 8 * 1024  # bytes: small seeds keep the fuzzer fast


def write_corpus(directory, units):
    """Replaces `directory` with one file per unit, named by its hash as libFuzzer names them."""
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    for unit in units:
        with open(os.path.join(directory, hashlib.sha1(unit).hexdigest()), "wb") as f:
            f.write(unit)
    return len(set(units))


def truncations(data, count=3):
    """`count` prefixes of data, cut at evenly spaced points."""
    return [data[: len(data) * k // (count + 1)] for k in range(1, count + 1)]


# --- meshes ---------------------------------------------------------------------------------------

CUBE_VERTICES = [(x, y, z) for z in (0, 1) for y in (0, 1) for x in (0, 1)]
CUBE_QUADS = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
CUBE_TRIANGLES = [t for q in CUBE_QUADS for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))]


def obj_text(vertices, faces):
    lines = ["# made by make_fuzz_corpus.py", "o cube"]
    lines += ["v %g %g %g" % v for v in vertices]
    lines += ["vn 0 0 1"]
    lines += ["f " + " ".join("%d//1" % (i + 1) for i in face) for face in faces]
    return ("\n".join(lines) + "\n").encode()


def off_text(vertices, faces):
    lines = ["OFF", "%d %d 0" % (len(vertices), len(faces))]
    lines += ["%g %g %g" % v for v in vertices]
    lines += ["%d " % len(face) + " ".join(map(str, face)) for face in faces]
    return ("\n".join(lines) + "\n").encode()


def ply_ascii(vertices, faces):
    header = ["ply", "format ascii 1.0", "element vertex %d" % len(vertices), "property float x",
              "property float y", "property float z", "element face %d" % len(faces),
              "property list uchar int vertex_indices", "end_header"]
    body = ["%g %g %g" % v for v in vertices] + ["%d " % len(f) + " ".join(map(str, f)) for f in faces]
    return ("\n".join(header + body) + "\n").encode()


def ply_binary(vertices, faces):
    header = ("ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\n"
              "property float y\nproperty float z\nelement face %d\n"
              "property list uchar int vertex_indices\nend_header\n" % (len(vertices), len(faces))).encode()
    body = b"".join(struct.pack("<3f", *v) for v in vertices)
    body += b"".join(struct.pack("<B%di" % len(f), len(f), *f) for f in faces)
    return header + body


def triangle_normal(a, b, c):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    length = math.sqrt(sum(x * x for x in n)) or 1.0
    return [x / length for x in n]


def stl_ascii(vertices, triangles):
    lines = ["solid cube"]
    for t in triangles:
        corners = [vertices[i] for i in t]
        lines.append("facet normal %g %g %g" % tuple(triangle_normal(*corners)))
        lines.append("outer loop")
        lines += ["vertex %g %g %g" % c for c in corners]
        lines += ["endloop", "endfacet"]
    lines.append("endsolid cube")
    return ("\n".join(lines) + "\n").encode()


def stl_binary(vertices, triangles):
    data = b"binary STL made by make_fuzz_corpus.py".ljust(80, b" ") + struct.pack("<I", len(triangles))
    for t in triangles:
        corners = [vertices[i] for i in t]
        data += struct.pack("<3f", *triangle_normal(*corners))
        data += b"".join(struct.pack("<3f", *c) for c in corners) + b"\0\0"
    return data


def gltf_document(vertices, triangles, uri):
    """A glTF 2.0 document of one indexed triangle mesh under a translated node."""
    return {
        "asset": {"version": "2.0", "generator": "make_fuzz_corpus.py"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "translation": [1, 2, 3], "children": [1]}, {"mesh": 0, "scale": [-1, 1, 1]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 1}, "indices": 0, "mode": 4}]}],
        "buffers": [{"byteLength": len(triangles) * 6 + len(vertices) * 12, **({"uri": uri} if uri else {})}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": len(triangles) * 6, "target": 34963},
            {"buffer": 0, "byteOffset": len(triangles) * 6, "byteLength": len(vertices) * 12, "target": 34962},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5123, "count": len(triangles) * 3, "type": "SCALAR"},
            {"bufferView": 1, "componentType": 5126, "count": len(vertices), "type": "VEC3",
             "min": [min(v[i] for v in vertices) for i in range(3)],
             "max": [max(v[i] for v in vertices) for i in range(3)]},
        ],
    }


def gltf_buffer(vertices, triangles):
    # The index view is a multiple of 4 bytes long for 2 triangles per quad, so the float view stays aligned.
    return (b"".join(struct.pack("<3H", *t) for t in triangles) +
            b"".join(struct.pack("<3f", *v) for v in vertices))


def gltf_embedded(vertices, triangles):
    data = gltf_buffer(vertices, triangles)
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    return json.dumps(gltf_document(vertices, triangles, uri), indent=1).encode()


def glb(vertices, triangles):
    data = gltf_buffer(vertices, triangles)
    data += b"\0" * (-len(data) % 4)
    text = json.dumps(gltf_document(vertices, triangles, None)).encode()
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(data), 0x004E4942) + data
    return b"glTF" + struct.pack("<II", 2, 12 + len(chunks)) + chunks


def mesh_units():
    units = []

    def add(format_name, data, flags=0):
        units.append(bytes([MESH_FORMATS.index(format_name) + 6 * flags]) + data)

    made = {
        "obj": [obj_text(CUBE_VERTICES, CUBE_QUADS), b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
                b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 9 9 9\nl 1 2\np 3\nf 1 2 3 4\nf 1 -1 2\n"],
        "ply": [ply_ascii(CUBE_VERTICES, CUBE_QUADS), ply_binary(CUBE_VERTICES, CUBE_TRIANGLES)],
        "stl": [stl_ascii(CUBE_VERTICES, CUBE_TRIANGLES[:4]), stl_binary(CUBE_VERTICES, CUBE_TRIANGLES)],
        "off": [off_text(CUBE_VERTICES, CUBE_QUADS), b"OFF\n3 1 0\n0 0 0\n1 0 0\nnan 1 0\n3 0 1 2\n",
                b"OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n12 0 1 2 3 0 1 2 3 0 1 2 3\n"],
        "gltf": [gltf_embedded(CUBE_VERTICES, CUBE_TRIANGLES)],
        "glb": [glb(CUBE_VERTICES, CUBE_TRIANGLES)],
    }
    for format_name, files in made.items():
        for data in files:
            add(format_name, data)
            for cut in truncations(data):
                add(format_name, cut)
    # Each option once: without normals, without node transforms.
    add("obj", made["obj"][0], flags=1)
    add("gltf", made["gltf"][0], flags=2)

    if os.path.isdir(ASSIMP_MODELS):
        for root, _, names in sorted(os.walk(ASSIMP_MODELS)):
            for name in sorted(names):
                extension = name.rsplit(".", 1)[-1].lower()
                path = os.path.join(root, name)
                if extension in MESH_FORMATS and os.path.getsize(path) <= LARGEST_MODEL:
                    with open(path, "rb") as f:
                        add(extension, f.read())
    return units


# --- ray tables -----------------------------------------------------------------------------------

RAYS = [[0, 0, -5, 0, 0, 1, 0, 10], [1.5, -2, 3, 0.25, 0.5, -1, 0.5, math.inf],
        [0, 0, 0, 0, 0, 0, 0, 1], [math.nan, 1, 2, 1, 0, 0, -1, 1e40]]


def npy(rows, columns, dtype="<f4", version=1, shape=None, fortran=False):
    shape = shape if shape is not None else (len(rows), columns)
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        dtype, "True" if fortran else "False", ", ".join(map(str, shape)) + ("," if len(shape) == 1 else ""))
    length_bytes = 2 if version == 1 else 4
    padding = -(6 + 2 + length_bytes + len(header) + 1) % 64
    header = (header + " " * padding + "\n").encode()
    data = b"\x93NUMPY" + bytes([version, 0]) + struct.pack("<H" if version == 1 else "<I", len(header)) + header
    return data + b"".join(item(row[c], dtype[1:]) for row in rows for c in range(columns))


def item(value, kind):
    """One value as float32 ('f4', beyond its range an infinity) or float64."""
    if kind == "f4" and math.isfinite(value) and abs(value) > 3.4028234663852886e38:
        value = math.copysign(math.inf, value)
    return struct.pack("<f" if kind == "f4" else "<d", value)


def csv(rows, columns, header=True, line_end="\n"):
    names = ["ox", "oy", "oz", "dx", "dy", "dz", "tmin", "tmax"][:columns]
    lines = [",".join(names)] if header else []
    lines += [",".join(repr(float(v)) for v in row[:columns]) for row in rows]
    return (line_end.join(lines) + line_end).encode()


def ray_units():
    valid = [npy(RAYS, 6), npy(RAYS, 8), npy(RAYS, 6, "<f8"), npy(RAYS, 8, "<f8", version=2), npy([], 6),
             csv(RAYS, 6), csv(RAYS, 8, header=False), csv(RAYS, 6, line_end="\r\n"), b"\xef\xbb\xbf" + csv(RAYS, 8),
             b"ox,oy,oz,dx,dy,dz\n", b"", b"1, +2, -3, inf, -Infinity, NaN\n\n4,5,6,7,8,9\n"]
    invalid = [npy(RAYS, 6, ">f4"), npy(RAYS, 6, "<i4"), npy(RAYS, 6, fortran=True), npy(RAYS, 7),
               npy(RAYS, 6, shape=(9, 6)), npy(RAYS, 6, shape=(24,)), b"1,2,3\n", b"1,2,3,4,5,x\n",
               csv(RAYS, 6)[:-10] + b",1\n"]
    units = valid + invalid
    for data in valid[:4] + valid[5:7]:
        units += truncations(data)
    return units


# --- C API programs ---------------------------------------------------------------------------------
# The encoding of fuzz/capi_program.hpp and of Program::step() in fuzz/fuzz_capi.cpp.

SPECIAL_REALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-30, -1e-30, 1e30, -1e30, 3.4028234663852886e38,
                 1.401298464324817e-45, math.inf, -math.inf, math.nan, 1e7]
OP = {"create_mesh": 0, "destroy_mesh": 1, "add_shape": 2, "add_mesh_instance": 4, "add_mesh": 5, "edit": 6,
      "commit": 9, "options": 10, "raycast": 11, "batch": 13, "overlap": 14, "closest_point": 16,
      "bad_arguments": 17, "new_scene": 18, "sweep": 39, "sweep_batch": 99, "async": 139}
SHAPE = {"sphere": 0, "box": 1, "capsule": 2, "cylinder": 3, "plane": 4, "polygon": 5, "hull": 6}


def real(x):
    for i, special in enumerate(SPECIAL_REALS):
        same_sign = math.copysign(1, x) == math.copysign(1, special)
        if (math.isnan(x) and math.isnan(special)) or (x == special and same_sign):
            return bytes([i])
    if x * 4 == int(x * 4) and -22 <= x <= 21.75:
        return bytes([int(x * 4) + 104])
    return bytes([192]) + item(x, "f4")


def vec3(v):
    return b"".join(real(x) for x in v)


def quat(q=None):
    return b"\x01" if q is None else b"\x00" + b"".join(real(x) for x in q)


def transform(rotation=None, translation=(0, 0, 0), scale=None):
    data = quat(rotation) + vec3(translation)
    if scale is None:
        return data + b"\x00"
    if isinstance(scale, (int, float)):
        return data + b"\x01" + real(scale)
    return data + b"\x02" + vec3(scale)


def u64(x):
    return struct.pack("<Q", x)


def mesh(vertices, triangles):
    data = bytes([len(vertices)]) + b"".join(vec3(v) for v in vertices) + bytes([len(triangles)])
    return data + bytes(i for t in triangles for i in t)  # indices below 240 select i % (count + 1)


def create_mesh(vertices, triangles):
    return bytes([OP["create_mesh"]]) + mesh(vertices, triangles)


def shape(kind, *values):
    """values: the shape's fields in hs_shape order; a polygon takes its vertex count (regular) or vertices."""
    if kind == "hull":  # the corners of a cube of half side values[0]
        return bytes([SHAPE[kind], 1, 8, 0]) + real(values[0])
    if kind == "polygon":
        vertices = values[0]
        if isinstance(vertices, int):
            return bytes([SHAPE[kind], 1, vertices, 0])
        return bytes([SHAPE[kind], 1, len(vertices), 1]) + b"".join(vec3(v) for v in vertices)
    data = bytes([SHAPE[kind], 1])
    for value in values:
        data += quat(value[1]) if isinstance(value, tuple) and value and value[0] == "quat" else (
            vec3(value) if isinstance(value, (list, tuple)) else real(value))
    return data


def add_shape(shape_bytes, xform=None, layer=0, user_id=0):
    return (bytes([OP["add_shape"]]) + shape_bytes + bytes([1 if xform else 0]) + (xform or transform()) +
            bytes([layer]) + u64(user_id))


def add_mesh_instance(mesh_index, xform, layer=0, user_id=0):
    return bytes([OP["add_mesh_instance"]]) + xform + bytes([layer]) + u64(user_id) + bytes([mesh_index])


def add_mesh(vertices, triangles, xform, layer=0, user_id=0):
    return bytes([OP["add_mesh"]]) + xform + bytes([layer]) + u64(user_id) + mesh(vertices, triangles)


def edit(collider, kind, *arguments):
    """kind: remove, transform, shape, layer, user_id; collider: index into the ids handed out."""
    kinds = ["remove", "transform", "shape", "layer", "user_id"]
    return bytes([OP["edit"], collider, kinds.index(kind)]) + b"".join(arguments)


def options(default=False, layer_mask=None, max_distance=None, faces=0, solid=1, contacts=0, filter_mask=None):
    data = bytes([OP["options"], 0 if default else 1])
    data += b"\x01" + struct.pack("<I", layer_mask) if layer_mask is not None else b"\x00"
    data += b"\x01" + real(max_distance) if max_distance is not None else b"\x00"
    data += bytes([faces, solid, contacts])
    data += b"\x01" + struct.pack("<I", filter_mask) if filter_mask is not None else b"\x00"
    return data


def ray(origin, direction, max_distance=None):
    return vec3(origin) + vec3(direction) + (b"\x01" + real(max_distance) if max_distance is not None else b"\x00")


def raycast(origin, direction, max_distance=None, capacity=4):
    return bytes([OP["raycast"]]) + ray(origin, direction, max_distance) + bytes([capacity])


def batch(rays):
    return bytes([OP["batch"], len(rays)]) + b"".join(ray(*r) for r in rays)


def overlap(kind, capacity, *values):
    data = bytes([OP["overlap"], capacity, ["sphere", "box", "capsule"].index(kind)])
    for value in values:
        data += quat(value[1]) if isinstance(value, tuple) and value and value[0] == "quat" else (
            vec3(value) if isinstance(value, (list, tuple)) else real(value))
    return data


def sweep(kind, *values, max_distance=None):
    """kind: sphere (centre, radius, direction), capsule (a, b, radius, direction) or box (centre,
    half extents, ("quat", q or None), direction)."""
    data = bytes([OP["sweep"], ["sphere", "capsule", "box"].index(kind)])
    for value in values:
        data += quat(value[1]) if isinstance(value, tuple) and value and value[0] == "quat" else (
            vec3(value) if isinstance(value, (list, tuple)) else real(value))
    return data + (b"\x01" + real(max_distance) if max_distance is not None else b"\x00")


def sphere_sweeps(sweeps):
    return b"".join(vec3(c) + real(r) + vec3(d) for c, r, d in sweeps)


def sweep_batch(sweeps):
    return bytes([OP["sweep_batch"], len(sweeps)]) + sphere_sweeps(sweeps)


def async_batch(rays=None, sweeps=None):
    if sweeps is not None:
        return bytes([OP["async"], 1, len(sweeps)]) + sphere_sweeps(sweeps)
    return bytes([OP["async"], 0, len(rays)]) + b"".join(ray(*r) for r in rays)


def sweeps():
    data = sweep("sphere", (0, 0, -8), 0.5, (0, 0, 1)) + sweep("sphere", (3, 0, 0), 0.5, (1, 0, 0))
    data += sweep("capsule", (-8, 0, -0.5), (-8, 0, 0.5), 0.25, (1, 0, 0), max_distance=20)
    data += sweep("box", (0, 8, 0), (0.5, 0.5, 0.5), ("quat", (1, 0, 0, 1)), (0, -1, 0))
    data += sweep("box", (0, 0, 0), (0.25, 0.25, 0.25), ("quat", None), (1, 1, 0), max_distance=2)
    data += sweep_batch([((x, 0.25, -8), 0.5, (0, 0, 1)) for x in (-3, 0, 3)])
    data += async_batch(rays=[((x, 0.25, -5), (0, 0, 1), None) for x in (-2, 0.25, 3)])
    data += async_batch(sweeps=[((0, 0, -8), 0.5, (0, 0, 1)), ((9, 9, 9), 1, (1, 0, 0))])
    return data


def closest_point(point):
    return bytes([OP["closest_point"]]) + vec3(point)


COMMIT = bytes([OP["commit"]])
TETRAHEDRON = ([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)])
AXES = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]


def queries():
    data = b"".join(raycast((0.25, 0.25, -5), (0, 0, 1)) for _ in range(1))
    data += b"".join(raycast((0.5, 0.5, 0.5), axis, capacity=6) for axis in AXES)
    data += batch([((x, 0.25, -5), (0, 0, 1), None) for x in (-2, 0.25, 3)])
    data += overlap("sphere", 6, (0, 0, 0), 1.5) + overlap("box", 6, (0, 0, 0), (1, 1, 1), ("quat", None))
    data += overlap("capsule", 2, (-3, 0, 0), (3, 0, 0), 0.5)
    data += closest_point((5, 0.25, 0.25)) + closest_point((0.1, 0.1, 0.1))
    return data


def capi_units():
    scene_of_everything = (
        add_shape(shape("sphere", (3, 0, 0), 1), layer=1, user_id=11) +
        add_shape(shape("box", (-3, 0, 0), (1, 0.5, 2), ("quat", (1, 0, 0, 1))), user_id=12) +
        add_shape(shape("capsule", (0, 3, -1), (0, 3, 1), 0.5), transform(scale=2), layer=2) +
        add_shape(shape("cylinder", (0, -3, -1), (0, -3, 1), 0.75)) +
        add_shape(shape("plane", (0, 0, 1), -4)) +
        add_shape(shape("polygon", 5), transform(translation=(0, 0, 6))) +
        create_mesh(*TETRAHEDRON) + add_mesh_instance(0, transform(translation=(0, 0, 2), scale=(1, -2, 0.5))) +
        add_mesh(*TETRAHEDRON, transform(rotation=(0, 0, 1, 0))) + COMMIT)
    programs = [
        scene_of_everything + queries(),
        scene_of_everything + options(max_distance=4, faces=1, solid=0, contacts=1) + queries() +
        options(layer_mask=0b10, filter_mask=1) + queries(),
        scene_of_everything + edit(0, "remove") + edit(1, "transform", transform(translation=(9, 9, 9))) +
        edit(2, "shape", shape("sphere", (0, 0, 0), 0.5)) + edit(3, "layer", b"\x05") +
        edit(4, "user_id", u64(99)) + edit(0, "remove") + queries() + COMMIT + queries() +
        bytes([OP["destroy_mesh"], 0]) + queries() + bytes([OP["new_scene"]]) + queries(),
        # Bad data: NaN and huge coordinates, out-of-range indices, zero scales and sizes.
        create_mesh([(0, 0, 0), (math.nan, 0, 0), (0, 1, 0)], [(0, 1, 2)]) +
        create_mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 3)]) + create_mesh([], []) +
        add_shape(shape("sphere", (0, 0, 0), -1)) + add_shape(shape("sphere", (0, 0, 0), math.nan)) +
        add_shape(shape("box", (0, 0, 0), (1, 1, 1), ("quat", (0, 0, 0, 0)))) +
        add_shape(shape("sphere", (0, 0, 0), 1), transform(scale=(1, 2, 3))) +
        add_shape(shape("sphere", (0, 0, 0), 1), transform(scale=0), layer=33) +
        add_shape(shape("polygon", [(0, 0, 0), (1, 0, 0), (2, 0, 0)])) +
        add_shape(shape("sphere", (1e30, 0, 0), 1e30)) + add_shape(shape("capsule", (0, 0, 0), (0, 0, 0), 0)) +
        add_mesh([(1e30, 0, 0), (-1e30, 1e30, 0), (0, -1e30, 1e30)], [(0, 1, 2)], transform(scale=1e7)) +
        COMMIT + options(max_distance=math.nan) + queries() + options(faces=3) + queries() +
        options(max_distance=math.inf, faces=2, solid=0) + raycast((0, 0, 0), (0, 0, 0)) +
        raycast((math.inf, 0, 0), (1, 0, 0)) + raycast((0, 0, 0), (1e-30, 0, 0), max_distance=-1) + queries(),
        bytes(b for k in range(10) for b in (OP["bad_arguments"], k)),
        # Sweeps, batches of them and batches in the background, on every collider kind and a hull.
        scene_of_everything + add_shape(shape("hull", 1.5), transform(translation=(6, 0, 0)), user_id=13) + COMMIT +
        queries() + sweeps() + options(max_distance=3, layer_mask=0b1) + sweeps() + options(max_distance=math.nan) +
        sweeps(),
    ]
    return programs


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "build/fuzz-corpus"
    for target, units in (("fuzz_mesh_loader", mesh_units()), ("fuzz_ray_file", ray_units()),
                          ("fuzz_capi", capi_units())):
        count = write_corpus(os.path.join(out, target), units)
        print("make_fuzz_corpus: %d seeds in %s" % (count, os.path.join(out, target)))


if __name__ == "__main__":
    main()
