#!/bin/sh
# tests/preview/run.sh - `qbc preview` as HTTP clients see it (client.py,
# python3's http.client and raw sockets): the page, the state and the
# packages' files it serves; every refusal (methods, Host, traversal in
# every spelling, symlinks, folders, oversized request lines and
# headers); slow clients and a load of 2,000 requests over 50
# connections; live updates on saving the bank, a picture and a labels
# file; errors shown exactly as `qbc check` prints them and cleared when
# fixed; the record's states; clean stops on SIGINT and SIGTERM; ports.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
W=$(tmpdir)
mkdir -p "$W/bank"
cp -R "$here/bank.qb" "$here/media" "$W/bank/"
# A symlink from the bank's folder to a file outside it.
echo "secret outside the bank" >"$W/secret.txt"
ln -s "$W/secret.txt" "$W/bank/media/link.png"
python3 "$here/client.py" "$QBC" "$W" >"$W/log" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"PASS "*) pass "${line#PASS }" ;;
	"FAIL "*) fail "${line#FAIL }" ;;
	*) echo "    $line" ;;
	esac
done <"$W/log"
[ $rc -eq 0 ] || fail "client.py exited with $rc"
[ $npass -gt 60 ] || fail "only $npass cases ran"
finish
