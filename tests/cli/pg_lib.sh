# pg_lib.sh - a throwaway PostgreSQL cluster for the tests t09xx (source
# it after lib.sh).
#
#   pg_start_or_skip "PostgreSQL push"
#
# pg_start_or_skip starts the cluster (pg_start) and exports PG_URL, PG_BIN
# and PG_DIR for the tests' subshells and helpers; when the cluster cannot
# start, the script ends there with one skipped test that says why.
# pg_start runs initdb into a fresh /tmp/ab-pg.XXXXXX and starts the server
# on a Unix socket in that directory only (listen_addresses=''), so several
# worktrees can run their tests at once; as root, the server runs as the
# unprivileged user nobody.  It sets PG_URL (a superuser connection string),
# PG_DIR and PG_BIN, and stops and removes the cluster when the test exits.
# Options: PG_TCP=1 also listens on 127.0.0.1 at a free port (PG_PORT);
# PG_SETUP names a function run after initdb, before the server starts
# (certificates, pg_hba.conf; it may add to PG_EXTRA_OPTS).
PG_DIR=""; PG_AS=""; PG_WHY=""; PG_PORT=5432

pg_find_bin() {
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/psql" ]; then
			echo "$d"; return 0
		fi
	done
	return 1
}

pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	$PG_AS "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$PG_DIR"; PG_DIR=""
}

pg_start() {
	PG_BIN=$(pg_find_bin) || { PG_WHY="PostgreSQL server not installed (make deps installs postgresql-15)"; return 1; }
	PG_DIR=$(mktemp -d /tmp/ab-pg.XXXXXX) || { PG_WHY="cannot create a temp dir"; return 1; }
	chmod 755 "$PG_DIR"
	if [ "$(id -u)" = 0 ]; then
		command -v runuser >/dev/null || { PG_WHY="runuser missing: cannot run the server unprivileged"; rm -rf "$PG_DIR"; PG_DIR=""; return 1; }
		chown nobody "$PG_DIR"; PG_AS="runuser -u nobody --"
	fi
	trap pg_stop EXIT
	trap 'exit 130' INT TERM
	if ! $PG_AS "$PG_BIN/initdb" -D "$PG_DIR/data" -U ab --auth=trust -E UTF8 --locale=C \
		>"$PG_DIR/initdb.log" 2>&1; then
		PG_WHY="initdb failed: $(tail -1 "$PG_DIR/initdb.log")"; pg_stop; return 1
	fi
	if [ -n "${PG_SETUP:-}" ] && ! $PG_SETUP; then
		PG_WHY=${PG_WHY:-"$PG_SETUP failed"}; pg_stop; return 1
	fi
	listen="''"
	for try in 1 2 3; do
		if [ -n "${PG_TCP:-}" ]; then
			# a free port now; another test may take it first: then try again
			PG_PORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') || break
			listen=127.0.0.1
		fi
		if $PG_AS "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
			-o "-c listen_addresses=$listen -c port=$PG_PORT -c unix_socket_directories='$PG_DIR' -c shared_buffers=32MB -c max_connections=40 -c fsync=off ${PG_EXTRA_OPTS:-}" \
			start >/dev/null 2>&1; then
			PG_URL="host=$PG_DIR port=$PG_PORT user=ab dbname=postgres"
			return 0
		fi
		[ -n "${PG_TCP:-}" ] || break
	done
	PG_WHY="the server did not start: $(tail -1 "$PG_DIR/server.log" 2>/dev/null)"; pg_stop; return 1
}

pg_start_or_skip() {
	if ! pg_start; then
		test_skip "$1" "$PG_WHY"
		test_done
	fi
	export PG_URL PG_BIN PG_DIR
}

# psql as the superuser (or pass another connection string with -d).
pg_sql() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d "$PG_URL" "$@"; }
