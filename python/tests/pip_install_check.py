"""pip install of the source tree into a fresh venv (with the system's packages, for numpy), then
hitscan imported and used from another directory, its stubs and py.typed installed beside it.

    pip_install_check.py <source tree>

The tree is copied without its build directories first, so that nothing is written into it. Exits
77 (ctest's skip) when python3-venv is missing.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

CHECK = """
import inspect, os, sys
import numpy as np
import hitscan
here = os.path.dirname(hitscan.__file__)
assert here.startswith(sys.prefix), (here, sys.prefix)
for name in ("__init__.pyi", "io.pyi", "py.typed"):
    assert os.path.exists(os.path.join(here, name)), name
scene = hitscan.Scene()
scene.add_triangles(vertex_positions=np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float64),
                    triangle_indices=np.array([[0, 1, 2]]))
t = scene.cast_rays(np.array([[0.25, 0.25, 2, 0, 0, -1]]))["t_hit"][0]
assert t == 2.0, t
assert callable(hitscan.io.load_mesh)
print("imported", hitscan.__version__, "from", here)
"""


def main():
    source = pathlib.Path(sys.argv[1]).resolve()
    try:
        import ensurepip  # noqa: F401  (Debian ships it in python3-venv)
    except ImportError:
        print("python3-venv is not installed: skipped")
        return 77
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hitscan-pip-") as temp:
        temp = pathlib.Path(temp)
        tree = temp / "src"
        shutil.copytree(source, tree, ignore=shutil.ignore_patterns(".git", "build", "build-*", "out", "__pycache__"))
        venv = temp / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        if shutil.which("ccache"):
            env.setdefault("HITSCAN_CMAKE_ARGS", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", str(tree)],
                       check=True, env=env)
        elsewhere = temp / "elsewhere"
        elsewhere.mkdir()
        subprocess.run([str(venv / "bin" / "python"), "-c", CHECK], check=True, env=env, cwd=elsewhere)
    print(f"pip install and import: {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
