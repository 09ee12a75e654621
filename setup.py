"""Build the two compiled parts of atelier.

atelier._core      pybind11: the Python object API over the C++ rules cores (cext/).
atelier.solvers.*  Cython (C++ mode): the search (solvers/*.pyx), calling the same cores.

Both modules compile the rules sources themselves; a Position crosses from one to the other
through a PyCapsule (see cext/bind/ and solvers/), never through Python objects per node.
"""
import glob
import os

from Cython.Build import cythonize
from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import Extension, setup

ParallelCompile("NPY_NUM_BUILD_JOBS", default=2).install()

# Release build only: no asserts, full optimisation.
CXX_FLAGS = ["-O3", "-DNDEBUG", "-std=c++17", "-fvisibility=hidden", "-Wall", "-Wno-unused-function"]

RULES_SOURCES = sorted(
    p for p in glob.glob("cext/*/*.cpp") if not p.startswith(os.path.join("cext", "bind"))
)

# Header edits must rebuild both modules (setuptools only tracks sources by default).
HEADERS = sorted(glob.glob("cext/**/*.hpp", recursive=True) + glob.glob("solvers/*.pxd") + glob.glob("solvers/*.pxi"))

core = Pybind11Extension(
    "atelier._core",
    sorted(glob.glob("cext/bind/*.cpp")) + RULES_SOURCES,
    include_dirs=["cext"],
    depends=HEADERS,
    cxx_std=17,
    extra_compile_args=CXX_FLAGS,
)

solver_exts = [
    Extension(
        "atelier.solvers." + os.path.splitext(os.path.basename(pyx))[0],
        [pyx] + RULES_SOURCES,
        include_dirs=["cext", "solvers"],
        depends=HEADERS,
        language="c++",
        extra_compile_args=CXX_FLAGS,
    )
    for pyx in sorted(glob.glob("solvers/*.pyx"))
]

setup(
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
    cmdclass={"build_ext": build_ext},
)
