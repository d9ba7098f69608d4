#!/bin/sh
# tests/fuzz/run.sh - bad input never crashes.  Mutants of seed.qb
# (bytes flipped, inserted and deleted; lines dropped, doubled, swapped and
# re-indented; invalid UTF-8, NUL, CR) go through `qbc check` and
# `qbc build`.  Every run must end with exit 0 or 1, print a diagnostic
# for every exit 1, never trip ASan/UBSan (in the sanitizer pass), and
# never leave a partial output behind.  The seed is fixed, so a failure
# reproduces; FUZZ_N sets the number of mutants (default 300).  The
# importers get the same treatment: mutants of import/seed.* through
# `qbc import` (FUZZ_IMPORT_N per format, default 60).
. "$(dirname "$0")/../lib.sh"
T=$(tmpdir)
# The mutants sit next to a copy of the seed's pictures, as a bank's do.
cp -R "$ROOT/tests/fuzz/media" "$T/"
python3 - "$ROOT/tests/fuzz/seed.qb" "$T" "${FUZZ_N:-300}" <<'EOP'
import random, sys, os
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, 'rb').read()
lines = data.split(b'\n')
rng = random.Random(20261202)
junk = [b'\xff', b'\xc3', b'\x00', b'\r', b'\t', b'*', b'-', b'>', b'#', b':', b'\\', b'`', b'[', b'](', b'![x](',
        b'en:', b'sw:', b'1.', b'explanation:', b'\xe2\x80\xa2', b'<script>', b'{{', b'\xf0\x9f\x98\x80', b' ' * 9]
for k in range(n):
    m = rng.randrange(6)
    if m == 0:   # byte flips
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        mut = bytes(b)
    elif m == 1: # insert junk
        b = data
        for _ in range(rng.randint(1, 6)):
            p = rng.randrange(len(b))
            b = b[:p] + rng.choice(junk) + b[p:]
        mut = b
    elif m == 2: # delete ranges
        b = data
        for _ in range(rng.randint(1, 4)):
            p = rng.randrange(len(b)); q = min(len(b), p + rng.randint(1, 200))
            b = b[:p] + b[q:]
        mut = b
    elif m == 3: # drop, double, swap lines
        L = lines[:]
        for _ in range(rng.randint(1, 10)):
            i, j = rng.randrange(len(L)), rng.randrange(len(L))
            op = rng.randrange(3)
            if op == 0 and len(L) > 1: del L[i]
            elif op == 1: L.insert(i, L[j])
            else: L[i], L[j] = L[j], L[i]
        mut = b'\n'.join(L)
    elif m == 4: # re-indent and re-terminate
        L = [(b' ' * rng.randrange(8)) + l.lstrip() for l in lines]
        mut = rng.choice([b'\n', b'\r\n', b'\r']).join(L)
    else:        # truncate
        mut = data[:rng.randrange(len(data))]
    open(os.path.join(out, 'm%03d.qb' % k), 'wb').write(mut)
EOP
bad=0
for f in "$T"/m*.qb; do
	name=$(basename "$f" .qb)
	"$QBC" check "$f" >/dev/null 2>"$T/err"
	rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		fail "$name: check exited $rc"; head -n 5 "$T/err"; bad=$((bad + 1)); continue
	fi
	if [ "$rc" = 1 ] && ! grep -q "error:" "$T/err"; then
		fail "$name: exit 1 without a diagnostic"; bad=$((bad + 1)); continue
	fi
	if grep -qE "runtime error|AddressSanitizer|LeakSanitizer" "$T/err"; then
		fail "$name: sanitizer report"; head -n 20 "$T/err"; bad=$((bad + 1)); continue
	fi
done
check "every mutant checked without a crash" test "$bad" = 0
# A sample also goes through every writer: either all outputs are complete
# packages, or (exit 1) nothing is written.
bad=0
for f in "$T"/m0[0-4]*.qb; do
	name=$(basename "$f" .qb)
	o="$T/out-$name"
	"$QBC" build --format anki,scorm12,scorm2004,json -o "$o" "$f" >/dev/null 2>"$T/err"
	rc=$?
	case $rc in
	0) python3 - "$o" <<'EOP' || { fail "$name: invalid package"; bad=$((bad + 1)); }
import os, sys, zipfile
d = sys.argv[1]
names = os.listdir(d)
assert len([n for n in names if not n.startswith('.')]) == 4, names
for n in names:
    if n.endswith('.apkg') or n.endswith('.zip'):
        with zipfile.ZipFile(os.path.join(d, n)) as z:
            assert z.testzip() is None
EOP
		;;
	1) if [ -d "$o" ] && [ -n "$(ls -A "$o")" ]; then fail "$name: exit 1 but files written"; bad=$((bad + 1)); fi ;;
	*) fail "$name: build exited $rc"; head -n 5 "$T/err"; bad=$((bad + 1)) ;;
	esac
	grep -qE "runtime error|AddressSanitizer|LeakSanitizer" "$T/err" && { fail "$name: sanitizer report in build"; bad=$((bad + 1)); }
done
check "sampled mutants built without a crash or a partial output" test "$bad" = 0
# The importers: mutants of a seed in each format through `qbc import`;
# exit 0 or 1 (1 with a diagnostic), no sanitizer report, and a bank
# written with exit 0 that `qbc check` reads without a crash.
python3 - "$ROOT/tests/fuzz/import" "$T" "${FUZZ_IMPORT_N:-60}" <<'EOP'
import os, random, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(20261204)
junk = [b'\xff', b'\x00', b'\r', b'{', b'}', b'~', b'=', b'#', b'::', b'\\', b'"', b',', b'\t', b'<', b'>',
        b'</span>', b'<span lang="sw" class="multilang">', b'{mlang en}', b'@@PLUGINFILE@@/', b'ANSWER: ', b'A. ',
        b'-> ', b'%50%', b'..', b']]>', b'<![CDATA[', b'\n\n', b'\xe2\x80\xa2']
for seed in sorted(os.listdir(src)):
    data = open(os.path.join(src, seed), 'rb').read()
    ext = seed.split('.', 1)[1]
    for k in range(n):
        m = rng.randrange(4)
        b = data
        if m == 0:
            b = bytearray(b)
            for _ in range(rng.randint(1, 6)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            b = bytes(b)
        elif m == 1:
            for _ in range(rng.randint(1, 6)):
                p = rng.randrange(len(b)); b = b[:p] + rng.choice(junk) + b[p:]
        elif m == 2:
            for _ in range(rng.randint(1, 4)):
                p = rng.randrange(len(b)); q = min(len(b), p + rng.randint(1, 80)); b = b[:p] + b[q:]
        else:
            b = b[:rng.randrange(len(b))]
        open(os.path.join(out, 'i%s-%03d.%s' % (ext.replace('.', '-'), k, ext)), 'wb').write(b)
EOP
bad=0
for f in "$T"/i*-*.*; do
	name=$(basename "$f")
	case $name in
	*.gift) from=gift ;; *.txt) from=aiken ;; *.csv) from=csv ;; *) from=moodlexml ;;
	esac
	rm -rf "$T/imp" && mkdir "$T/imp"
	"$QBC" import --from "$from" -o "$T/imp/b.qb" "$f" >/dev/null 2>"$T/err"
	rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		fail "$name: import exited $rc"; head -n 5 "$T/err"; bad=$((bad + 1)); continue
	fi
	if [ "$rc" = 1 ] && ! grep -q "error:" "$T/err"; then
		fail "$name: exit 1 without a diagnostic"; bad=$((bad + 1)); continue
	fi
	if grep -qE "runtime error|AddressSanitizer|LeakSanitizer" "$T/err"; then
		fail "$name: sanitizer report"; head -n 20 "$T/err"; bad=$((bad + 1)); continue
	fi
	if [ -f "$T/imp/b.qb" ]; then
		"$QBC" check "$T/imp/b.qb" >/dev/null 2>"$T/err"
		rc=$?
		if { [ "$rc" != 0 ] && [ "$rc" != 1 ]; } || grep -qE "runtime error|AddressSanitizer" "$T/err"; then
			fail "$name: the imported bank crashes qbc check"; bad=$((bad + 1))
		fi
	fi
done
check "every import mutant handled without a crash" test "$bad" = 0
finish
