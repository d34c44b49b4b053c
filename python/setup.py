"""Installs the twinrt package with the extension module that CMake built
(scripts/build.sh puts it in build/python/twinrt/): nothing is compiled or downloaded here.

    /usr/bin/python3 -m pip install --no-build-isolation --no-index --break-system-packages ./python

(scripts/install-python.sh). TWINRT_BUILD_DIR names another build folder."""

import glob
import os
import re
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD_DIR = os.environ.get("TWINRT_BUILD_DIR", os.path.join(HERE, "..", "build"))


def version():
    with open(os.path.join(HERE, "..", "src", "cli", "version.h")) as f:
        return re.search(r'kVersion = "([^"]+)"', f.read()).group(1)


class BuildWithExtension(build_py):
    def run(self):
        super().run()
        built = glob.glob(os.path.join(BUILD_DIR, "python", "twinrt", "_twinrt*.so"))
        if not built:
            raise SystemExit(f"no twinrt extension in {BUILD_DIR}/python/twinrt: run scripts/build.sh first")
        shutil.copy2(built[0], os.path.join(self.build_lib, "twinrt"))


class BinaryDistribution(Distribution):
    """The wheel holds a compiled module: tag it for this platform and interpreter."""

    def has_ext_modules(self):
        return True


setup(
    name="twinrt",
    version=version(),
    description="ONNX inference runtime with proven parity: onnxruntime-style API, export checks, parity sweeps",
    packages=["twinrt"],
    python_requires=">=3.9",
    install_requires=["numpy"],
    cmdclass={"build_py": BuildWithExtension},
    distclass=BinaryDistribution,
)
