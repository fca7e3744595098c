#!/bin/sh
# deps.sh install|if-missing - install the Debian packages in $DEB_PKGS.
# "if-missing" does nothing (and needs no network) when all are installed.
set -eu
mode=${1:-if-missing}
missing=""
for p in $DEB_PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	[ "$mode" = install ] && echo "deps: all Debian packages are installed"
	exit 0
fi
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "deps: installing$missing" >&2
$SUDO apt-get update -qq
# slurm-wlm and munge start services on install in a normal system; in a
# container or chroot there is no init, which is fine: tests start them.
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
