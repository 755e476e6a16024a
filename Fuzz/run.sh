#!/usr/bin/env bash
# Builds libFuzzer targets and runs them.
#
#   Fuzz/run.sh                                  lists the targets
#   Fuzz/run.sh TARGET [SECONDS] [libFuzzer flags...]
#   Fuzz/run.sh all [SECONDS] [libFuzzer flags...]   every target in turn
#
# A target is any directory Fuzz/NAME/ holding a Fuzz.swift. Its `modules`
# file names the Sources/ modules it imports; their own dependencies are
# found by following the `import` lines of Sources/, and every module is
# compiled whole (all its .swift files, subdirectories included) with the
# fuzzer + address sanitizers into .build-fuzz/TARGET/lib, dependencies
# first. The target's *.swift files are then linked into
# .build-fuzz/TARGET/fuzzer. The corpus grows in .build-fuzz/TARGET/corpus
# (seeded from Fuzz/TARGET/seeds); crashes land in .build-fuzz/TARGET/artifacts.
# SECONDS defaults to 60; 0 only builds.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

targets() {
    local f
    for f in "$here"/*/Fuzz.swift; do [[ -e $f ]] && basename "$(dirname "$f")"; done
}

if (( $# == 0 )); then
    echo "usage: Fuzz/run.sh TARGET|all [SECONDS] [libFuzzer flags...]; targets:" >&2
    targets | sed 's/^/  /' >&2
    exit 2
fi
target=$1
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))

if [[ $target == all ]]; then
    for t in $(targets); do "$0" "$t" "$seconds" "$@"; done
    exit 0
fi

dir=$here/$target
[[ -f $dir/Fuzz.swift ]] || { echo "run.sh: no fuzz target $dir (a target is a directory with a Fuzz.swift)" >&2; exit 2; }
[[ -f $dir/modules ]] || { echo "run.sh: $dir needs a 'modules' file naming the Sources/ modules it imports" >&2; exit 2; }

# The Sources/ modules that module $1 imports (not itself, not the system's).
imports_of() {
    find "$root/Sources/$1" -name '*.swift' -exec sed -nE \
        's/^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*).*/\6/p' {} + |
        sort -u | while read -r m; do [[ $m != "$1" && -d $root/Sources/$m ]] && echo "$m"; done
    return 0
}

# Dependencies first (depth-first, post-order).
order=()
declare -A state=()
visit() {
    local m=$1 d
    [[ ${state[$m]:-} == done ]] && return 0
    [[ ${state[$m]:-} == visiting ]] && { echo "run.sh: import cycle through $m" >&2; exit 2; }
    [[ -d $root/Sources/$m ]] || { echo "run.sh: $target/modules names $m, which is not a directory of Sources/" >&2; exit 2; }
    state[$m]=visiting
    for d in $(imports_of "$m"); do visit "$d"; done
    state[$m]=done
    order+=("$m")
}
for m in $(cat "$dir/modules"); do visit "$m"; done

swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
out=$root/.build-fuzz/$target
lib=$out/lib
rm -rf "$lib"
mkdir -p "$lib" "$out/corpus" "$out/artifacts"

# One package name for all modules, as SwiftPM gives them: `package` access
# works across them.
flags=(-swift-version 6 -parse-as-library -O -sanitize=fuzzer,address -g -package-name wristcore)
[[ -f $dir/swiftc-flags ]] && read -r -a extra_flags < "$dir/swiftc-flags" && flags+=("${extra_flags[@]}")

link=()
for module in "${order[@]}"; do
    if [[ -f $root/Sources/$module/module.modulemap ]]; then
        # A C library: its module map is enough to import it; link flags come from swiftc-flags.
        flags+=(-I "$root/Sources/$module")
        echo "run.sh: C module $module (module map only)"
        continue
    fi
    mapfile -d '' sources < <(find "$root/Sources/$module" -name '*.swift' -print0 | sort -z)
    echo "run.sh: compiling module $module (${#sources[@]} files)"
    "$swiftc" "${flags[@]}" -module-name "$module" -I "$lib" \
        -emit-module -emit-module-path "$lib/$module.swiftmodule" \
        -emit-library -static -o "$lib/lib$module.a" "${sources[@]}"
    link=("-l$module" "${link[@]}")  # dependents before their dependencies
done

echo "run.sh: linking $out/fuzzer (${order[*]})"
# lld: gold warns about every sanitizer symbol it cannot export.
"$swiftc" "${flags[@]}" -use-ld=lld -module-name "${target}Fuzz" -I "$lib" -L "$lib" \
    "$dir"/*.swift "${link[@]}" -o "$out/fuzzer"

if [[ -d $dir/seeds ]] && compgen -G "$dir/seeds/*" > /dev/null; then
    cp -n "$dir"/seeds/* "$out/corpus/" 2>/dev/null || true
fi

(( seconds > 0 )) || { echo "run.sh: built $out/fuzzer"; exit 0; }

echo "run.sh: fuzzing $target for ${seconds}s (corpus $out/corpus)"
cd "$out"
exec ./fuzzer -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" "$@" "$out/corpus"
