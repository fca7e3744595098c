#!/bin/sh
# t0905-pg-tls: push and pull over TLS to a server that takes TCP
# connections with TLS only (a self-signed CA made with openssl), as a role
# that logs in with a password from ~/.pgpass; sslmode=require, verify-ca
# and verify-full; a wrong CA, a missing or wrong password fail with a
# message that never shows the password.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

command -v openssl >/dev/null || { test_skip "PostgreSQL over TLS" "openssl not installed"; test_done; }

PW=tls-sekrit-4711
# certificates and pg_hba.conf, after initdb, before the server starts
tls_setup() {
	(
	cd "$PG_DIR" &&
	for ca in ca other; do
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
			-subj "/CN=accelbench test $ca" -keyout $ca.key -out $ca.crt || exit 1
	done &&
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-subj "/CN=localhost" -keyout server.key -out server.csr &&
	printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >server.ext &&
	openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
		-extfile server.ext -out server.crt &&
	chmod 600 server.key &&
	{ [ -z "$PG_AS" ] || chown nobody server.key server.crt; } &&
	printf '%s\n' "local all all trust" \
		"hostssl all ab_pw 127.0.0.1/32 scram-sha-256" \
		"host all all 127.0.0.1/32 reject" >data/pg_hba.conf
	) >"$PG_DIR/tls.log" 2>&1 || { PG_WHY="openssl: $(tail -1 "$PG_DIR/tls.log")"; return 1; }
	PG_EXTRA_OPTS="-c ssl=on -c ssl_cert_file=$PG_DIR/server.crt -c ssl_key_file=$PG_DIR/server.key"
}
PG_SETUP=tls_setup
PG_TCP=1
pg_start_or_skip "PostgreSQL over TLS"

# HOME holds .pgpass; nothing else gives a password
mkdir -p "$TRASH/home"
export HOME="$TRASH/home"
unset PGPASSWORD PGPASSFILE PGSSLMODE PGSSLROOTCERT ACCELBENCH_PG || true
printf '127.0.0.1:%s:*:ab_pw:%s\nlocalhost:%s:*:ab_pw:%s\n' "$PG_PORT" "$PW" "$PG_PORT" "$PW" >"$HOME/.pgpass"
chmod 600 "$HOME/.pgpass"
TCP="host=127.0.0.1 port=$PG_PORT user=ab_pw dbname=t"

test_expect_success 'set-up: a role that logs in with a password, owner of database t' '
	pg_sql -c "CREATE ROLE ab_pw LOGIN PASSWORD '\''$PW'\''" &&
	pg_sql -c "CREATE DATABASE t OWNER ab_pw" &&
	ACCELBENCH_DB= ab demo -o demo >/dev/null
'

test_expect_success 'sslmode=require, password from ~/.pgpass: pg init, push' '
	ab pg init --url "$TCP sslmode=require" --no-reader >out 2>err &&
	grep -q "^created the central schema at ab_pw@127.0.0.1:$PG_PORT/t " out &&
	ab --db demo/accelbench.db push --to "$TCP sslmode=require" >out 2>err &&
	grep -q "^pushed 48 sources to ab_pw@127.0.0.1:$PG_PORT/t (0 already there)" out &&
	! grep -q "$PW" out err
'

test_expect_success 'the server takes no connection without TLS: push used it' '
	expect_code 3 ab --db demo/accelbench.db push --to "$TCP sslmode=disable" >out 2>err &&
	grep -q "no encryption" err && ! grep -q "$PW" out err
'

test_expect_success 'pull over TLS (three connections): the same stats' '
	ab --db pulled.db pull --from "$TCP sslmode=require" >out 2>err &&
	grep -q "^pulled 48 sources" out &&
	ab --db demo/accelbench.db stats --json >a.json && ab --db pulled.db stats --json >b.json &&
	test_cmp a.json b.json
'

test_expect_success 'sslmode=verify-ca and verify-full with the CA; a wrong CA fails' '
	ab --db demo/accelbench.db push --to "$TCP sslmode=verify-ca sslrootcert=$PG_DIR/ca.crt" >out &&
	grep -q "^pushed 0 sources .* (48 already there)" out &&
	ab --db demo/accelbench.db push --to "host=localhost port=$PG_PORT user=ab_pw dbname=t sslmode=verify-full sslrootcert=$PG_DIR/ca.crt" >out &&
	grep -q "^pushed 0 sources " out &&
	expect_code 3 ab --db demo/accelbench.db push --to "$TCP sslmode=verify-ca sslrootcert=$PG_DIR/other.crt" >out 2>err &&
	grep -q "^accelbench: cannot connect to PostgreSQL: .*certificate verify failed" err
'

test_expect_success 'no ~/.pgpass or a wrong password: a clear failure, no password shown' '
	mv "$HOME/.pgpass" "$HOME/pgpass.saved" &&
	expect_code 3 ab --db demo/accelbench.db push --to "$TCP sslmode=require" >out 2>err &&
	grep -q "^accelbench: cannot connect to PostgreSQL: .*password" err &&
	sed "s/$PW/wrong-$PW/" "$HOME/pgpass.saved" >"$HOME/.pgpass" && chmod 600 "$HOME/.pgpass" &&
	expect_code 3 ab --db demo/accelbench.db push --to "$TCP sslmode=require" >out 2>err &&
	grep -q "password authentication failed for user \"ab_pw\"" err &&
	! grep -q "$PW" out err &&
	mv "$HOME/pgpass.saved" "$HOME/.pgpass"
'

test_done
