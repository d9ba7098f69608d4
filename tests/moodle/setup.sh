#!/bin/sh
# tests/moodle/setup.sh - stands up a throw-away Moodle for tests/moodle/live.mjs
# on this machine (Debian 12, root), from a Moodle 4.5 source tree you
# already have (Moodle is GPL and not part of this repository):
#
#   sh tests/moodle/setup.sh /path/to/moodle-source
#
# then:  MOODLE_URL=http://localhost:8080 node tests/moodle/live.mjs
#
# It installs the Debian packages (PostgreSQL, Apache, PHP), copies the
# source to $MOODLE_WWW (default /opt/moodle-qbc), makes a database and a
# data folder, runs Moodle's CLI installer (admin / Qbc-admin-1), serves it
# at http://localhost:$MOODLE_PORT (default 8080) with Apache, and runs
# setup.php: a course PHONE with a student (student / Qbc-test-1), a
# teacher (teacher / Qbc-test-1) and one SCORM activity per way of showing
# the package, from tests/browser/phone/phone.qb built by $QBC.
# Run again, it skips what is already there and replaces the activities.
# Everything listens on localhost only; it is for testing, not for learners.
set -eu
src=${1:?usage: sh tests/moodle/setup.sh MOODLE_SOURCE_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")
QBC=${QBC:-$root/build/qbc}
www=${MOODLE_WWW:-/opt/moodle-qbc}
data=${MOODLE_DATA:-/var/moodledata-qbc}
port=${MOODLE_PORT:-8080}
db=${MOODLE_DB:-moodleqbc}
[ -f "$src/version.php" ] || { echo "setup.sh: $src is not a Moodle source tree" >&2; exit 2; }
grep -q "^\$branch *= *'405'" "$src/version.php" ||
	echo "setup.sh: warning: $src is not Moodle 4.5 ($(grep '^\$release' "$src/version.php"))" >&2

if ! command -v php >/dev/null || ! command -v apache2ctl >/dev/null || ! command -v psql >/dev/null; then
	apt-get update
	apt-get install -y postgresql apache2 libapache2-mod-php php php-pgsql php-xml php-mbstring \
		php-curl php-zip php-gd php-intl php-soap
fi
# Moodle 4.5 needs max_input_vars >= 5000; the test package is small.
for ini in /etc/php/*/cli/php.ini /etc/php/*/apache2/php.ini; do
	sed -i 's/^;\?max_input_vars.*/max_input_vars = 5000/' "$ini"
done

pg_lsclusters -h | grep -q online || pg_ctlcluster "$(pg_lsclusters -h | awk 'NR==1{print $1}')" main start
if ! su postgres -c "psql -tAc \"SELECT 1 FROM pg_database WHERE datname='$db'\"" | grep -q 1; then
	su postgres -c "psql -c \"CREATE USER $db WITH PASSWORD '$db'\"" || true
	su postgres -c "psql -c \"CREATE DATABASE $db OWNER $db ENCODING 'UTF8' TEMPLATE template0\""
fi

if [ ! -f "$www/config.php" ]; then
	mkdir -p "$www" "$data"
	cp -a "$src/." "$www/"
	rm -f "$www/config.php"
	chown -R www-data:www-data "$www" "$data"
	su www-data -s /bin/sh -c "cd '$www' && php admin/cli/install.php --non-interactive --agree-license \
		--lang=en --wwwroot=http://localhost:$port --dataroot='$data' --dbtype=pgsql --dbhost=localhost \
		--dbname=$db --dbuser=$db --dbpass=$db --prefix=mdl_ --fullname='qbc test Moodle' \
		--shortname=qbctest --adminuser=admin --adminpass=Qbc-admin-1 --adminemail=admin@example.com"
	# A test site sends no mail.
	sed -i 's|^\$CFG->directorypermissions|$CFG->noemailever = true;\n&|' "$www/config.php"
fi

conf=/etc/apache2/sites-available/moodle-qbc.conf
if [ ! -f "$conf" ]; then
	cat >"$conf" <<CONF
Listen 127.0.0.1:$port
<VirtualHost 127.0.0.1:$port>
    DocumentRoot $www
    <Directory $www>
        Options -Indexes
        AllowOverride None
        Require all granted
    </Directory>
    AcceptPathInfo On
</VirtualHost>
CONF
	a2ensite moodle-qbc >/dev/null
fi
apache2ctl graceful 2>/dev/null || apache2ctl start

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$root/tests/browser/phone/phone.qb" "$tmp/"
"$QBC" build -o "$tmp/out" --format scorm12 "$tmp/phone.qb" >/dev/null
chmod -R a+rX "$tmp"
su www-data -s /bin/sh -c "php '$here/setup.php' '$www' '$tmp/out/simu.scorm12.zip' ${MOODLE_CSS---css}"
echo "setup.sh: Moodle at http://localhost:$port; now: MOODLE_URL=http://localhost:$port node tests/moodle/live.mjs"
