# Sourced by set_ab.sh and set_instructions.sh: the benchmark set's programs.
# copy_set DIR: copies the programs (and bench.py, their driver) into DIR.
# set_names DIR [NAME...]: sets the array `programs` to the names given, or to every
# program in DIR.
copy_set() {
  cp benchmarks/programs/*.py benchmarks/generators/generators.py "$1/"
}
set_names() {
  local dir=$1
  shift
  programs=("$@")
  if [ "${#programs[@]}" -eq 0 ]; then
    for p in "$dir"/*.py; do
      [ "$(basename "$p")" = bench.py ] || programs+=("$(basename "$p" .py)")
    done
  fi
}
