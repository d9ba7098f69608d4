#!/bin/sh
# tests/fuzz/libfuzzer.sh - runs the coverage-guided fuzz targets (clang's
# libFuzzer under ASan and UBSan), one after the other, SECONDS each:
#   sh tests/fuzz/libfuzzer.sh SECONDS BUILD/fuzz/fuzz_read BUILD/fuzz/fuzz_import_gift ...
# `make fuzz FUZZ_SECONDS=N` runs every target for N seconds; `make test`
# shares 30 s among them when clang is installed.
#
# Each target has its own seeds, dictionary and corpus:
# - fuzz_read (fuzz_read.c, the .qb reader): every bank under tests/ and
#   input/ (the diagnostics cases among them), qb.dict;
# - fuzz_import_FORMAT (fuzz_import.c, one importer each): import/seed.*
#   of that format and every file of it that tests/import/run.sh gives
#   `qbc import` (gathered once by running that suite through a wrapper,
#   again when it changes: build/fuzz/seeds-import/), FORMAT.dict.
# What a target finds new goes to build/fuzz/corpus-TARGET, kept between
# runs; a crashing input to build/fuzz/TARGET-crash-<sha1> (or -leak-,
# -timeout-; the log is build/fuzz/TARGET.log); tests/README.md tells how
# to reproduce it.  Prints a line per target and "N passed, M failed".
set -u
secs=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# import_seeds DIR: DIR/FORMAT/ holds the sources tests/import feeds
# `qbc import` (by --from, else by extension).  Needs a built qbc.
import_seeds() {
	qbc=${QBC:-$root/build/qbc}
	[ -x "$qbc" ] || { echo "fuzz: no $qbc, so no seeds from tests/import"; return; }
	if [ -f "$1/.stamp" ] && [ ! "$root/tests/import/run.sh" -nt "$1/.stamp" ]; then return; fi
	rm -rf "$1"
	mkdir -p "$1/moodlexml" "$1/gift" "$1/aiken" "$1/csv"
	cat >"$tmp/qbc" <<'EOF'
#!/bin/sh
# Keeps a copy of every file given to `qbc import`, then runs qbc.
if [ "$1" = import ]; then
	from=""; prev=""
	for a in "$@"; do
		[ "$prev" = --from ] && from=$a
		prev=$a
	done
	prev=""
	for a in "$@"; do
		case "$prev" in -o|--from|--bank|--lang) prev=$a; continue ;; esac
		prev=$a
		[ -f "$a" ] || continue
		f=$from
		case "$a" in
		*.qb) continue ;;
		*.xml) f=${f:-moodlexml} ;;
		*.gift) f=${f:-gift} ;;
		*.txt) f=${f:-aiken} ;;
		*.csv|*.tsv) f=${f:-csv} ;;
		esac
		[ -d "$SEEDS/$f" ] && cp "$a" "$SEEDS/$f/$(sha1sum <"$a" | cut -c1-12)"
	done
fi
exec "$REAL_QBC" "$@"
EOF
	chmod +x "$tmp/qbc"
	SEEDS=$1 REAL_QBC=$qbc QBC=$tmp/qbc sh "$root/tests/import/run.sh" >"$1/suite.log" 2>&1
	touch "$1/.stamp"
}

pass=0
failed=0
for bin in "$@"; do
	name=$(basename "$bin")
	out=$(cd "$(dirname "$bin")" && pwd)
	seeds=$tmp/seeds-$name
	mkdir -p "$seeds"
	case "$name" in
	fuzz_read)
		dict=$here/qb.dict
		find "$root/tests" "$root/input" -name node_modules -prune -o -name '*.qb' -type f -print |
			while read -r f; do cp "$f" "$seeds/$(echo "$f" | sha1sum | cut -c1-12).qb"; done
		;;
	fuzz_import_*)
		fmt=${name#fuzz_import_}
		dict=$here/$fmt.dict
		import_seeds "$out/seeds-import"
		cp "$out/seeds-import/$fmt/"* "$seeds/" 2>/dev/null
		for f in "$here"/import/seed.*; do
			case "$fmt:$f" in
			moodlexml:*.xml | gift:*.gift | aiken:*.txt | csv:*.csv) cp "$f" "$seeds/" ;;
			esac
		done
		;;
	*) echo "fuzz: unknown target $name"; failed=$((failed + 1)); continue ;;
	esac
	mkdir -p "$out/corpus-$name"
	log=$out/$name.log
	# -close_fd_mask=2: the diagnostics of millions of bad inputs are not
	# shown (the fuzzer's own report still is).
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-dict="$dict" -close_fd_mask=2 -artifact_prefix="$out/$name-" -print_final_stats=1 \
		"$out/corpus-$name" "$seeds" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
		new=$(sed -nE 's/^stat::new_units_added: *([0-9]+)/\1/p' "$log")
		cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1)
		echo "ok   $name: ${runs:-?} runs in ${secs} s, ${cov:-cov: ?}, ${new:-?} new inputs, $(ls "$seeds" | wc -l) seeds"
		pass=$((pass + 1))
	else
		tail -n 60 "$log"
		echo "FAIL $name: the input is the $name-crash-/leak-/timeout- file named above; reproduce with"
		echo "  $bin <that file>"
		failed=$((failed + 1))
	fi
done
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
