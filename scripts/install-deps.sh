#!/bin/sh
# Install the Debian 12 packages migrator needs to build, test and run locally.
# Idempotent: installs only what is missing. Needs root (or sudo) when
# something is missing.
set -eu

# What the build needs: exactly debian/control's Build-Depends (without
# debhelper-compat; build-essential is implied there). tests/deploy/package.sh
# fails when the two lists differ.
BUILD_DEPS="autoconf automake libtool pkg-config
libfcgi-dev libjson-c-dev default-libmysqlclient-dev libsodium-dev uuid-dev
libcmocka-dev libcurl4-openssl-dev tzdata"
# Building and checking the Debian package (tests/deploy/package.sh), and cron
# for the deploy check (tests/deploy/run.sh); systemd for systemd-analyze verify of the
# shipped units (tests/integration/test_install.py).
PACKAGING="dpkg-dev debhelper fakeroot lintian cron"
# The integration suite's Galera pass (run.py --galera): Debian's Galera provider, what its
# rsync state transfer (wsrep_sst_rsync) runs: rsync, and ss to see its port listening; and
# haproxy, the one-writer proxy in front of the cluster (the harness runs it in the foreground;
# the policy below keeps the package from starting its own service).
GALERA="galera-4 rsync iproute2 haproxy"
PKGS="build-essential $BUILD_DEPS $PACKAGING
mariadb-server mariadb-client lighttpd apache2 libapache2-mod-fcgid spawn-fcgi
python3 curl ca-certificates procps man-db groff-base clang-format systemd $GALERA"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Node.js (tool-interface tests) may come from elsewhere than Debian; only add it when absent.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Package scripts must not start services on the build machine.
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
	$SUDO chmod +x /usr/sbin/policy-rc.d
	trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
