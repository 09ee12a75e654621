#!/usr/bin/env bash
# Build atelier._core AND the Cython search (atelier.solvers.engine / testgame) with
# AddressSanitizer + UBSan in a scratch copy of the package, then run against it:
#   1. the API, CLI, input and search tests (bad parameters of every entry point, NaN selection,
#      unknown position kinds, threads 1 and 2, MCTS / ISMCTS / expectimax on Inventors and
#      the test game), the fuzz suite (tests/test_fuzz.py: its CI-sized run, or the long one
#      with `tools/asan_check.sh -m fuzz_long tests/test_fuzz.py`) and the Leonardo core's tests
#      (random packed bytes, bad fields and moves);
#   2. the arena-failure path: allocations over 1 GiB fail (max_allocation_size_mb), so a
#      --memory the machine cannot give must be one error, freed once, on both rulesets.
# The binding promises that nothing from Python can crash the core or the search, and a
# sanitizer sees the silent cases (an out-of-range read that happens not to segfault).
# Takes a few minutes. Usage: tools/asan_check.sh [pytest args]   (CXX="ccache g++" to cache)
set -euo pipefail
cd "$(dirname "$0")/.."
# ASAN_OUT=DIR keeps the instrumented package there (to rerun a case by hand).
if [ -n "${ASAN_OUT:-}" ]; then out="$ASAN_OUT"; rm -rf "$out"; mkdir -p "$out"
else out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT; fi
py=${PYTHON:-python3}
cxx=${CXX:-g++}
suffix=$($py -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
pyinc=$($py -c "import sysconfig; print(sysconfig.get_paths()['include'])")
flags=(-std=c++17 -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fPIC -Icext -Isolvers -I"$pyinc")
cp -r src/atelier "$out/atelier"
rm -f "$out"/atelier/_core*.so "$out"/atelier/solvers/*.so
mkdir -p "$out/obj"

# The rules sources once, shared by the three modules (as setup.py's static library is).
rules=$(ls cext/*/*.cpp | grep -v '^cext/bind/')
printf '%s\n' $rules | xargs -P 2 -I{} sh -c '$0 "$@" -c {} -o "'"$out"'/obj/$(echo {} | tr / _).o"' \
  $cxx "${flags[@]}"
# Same Cython directives as setup.py.
for mod in engine testgame; do
  $py -m cython --cplus -3 -I solvers -X boundscheck=False,wraparound=False,cdivision=True,initializedcheck=False \
    "solvers/$mod.pyx" -o "$out/$mod.cpp"
done
$cxx "${flags[@]}" -shared -I"$($py -c 'import pybind11; print(pybind11.get_include())')" \
  cext/bind/*.cpp "$out"/obj/*.o -o "$out/atelier/_core$suffix" &
$cxx "${flags[@]}" -shared "$out/engine.cpp" "$out"/obj/*.o -o "$out/atelier/solvers/engine$suffix" &
wait
$cxx "${flags[@]}" -shared "$out/testgame.cpp" "$out"/obj/*.o -o "$out/atelier/solvers/testgame$suffix"

export LD_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export PYTHONPATH="$out"
$py -c "import atelier.solvers.engine as e, sys; assert e.__file__.startswith('$out'), e.__file__"

[ -n "${ASAN_BUILD_ONLY:-}" ] && exit 0
echo "== tests against the instrumented build"
tests=(tests/test_positions.py tests/test_cli.py tests/test_inputs.py tests/test_fuzz.py
       tests/test_solvers_params.py tests/test_solvers_mcts.py tests/test_solvers_exact.py
       tests/test_solvers_inventors.py tests/test_leonardo_invariants.py tests/test_leonardo_hidden.py
       tests/test_craftsmen_invariants.py tests/test_craftsmen_determinize.py tests/test_craftsmen_positions.py
       tests/test_craftsmen_viewpoint.py tests/test_cli_craftsmen.py
       tests/test_solvers_alphabeta.py tests/test_solvers_mcts_solver.py)
[ $# -gt 0 ] && tests=()   # explicit pytest arguments choose the tests
# --capture=sys: a sanitizer writes its report to fd 2 and ends the process; under pytest's
# default fd capture that report died with it, and the run stopped with no word of why.
$py -m pytest -q -p no:cacheprovider --capture=sys "${tests[@]}" -k "not strength" "$@"

echo "== arena failure (allocations over 1 GiB fail)"
ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=1024 $py - <<'EOF'
import subprocess, sys
import atelier
from atelier import solvers
from atelier.solvers import testgame

states = {"inventors": atelier.load_position("example:inventors-mid"),
          "testgame": testgame.Game(3, 8, 2, 3).dealt_state(1)}
for name, s in states.items():
    for search in (solvers.mcts, solvers.ismcts):
        for threads in (1, 2):
            try:
                # 8000 MB over `threads` trees: every tree's value array is over 1 GiB
                search(s, time=0.2, memory_mb=8000, threads=threads)
                raise SystemExit(f"{name} {search.__name__} threads={threads}: the arena was allocated")
            except atelier.InputError as exc:
                assert str(exc).startswith("memory_mb: cannot allocate 8000 MB"), exc
            r = search(s, iterations=300, threads=threads)          # and the search still works
            assert r.iterations == 300 and r.best_move in s.legal_moves()
    print(f"{name}: arena failure is one InputError (mcts, ismcts; threads 1, 2)")
r = subprocess.run([sys.executable, "-m", "atelier", "suggest", "example:inventors-mid",
                    "--memory", "60000", "--time", "0.3"], capture_output=True, text=True)
# ASan says which allocations it refused (==pid==WARNING: ...); the rest is the CLI's.
err = [l for l in r.stderr.splitlines() if "AddressSanitizer failed to allocate" not in l]
assert r.returncode == 2 and len(err) == 1 and err[0].startswith("error: memory_mb: cannot allocate"), r
print("suggest --memory 60000: exit 2, one line:", err[0])
EOF
echo "asan_check: OK"
