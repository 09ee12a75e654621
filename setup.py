"""Build the compiled parts of atelier.

atelier_rules      a static library: every rules core (cext/<game>/*.cpp), compiled once.
atelier._core      pybind11: the Python object API over the rules cores (cext/bind/).
atelier.solvers.*  Cython (C++ mode): the search (solvers/*.pyx), calling the same cores.

Every module links the one rules library, so the struct layout is identical on both sides of the
PyCapsule through which a Position crosses (see cext/bind/ and solvers/), and each rules source is
compiled once however many modules use it.
"""
import glob
import os

from Cython.Build import cythonize
from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import Extension, setup

ParallelCompile("NPY_NUM_BUILD_JOBS", default=2).install()

# Release build only: no asserts, full optimisation.
CXX_FLAGS = ["-O3", "-DNDEBUG", "-std=c++17", "-fvisibility=hidden", "-Wall", "-Wno-unused-function"]

# Portable by default: what is built here may run on another x86-64 (a wheel must not require
# POPCNT or BMI2; cext/common/bits.hpp counts bits with SWAR then). ATELIER_NATIVE=1 builds for
# this machine's instruction set (-march=native: POPCNT, BMI2, ... where it has them), for a
# source install that stays on the machine that built it.
if os.environ.get("ATELIER_NATIVE", "") not in ("", "0"):
    CXX_FLAGS.append("-march=native")

RULES_SOURCES = sorted(
    p for p in glob.glob("cext/*/*.cpp") if not p.startswith(os.path.join("cext", "bind"))
)

# Header edits must rebuild both modules (setuptools only tracks sources by default).
HEADERS = sorted(glob.glob("cext/**/*.hpp", recursive=True) + glob.glob("solvers/*.pxd") + glob.glob("solvers/*.pxi")
                 + glob.glob("solvers/*.hpp"))

# The rules cores as one static library (build_clib compiles with the interpreter's -fPIC flags).
RULES_LIB = ("atelier_rules", {
    "sources": RULES_SOURCES,
    "include_dirs": ["cext"],
    "cflags": CXX_FLAGS,
    "obj_deps": {"": HEADERS},
})


class BuildExt(build_ext):
    """build_ext that first builds the rules library, also for `build_ext --inplace`
    (plain setuptools runs build_clib only under `build`)."""

    def run(self):
        self.run_command("build_clib")
        super().run()


core = Pybind11Extension(
    "atelier._core",
    sorted(glob.glob("cext/bind/*.cpp")),
    include_dirs=["cext"],
    depends=HEADERS + RULES_SOURCES,  # relink when the rules library changes
    cxx_std=17,
    extra_compile_args=CXX_FLAGS,
)

solver_exts = [
    Extension(
        "atelier.solvers." + os.path.splitext(os.path.basename(pyx))[0],
        [pyx],
        include_dirs=["cext", "solvers"],
        depends=HEADERS + RULES_SOURCES,
        language="c++",
        extra_compile_args=CXX_FLAGS,
    )
    for pyx in sorted(glob.glob("solvers/*.pyx"))
]

setup(
    libraries=[RULES_LIB],
    ext_modules=[core]
    + cythonize(
        solver_exts,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
    cmdclass={"build_ext": BuildExt},
)
