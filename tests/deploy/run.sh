#!/bin/sh
# The deploy-docs check: tests/deploy/run.sh DEB
# Follows docs/deploy.md literally on a clean root: installs the package DEB
# (tests/deploy/package.sh builds it), runs the doc's marked blocks (setup,
# Apache with mod_fcgid, Apache with mod_proxy_fcgi and spawn-fcgi, lighttpd,
# the curl check) as written, calls the API with the example token through
# each web server (GET /api/v1/me, the runs list, a run started with
# POST /api/v1/migrations, the review page), and lets cron start the runner
# as user migrator from /etc/cron.d/migrator, which must carry those runs
# through discovery (so it read the config and the key as that user).
#
# The clean root: a throw-away overlay of this machine's own root, in new
# mount, PID and network namespaces (unshare), entered with chroot. Why:
# - debootstrap/mmdebstrap would download and unpack a whole Debian with
#   Apache, lighttpd and MariaDB on every run: minutes and a mirror, where the
#   overlay takes a second and uses the packages scripts/install-deps.sh has
#   installed already (the ones the docs tell an operator to install);
# - every write (dpkg, adduser, /etc, the database files) lands in a tmpfs
#   upper layer and vanishes with the namespaces: the machine, the CI run and
#   other tests are never touched, and port 80 is free in the private network
#   namespace (only its loopback is up);
# - when the namespace's first process exits the kernel kills every process
#   started inside (mariadbd, apache2, lighttpd, cron, the fake provider).
# The root has no service manager: a stand-in `systemctl` in /usr/local/sbin
# maps `systemctl start|stop|restart|reload NAME` to the package's init script
# (`service NAME ...`), and MariaDB is started as its package would start it.
# The one departure from the docs: [provider.uptimerobot] base_url points at
# the fake provider (tests/fakes/fakeprov.py), since CI reaches no provider.
# Needs root, util-linux unshare, overlayfs; about a minute, most of it
# waiting for cron's next minute.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
deb=${1:?usage: tests/deploy/run.sh MIGRATOR_DEB}
[ "$(id -u)" -eq 0 ] || { echo "deploy: needs root (namespaces, chroot)" >&2; exit 1; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
[ -f "$deb" ] || { echo "deploy: no such package: $deb" >&2; exit 1; }

work=$(mktemp -d /tmp/migrator-deploy.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/payload"
cp "$deb" "$top/docs/deploy.md" "$top/tests/deploy/inside.sh" "$work/payload/"
cp -r "$top/tests/fakes" "$work/payload/fakes"

# Inside the new namespaces: build the root, then chroot into it.
unshare --mount --pid --net --fork --propagation private -- /bin/sh -eu -c '
	w=$1
	mkdir "$w/layers"
	mount -t tmpfs -o mode=0755 tmpfs "$w/layers"
	mkdir "$w/layers/upper" "$w/layers/work" "$w/layers/root"
	r=$w/layers/root
	mount -t overlay overlay -o "lowerdir=/,upperdir=$w/layers/upper,workdir=$w/layers/work" "$r"
	mount -t proc proc "$r/proc"
	mount -t sysfs sysfs "$r/sys"
	for d in run tmp dev; do mount -t tmpfs -o mode=0755 tmpfs "$r/$d"; done
	chmod 1777 "$r/tmp"
	for n in null zero full random urandom tty; do
		touch "$r/dev/$n"
		mount --bind "/dev/$n" "$r/dev/$n"
	done
	mkdir "$r/dev/shm" "$r/dev/pts" "$r/run/lock"
	mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts"
	ln -s pts/ptmx "$r/dev/ptmx"
	chmod 1777 "$r/dev/shm" "$r/run/lock"
	ln -s /proc/self/fd "$r/dev/fd"
	ln -s /proc/self/fd/0 "$r/dev/stdin"
	ln -s /proc/self/fd/1 "$r/dev/stdout"
	ln -s /proc/self/fd/2 "$r/dev/stderr"
	ip link set lo up
	cp -r "$w/payload" "$r/tmp/deploy"
	exec chroot "$r" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh /tmp/deploy/inside.sh
' deploy "$work"
