"""The hitscan Python package: setuptools packages python/hitscan, and CMake, through the project's
own CMakeLists.txt, builds its extension hitscan._hitscan (so the build is defined once).

    pip install --no-build-isolation .

HITSCAN_CMAKE_ARGS adds arguments to the CMake configure step (-DHITSCAN_ARCH=x86-64-v2 for a
portable module, -DCMAKE_CXX_COMPILER_LAUNCHER=ccache, ...); CMAKE_BUILD_PARALLEL_LEVEL sets the
build's parallelism as usual.
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    match = re.search(r"project\(hitscan\s+VERSION\s+([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    return match.group(1)


class CMakeBuild(build_ext):
    """Configures the project with only the Python module, builds its target and copies the module."""

    def build_extension(self, ext):
        build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                     "-DHITSCAN_BUILD_TESTS=OFF", "-DHITSCAN_BUILD_TOOLS=OFF", "-DHITSCAN_BUILD_PYTHON=ON",
                     f"-DHITSCAN_PYTHON_EXECUTABLE={sys.executable}"]
        configure += shlex.split(os.environ.get("HITSCAN_CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "hitscan_python"], check=True)
        module = build_dir / "python" / "hitscan" / pathlib.Path(self.get_ext_filename(ext.name)).name
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(module, target)


setup(version=project_version(), ext_modules=[Extension("hitscan._hitscan", sources=[])],
      cmdclass={"build_ext": CMakeBuild})
