# cluster.sh - sourced by tests/cli/t50xx tests that need Slurm: a real
# Slurm cluster on this machine (../shared/formats/slurm-local.md),
# loopback only, with its own state directory and free ports.
#
#   slurm_start DIR [NODES]
#                     -> 0 when sbatch works (SLURM_CONF exported), else 1
#                        with the reason in $SLURM_WHY.  NODES > 1: that many
#                        nodes abn1..abnN, one slurmd each (slurmd -N NAME),
#                        all on this host at 127.0.0.1 with their own ports
#                        and 1 CPU each: srun really starts one task per
#                        slurmd, as on a cluster (same file system, same
#                        /sys: power sampled "per node" reads the same tree).
#   slurm_stop        stops what slurm_start started (also on exit)
#
# The job completion log is on (JobCompType=jobcomp/filetxt, $DIR/jobcomp.txt):
# `sacct --completion` answers from it.  Accounting proper (slurmdbd) needs
# a MySQL/MariaDB server and is not started here.
#
# Several worktrees may run this at once: the cluster's whole life runs
# under an exclusive lock (/tmp/accelbench-slurm-test.lock), and each
# cluster has its own name, ports and state directory.
SLURM_WHY=
SLURM_DIR=
SLURM_OWN_MUNGE=
SLURM_LOCK_FD=8

slurm_free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

slurm_start() {
	SLURM_DIR=$1
	SLURM_NODES=${2:-1}
	if [ "$(id -u)" != 0 ]; then SLURM_WHY="not root: a test Slurm cluster needs root"; return 1; fi
	for b in slurmctld slurmd munged sbatch squeue scontrol; do
		command -v $b >/dev/null 2>&1 || [ -x /usr/sbin/$b ] ||
			{ SLURM_WHY="$b not installed (Debian packages slurm-wlm munge)"; return 1; }
	done
	eval "exec $SLURM_LOCK_FD>/tmp/accelbench-slurm-test.lock"
	flock -w 600 $SLURM_LOCK_FD || { SLURM_WHY="another test holds the Slurm lock"; return 1; }
	trap slurm_stop EXIT
	mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool"
	# munge: one per machine; start it only when it does not answer
	if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
		mkdir -p /etc/munge /var/log/munge /run/munge /var/lib/munge
		[ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
		chown munge:munge /etc/munge /var/log/munge /run/munge /var/lib/munge /etc/munge/munge.key
		chmod 400 /etc/munge/munge.key
		runuser -u munge -- /usr/sbin/munged || { SLURM_WHY="munged does not start"; return 1; }
		SLURM_OWN_MUNGE=1
		i=0; until munge -n 2>/dev/null | unmunge >/dev/null 2>&1; do
			i=$((i + 1)); [ $i -lt 50 ] || { SLURM_WHY="munge does not answer"; return 1; }; sleep 0.1
		done
	fi
	host=$(hostname -s)
	mem=$(awk '/MemAvailable/ { m = int($2 / 1024) - 1024; print (m < 500 ? 500 : m) }' /proc/meminfo)
	cat >"$SLURM_DIR/slurm.conf" <<-CONF
	ClusterName=ab$$
	SlurmctldHost=$host
	SlurmctldPort=$(slurm_free_port)
	SlurmUser=root
	SlurmdUser=root
	AuthType=auth/munge
	StateSaveLocation=$SLURM_DIR/state
	SlurmdSpoolDir=$SLURM_DIR/spool/%n
	SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
	SlurmdPidFile=$SLURM_DIR/slurmd.%n.pid
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	SchedulerType=sched/backfill
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	ReturnToService=2
	SlurmctldLogFile=$SLURM_DIR/slurmctld.log
	SlurmdLogFile=$SLURM_DIR/slurmd.%n.log
	MpiDefault=none
	JobCompType=jobcomp/filetxt
	JobCompLoc=$SLURM_DIR/jobcomp.txt
	CONF
	if [ "$SLURM_NODES" -le 1 ]; then
		SLURM_NODENAMES=$host
		echo "NodeName=$host Port=$(slurm_free_port) CPUs=$(nproc) RealMemory=$mem State=UNKNOWN" >>"$SLURM_DIR/slurm.conf"
	else
		SLURM_NODENAMES=
		mem=$((mem / SLURM_NODES)); [ $mem -ge 200 ] || mem=200
		n=1; while [ $n -le "$SLURM_NODES" ]; do
			echo "NodeName=abn$n NodeHostname=$host NodeAddr=127.0.0.1 Port=$(slurm_free_port) CPUs=1 RealMemory=$mem State=UNKNOWN" >>"$SLURM_DIR/slurm.conf"
			SLURM_NODENAMES="$SLURM_NODENAMES${SLURM_NODENAMES:+ }abn$n"; n=$((n + 1))
		done
	fi
	echo "PartitionName=debug Nodes=$(echo $SLURM_NODENAMES | tr ' ' ,) Default=YES MaxTime=INFINITE State=UP" >>"$SLURM_DIR/slurm.conf"
	SLURM_CONF="$SLURM_DIR/slurm.conf"; export SLURM_CONF
	/usr/sbin/slurmctld -f "$SLURM_CONF" || { SLURM_WHY="slurmctld does not start"; return 1; }
	for nn in $SLURM_NODENAMES; do
		if [ "$SLURM_NODES" -le 1 ]; then
			/usr/sbin/slurmd -f "$SLURM_CONF" || { SLURM_WHY="slurmd does not start"; return 1; }
		else
			/usr/sbin/slurmd -f "$SLURM_CONF" -N "$nn" || { SLURM_WHY="slurmd -N $nn does not start"; return 1; }
		fi
	done
	i=0; until [ "$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)" -ge "$SLURM_NODES" ]; do
		i=$((i + 1)); [ $i -lt 300 ] || { SLURM_WHY="the nodes never became idle"; return 1; }; sleep 0.1
	done
	return 0
}

slurm_stop() {
	[ -n "$SLURM_DIR" ] || return 0
	for p in "$SLURM_DIR"/slurmd.*.pid "$SLURM_DIR/slurmctld.pid"; do
		[ -s "$p" ] && kill "$(cat "$p")" 2>/dev/null
	done
	i=0; while [ $i -lt 50 ]; do
		alive=
		for p in "$SLURM_DIR"/slurmd.*.pid "$SLURM_DIR/slurmctld.pid"; do
			[ -s "$p" ] && kill -0 "$(cat "$p")" 2>/dev/null && alive=1
		done
		[ -z "$alive" ] && break; i=$((i + 1)); sleep 0.1
	done
	if [ -n "$SLURM_OWN_MUNGE" ] && [ -s /run/munge/munged.pid ]; then
		kill "$(cat /run/munge/munged.pid)" 2>/dev/null
	fi
	SLURM_DIR=
	flock -u $SLURM_LOCK_FD 2>/dev/null
}
