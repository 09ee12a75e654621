#!/usr/bin/env bash
# Build atelier._core with AddressSanitizer + UBSan and run the tests against it: the binding
# promises that nothing from Python can crash the core, and a sanitizer sees the silent cases
# (an out-of-range read that happens not to segfault). Takes ~2 minutes. Usage: tools/asan_check.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
py=${PYTHON:-python3}
suffix=$($py -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
cp -r src/atelier "$out/atelier"
rm -f "$out"/atelier/_core*.so
g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -shared -fPIC -Icext \
  -I"$($py -c 'import pybind11; print(pybind11.get_include())')" \
  -I"$($py -c "import sysconfig; print(sysconfig.get_paths()['include'])")" \
  cext/bind/*.cpp $(ls cext/*/*.cpp | grep -v '^cext/bind/') -o "$out/atelier/_core$suffix"
export LD_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Only the API tests: the Cython solvers are not rebuilt with the sanitizer here.
PYTHONPATH="$out" $py -m pytest -q -p no:cacheprovider tests/test_positions.py tests/test_cli.py "$@"
