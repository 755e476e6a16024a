#!/usr/bin/env bash
# Builds one libFuzzer target and runs it.
#
#   Fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
#
# TARGET is a directory under Fuzz/ (e.g. ANCSDataSource). Its `modules`
# file lists the Sources/ modules it needs, dependencies first; they are
# compiled with the fuzzer + address sanitizers into .build-fuzz/TARGET/lib,
# then the target's *.swift files are linked into .build-fuzz/TARGET/fuzzer.
# The corpus grows in .build-fuzz/TARGET/corpus (seeded from
# Fuzz/TARGET/seeds); crashes land in .build-fuzz/TARGET/artifacts.
# SECONDS defaults to 60; 0 only builds.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
target=${1:?usage: Fuzz/run.sh TARGET [SECONDS] [libFuzzer flags...]}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))

dir=$here/$target
[[ -d $dir && -f $dir/modules ]] || { echo "run.sh: no fuzz target $dir (needs a 'modules' file)" >&2; exit 2; }

swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
out=$root/.build-fuzz/$target
lib=$out/lib
mkdir -p "$lib" "$out/corpus" "$out/artifacts"

flags=(-swift-version 6 -parse-as-library -O -sanitize=fuzzer,address -g)
[[ -f $dir/swiftc-flags ]] && read -r -a extra_flags < "$dir/swiftc-flags" && flags+=("${extra_flags[@]}")

link=()
for module in $(cat "$dir/modules"); do
    sources=("$root/Sources/$module"/*.swift)
    echo "run.sh: compiling module $module (${#sources[@]} files)"
    "$swiftc" "${flags[@]}" -module-name "$module" -I "$lib" \
        -emit-module -emit-module-path "$lib/$module.swiftmodule" \
        -emit-library -static -o "$lib/lib$module.a" "${sources[@]}"
    link+=("-l$module")
done

echo "run.sh: linking $out/fuzzer"
# The archives go after the target's sources; list them twice so the linker
# resolves dependencies in either order.
"$swiftc" "${flags[@]}" -module-name "${target}Fuzz" -I "$lib" -L "$lib" \
    "$dir"/*.swift "${link[@]}" "${link[@]}" -o "$out/fuzzer"

if [[ -d $dir/seeds ]] && compgen -G "$dir/seeds/*" > /dev/null; then
    cp -n "$dir"/seeds/* "$out/corpus/" 2>/dev/null || true
fi

(( seconds > 0 )) || { echo "run.sh: built $out/fuzzer"; exit 0; }

echo "run.sh: fuzzing $target for ${seconds}s (corpus $out/corpus)"
cd "$out"
exec ./fuzzer -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" "$@" "$out/corpus"
