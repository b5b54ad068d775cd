"""`pip install --no-build-isolation ./python`: the extension is built by the
repository's own CMake build (target spmv_python_extension) for the Python
that runs pip, then installed with the pure-Python package."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent


class CMakeBuiltExtension(build_ext):
    def build_extension(self, extension):
        # SPMV_BUILD_DIR reuses a configured build folder; the default is build-pip.
        build_dir = pathlib.Path(os.environ.get("SPMV_BUILD_DIR", REPOSITORY / "build-pip"))
        subprocess.check_call(["cmake", "-S", str(REPOSITORY), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                               "-DSPMV_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "spmv_python_extension"])
        built = next((build_dir / "python" / "spmv").glob("_spmv*"))
        target = pathlib.Path(self.get_ext_fullpath(extension.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(built, target)


def library_version():
    cmake = (REPOSITORY / "CMakeLists.txt").read_text()
    return re.search(r"project\(spmv VERSION ([0-9.]+)", cmake).group(1)


setup(version=library_version(), packages=["spmv"], ext_modules=[Extension("spmv._spmv", sources=[])],
      cmdclass={"build_ext": CMakeBuiltExtension})
