"""Small readers of drape's point caches and binary glTF, written from the formats' published
descriptions (3ds Max's PC2 header; the Khronos glTF 2.0 specification: GLB container, accessors,
sparse accessors, morph targets, animation samplers), independent of drape's writers."""
import json
import struct

import numpy as np


def read_pc2(path):
    """(start_frame, sample_rate, samples as an (n, points, 3) float32 array)."""
    with open(path, "rb") as f:
        data = f.read()
    magic, version, points, start, rate, count = struct.unpack("<12siiffi", data[:32])
    if magic != b"POINTCACHE2\0" or version != 1:
        raise ValueError(f"{path}: not a PC2 file")
    if len(data) != 32 + 12 * points * count:
        raise ValueError(f"{path}: {len(data)} bytes for {count} samples of {points} points")
    return start, rate, np.frombuffer(data, "<f4", offset=32).reshape(count, points, 3)


def read_obj(path):
    """Vertices (n, 3), uv (m, 2), triangles as vertex and uv indices (t, 3), of every object."""
    v, vt, fv, fvt = [], [], [], []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "v":
                v.append([float(a) for a in w[1:4]])
            elif w[0] == "vt":
                vt.append([float(a) for a in w[1:3]])
            elif w[0] == "f":
                fv.append([int(c.split("/")[0]) - 1 for c in w[1:]])
                fvt.append([int(c.split("/")[1]) - 1 if "/" in c and c.split("/")[1] else -1 for c in w[1:]])
    return np.array(v), np.array(vt), np.array(fv, dtype=int), np.array(fvt, dtype=int)


class Glb:
    """A parsed .glb: .json (the JSON chunk) and accessor(i) as a float64 numpy array."""

    _COMPONENTS = {5126: "<f4", 5125: "<u4", 5123: "<u2", 5121: "u1"}
    _WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        magic, version, length = struct.unpack("<4sII", data[:12])
        if magic != b"glTF" or version != 2 or length != len(data):
            raise ValueError(f"{path}: not a glTF 2.0 binary of {len(data)} bytes")
        json_length, kind = struct.unpack("<I4s", data[12:20])
        if kind != b"JSON":
            raise ValueError(f"{path}: the first chunk is not JSON")
        self.json = json.loads(data[20:20 + json_length])
        bin_at = 20 + json_length
        bin_length, kind = struct.unpack("<I4s", data[bin_at:bin_at + 8])
        if kind != b"BIN\0":
            raise ValueError(f"{path}: the second chunk is not BIN")
        self.bin = data[bin_at + 8:bin_at + 8 + bin_length]

    def _view(self, index, offset, dtype, count):
        v = self.json["bufferViews"][index]
        at = v.get("byteOffset", 0) + offset
        return np.frombuffer(self.bin, dtype, count=count, offset=at)

    def accessor(self, index):
        a = self.json["accessors"][index]
        width = self._WIDTH[a["type"]]
        dtype = self._COMPONENTS[a["componentType"]]
        n = a["count"] * width
        if "bufferView" in a:
            out = self._view(a["bufferView"], a.get("byteOffset", 0), dtype, n).astype(np.float64)
        else:
            out = np.zeros(n)
        sparse = a.get("sparse")
        if sparse:
            idx = self._view(sparse["indices"]["bufferView"], sparse["indices"].get("byteOffset", 0),
                             self._COMPONENTS[sparse["indices"]["componentType"]], sparse["count"])
            val = self._view(sparse["values"]["bufferView"], sparse["values"].get("byteOffset", 0), dtype,
                             sparse["count"] * width).reshape(-1, width)
            out = out.reshape(-1, width)
            out[idx.astype(np.int64)] = val
        return out.reshape(a["count"], width) if width > 1 else out

    def mesh_frames(self, node_name):
        """The node's glTF vertices at every keyframe of the animation (base + the one target of
        weight 1), in glTF axes: (times, frames (k, vertices, 3), triangles (t, 3), target names)."""
        nodes = self.json["nodes"]
        n = next(i for i, node in enumerate(nodes) if node["name"] == node_name)
        mesh = self.json["meshes"][nodes[n]["mesh"]]
        prim = mesh["primitives"][0]
        base = self.accessor(prim["attributes"]["POSITION"])
        triangles = self.accessor(prim["indices"]).astype(np.int64).reshape(-1, 3)
        targets = [self.accessor(t["POSITION"]) for t in prim.get("targets", [])]
        anim = self.json["animations"][0]
        channel = next(c for c in anim["channels"] if c["target"]["node"] == n and c["target"]["path"] == "weights")
        sampler = anim["samplers"][channel["sampler"]]
        times = self.accessor(sampler["input"])
        weights = self.accessor(sampler["output"]).reshape(len(times), len(targets))
        frames = np.array([base + sum(w * t for w, t in zip(row, targets) if w) for row in weights])
        return times, frames, triangles, mesh.get("extras", {}).get("targetNames", [])
