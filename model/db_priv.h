/*
 * db_priv.h - internals shared by the files of model/db*.c.
 */
#ifndef AB_DB_PRIV_H
#define AB_DB_PRIV_H

#include "db.h"
#include "ingest/ingest.h"
#include "ingest/jtext.h"
#include "core/sha256.h"
#include "validate.h"

/* SQL: whether run_data row `a` is one of the runs of the source whose id
 * is the parameter `n` ("?1").  A source's runs are the rowid range
 * source.first_run..last_run (schema 8): a rowid range scan, no index on
 * run_data(source_id) needed; source_id is checked as well. */
#define DB_SOURCE_RUNS(a, n) \
	" " a ".id BETWEEN (SELECT first_run FROM source WHERE id = " n ")" \
	" AND (SELECT last_run FROM source WHERE id = " n ") AND " a ".source_id = " n " "

/* db_intern.c: key bytes -> id of an interned row, or DB_INTERN_SEEN for
 * a value met once and stored inline; bounded (two generations).  get
 * returns 0 on a miss; set adds or updates.  Keys are copied. */
#define DB_INTERN_SEEN (-1)
struct db_intern_slot {
	uint64_t h;
	uint32_t off1;             /* 1 + offset of the key (length, bytes) in keys; 0: free */
	int32_t id;                /* 0 for an id beyond 32 bits: a miss, asked again */
};
struct db_intern_gen {
	struct db_intern_slot *slot;
	size_t n;
	struct strbuf keys;
};
struct db_intern {
	struct db_intern_gen gen[2];
	int young;
};
void db_intern_init(struct db_intern *c);
void db_intern_clear(struct db_intern *c);
void db_intern_release(struct db_intern *c);
int64_t db_intern_get(struct db_intern *c, uint64_t h, const char *key, size_t len);
/* A hint only: h will be looked up soon (its slots are fetched meanwhile). */
void db_intern_prefetch(const struct db_intern *c, uint64_t h);
void db_intern_set(struct db_intern *c, uint64_t h, const char *key, size_t len, int64_t id);
/* db_intern_get(); on a miss (0) also db_intern_set(id), with one probe
 * less (prepare's pairs: most that are looked up are new). */
int64_t db_intern_get_or_set(struct db_intern *c, uint64_t h, const char *key, size_t len,
			     int64_t id);

/* sink.c: power samples are stored DB_POWER_BATCH at a time */
#define DB_POWER_BATCH 64
struct db_power_row {
	int64_t run_id, i, device_id;
	double t, watts;
};

/* db_metrics.c: run_data.metrics (schema 9), a run's metrics as JSON
 * object text {"<kind id>":<number>,...}, keys ascending.  An item is
 * written as text (text_len bytes, already db_metrics_number()'s form) or,
 * when text is NULL, from value. */
struct db_metric_item {
	int64_t kind;
	double value;
	const char *text;
	size_t text_len;
};
/* v sorted by kind in place; nothing appended when n is 0 (store NULL) */
void db_metrics_pack(struct strbuf *out, struct db_metric_item *v, size_t n);
/* The shortest text of v that reads back as v, with a '.' or an exponent. */
void db_metrics_number(struct strbuf *out, double v);
/* Iterate packed text (NUL-terminated; NULL: none) from *p = the text:
 * 1 an item (*p moves past it), 0 the end, -1 text not in the packed form. */
int db_metrics_next(const char **p, int64_t *kind, double *value);
/* The same without reading the value: *value points to its text, read
 * with db_metrics_value (end: past it, NULL when not a number). */
int db_metrics_next_kind(const char **p, int64_t *kind, const char **value);
double db_metrics_value(const char *text, const char **end);
/* ab_pack_metrics(kind_id, value), an aggregate for migrations */
int db_metrics_register(sqlite3 *sql);

/* sink.c: its fixed statements, prepared once (enum in sink.c) */
#define DB_SINK_STMTS 32

/* sink.c: runs the caches could resolve, waiting to be inserted up to
 * DB_RUN_BATCH (a power of two) to a statement (run_many): a statement's
 * own start and end cost as much as a few rows */
#define DB_RUN_BATCH 64
struct db_run_row {
	const struct ingest_run *r;
	const char *own;           /* its own params text, own_len bytes */
	uint32_t own_len;
	unsigned char has_key;
	unsigned char key[16];     /* its dedupe key, hashed */
	int64_t korder;            /* run_data.korder (sink.c: group_korder) */
	int64_t sys_id, b_id, set_id;
	long seq;
	size_t at;                 /* its index in run_many's runs */
	const char *mtexts;        /* prepare()'s texts of its metrics' values */
	size_t moff, mlen;         /* its packed metrics in *mbuf (mlen 0: none) */
	const struct strbuf *mbuf;
};

/* sink.c: run_many's multi-row INSERT leaving out the columns that are
 * NULL in every row it stores (a left-out column is NULL, as bound NULL
 * would be, without its two VDBE copies per row) */
#define DB_RUN_COLS 21
#define DB_RUN_SHAPES 4
struct db_run_shape {
	uint32_t omit;             /* bit c: run_data column c left out */
	int width;                 /* parameters per row */
	unsigned char pos[DB_RUN_COLS]; /* column c's parameter in a row, 1-based; 0: left out */
	sqlite3_stmt *st[DB_RUN_BATCH + 1]; /* INSERT of n runs */
	struct db_bound *bound[DB_RUN_BATCH + 1]; /* what st[n] has bound */
};

/* sink.c: the last upsert of a system or benchmark by name, kept across
 * transactions: once the same input was upserted twice in a row, the row
 * is what that input makes it (a fixed point) and the upsert is skipped */
#define DB_UPSERT_MEMO 128
struct db_upsert_memo {
	uint64_t h;                /* db_hash64 of key; 0: a free entry */
	struct strbuf key;         /* the name ("suite\nname" for a benchmark) */
	struct strbuf input;       /* everything the upsert binds */
	int64_t id;
	int times;                 /* input upserted so many times in a row (2: enough) */
};

struct db_pair_pos {
	size_t off, len;
	uint64_t h;       /* db_hash64 of the pair; 0 and unused when as the run before's */
	int same;         /* the same pair as the run before's at this place */
	int own;          /* the run's own (met for the first time), else shared */
};

/* sink.c: the state of prepare(), the part of storing a run that needs no
 * database; the ingest pipeline runs it on the parsing thread, so nothing
 * else touches it */
/* The SHA-256 state after the first 64 bytes of recent dedupe keys: a
 * test's keys share them (["reframe","<display>","<system>",...), so
 * db_key16_many() hashes only the blocks after (prepare side). */
#define DB_KEY16_MEMO 16
struct db_key16_memo {
	unsigned char first[DB_KEY16_MEMO][64];
	struct sha256 mid[DB_KEY16_MEMO];
	unsigned n, next, last;    /* entries used, next to replace, last hit */
};

/* prepare(): db_metrics_number's text of a value met lately (a run's
 * metrics take a few values again and again), direct mapped by its bits */
#define DB_NUM_MEMO 64
struct db_num_memo {
	uint64_t bits;
	unsigned char len;         /* 0: empty */
	char text[23];
};

struct db_sink_prep {
	struct db_intern pairs;    /* params pairs met (DB_INTERN_SEEN) */
	struct db_num_memo num[DB_NUM_MEMO];
	struct strbuf own, shared, text;
	/* the run before: its params text and pairs */
	struct strbuf prev;
	struct db_pair_pos *prev_pair, *cur_pair;
	size_t nprev, cap_pairs;
	struct sha256 fresh;       /* sha256_init()ed once, for db_key16 */
	struct ingest_jtext jt;    /* params JSON text (cached reals) */
	struct strbuf buf;         /* what run() prepares when nobody did */
	struct validate_run vr;
	struct strbuf kpad;        /* prepare_keys(): the keys' padded blocks */
	struct db_key16_memo kmemo; /* prepare_keys(): first-block midstates */
};

/* sink.c: what a parameter of a statement that is reset but never
 * cleared holds (sqlite3_reset keeps bindings), so the same integer, real
 * or NULL is not bound to it again */
enum { DB_BOUND_UNKNOWN = 0, DB_BOUND_NULL, DB_BOUND_INT, DB_BOUND_REAL, DB_BOUND_OTHER };
struct db_bound {
	int64_t v;                 /* the integer, or the real's bits */
	unsigned char kind;        /* DB_BOUND_* */
};

struct db_sink_state {
	struct ingest_sink sink;
	struct db *db;
	int in_txn;                /* a source is begun */
	/* sink->group(): the sources begun share one transaction (open:
	 * begun), each in a savepoint of its own, until group(0) commits */
	int grouping, group_open;
	/* the source begun: its row is inserted at end() (with its run id
	 * range), under the id reserved at begin(); its digest may come late
	 * (sink->digest) when the database held no source as the series began
	 * (empty_at_hold: -1 not known yet) */
	struct strbuf src_path, src_sha, src_format, src_identity, src_when, src_version;
	uint64_t src_size;
	int src_has_identity;
	int empty_at_hold;
	int fk_off;                /* foreign key checks switched off by the sink */
	int fk_held;               /* sink_hold(): keep them off between sources */
	int64_t source_id;
	long seq;
	int64_t first_run, last_run; /* the source's run ids so far (0: none) */
	sqlite3_stmt *st[DB_SINK_STMTS];
	int cache_only;            /* lookups the caches cannot answer return SINK_NEEDS_DB */
	struct db_run_row pend[DB_RUN_BATCH];
	size_t npend;              /* runs waiting */
	struct strbuf pend_mtext;  /* the waiting runs' packed metrics */
	struct strbuf one_mtext;   /* run()'s */
	struct db_metric_item *mitems; /* a run's metrics being packed */
	size_t cap_mitems;
	int64_t *kind_ids;         /* a run's metrics' kind ids (0: not stored) */
	size_t cap_kind_ids;
	int64_t *new_kinds;        /* kinds run() added for the run being stored */
	size_t nnew_kinds, cap_new_kinds;
	struct db_run_shape shapes[DB_RUN_SHAPES]; /* [0]: every column */
	int nshapes;
	uint32_t nulls_seen;       /* columns NULL in all full statements so far */
	struct db_bound pw_bound[5 * DB_POWER_BATCH];  /* ST_ADD_POWER_BATCH's */
	/* small caches valid inside one transaction */
	struct strbuf last_system;
	int64_t last_system_id;
	struct strbuf last_bench;
	int64_t last_bench_id;
	struct db_upsert_memo sys_memo[DB_UPSERT_MEMO], bench_memo[DB_UPSERT_MEMO];
	unsigned sys_memo_next, bench_memo_next;
	struct strbuf upin;        /* the upsert input being looked up */
	long power_i;              /* power_data.i: numbers this source's samples */
	int64_t data_version;      /* PRAGMA data_version at our last begin */
	int interned_new;          /* intern_id() added a row since reset */
	/* interned param sets, metric kinds and power devices (valid across
	 * committed transactions; emptied on rollback and when rm deletes
	 * interned rows) */
	struct db_intern sets, kinds, devices;
	/* (benchmark_id, system_id) -> whether its keyed runs are in key
	 * order or all korder -1 (sink.c: group_korder); same lifetime */
	struct db_intern groups;
	struct {
		int64_t b_id, sys_id;
		int mode;          /* 0: none */
	} last_group;
	struct strbuf kbuf, reason;
	struct db_power_row pw[DB_POWER_BATCH]; /* samples not stored yet */
	int npw;
	struct {
		struct strbuf name;
		int64_t id;        /* 0: empty */
	} recent_dev[8];           /* the last power devices met */
	unsigned recent_next;
	/* the run before: its shared set and metric kinds (a test's runs
	 * come one after another: most of it is the same) */
	struct strbuf prev_shared;
	int64_t prev_set_id;       /* 0: none */
	struct {
		struct strbuf key; /* name \0 unit \0 meta */
		size_t unit_at, meta_at; /* where unit and meta start in key */
		int64_t id;        /* 0: none */
	} prev_kind[8];
	struct sha256 fresh;       /* sha256_init()ed once, for db_key16 */
	struct ingest_jtext jt;    /* meta JSON text (cached reals) */
	struct db_sink_prep prep;
	/* known(): a read-only connection of the parsing thread */
	sqlite3 *ro;
	sqlite3_stmt *ro_find;
	int ro_empty;              /* 1: no source when the series began (answer
				    * 0), -1: not asked yet, 0: ask per file */
};

struct db {
	sqlite3 *sql;
	struct strbuf path;
	unsigned flags;
	int immutable;        /* opened read-only as an immutable snapshot */
	struct db_sink_state sink;
	struct db_configs_cache *configs_cache; /* dataset.c; NULL: off */
	int configs_per;                        /* dataset.c: enum db_per, 0: as measured */
};

struct db_configs_cache;
void db_configs_cache_free(struct db_configs_cache *c);

/* "sqlite says why" message helper: returns -AB_EIO. */
int db_fail(struct db *db, struct strbuf *err, const char *what);
int db_exec(struct db *db, const char *sql, struct strbuf *err);
/* db_exec on a bare connection (err may be NULL). */
int db_exec_sql(sqlite3 *sql, const char *q, struct strbuf *err);
int db_prepare(struct db *db, sqlite3_stmt **st, const char *sql, struct strbuf *err);
/* Bind text, NULL when s is NULL. */
int db_bind_text(sqlite3_stmt *st, int idx, const char *s);
/* Bind a positive long, NULL when <= 0. */
int db_bind_pos(sqlite3_stmt *st, int idx, long v);

/* db_rm.c: remove one source and what derives from it, inside the
 * caller's transaction; adds to *c. */
int db_source_remove(struct db *db, int64_t source_id, struct db_rm_counts *c,
		     struct strbuf *err);

/* A 64-bit hash of s[0..n) (param_pair.h), and the first 16 bytes of its
 * SHA-256 (run_data.dedupe; also the SQL function ab_key16() registered on
 * every writing connection, for migrations). */
int64_t db_hash64(const char *s, size_t n);
/* fresh: a context just sha256_init()ed, copied per key (its CPU probe is
 * slow under virtualisation); NULL to initialise one here. */
void db_key16(const struct sha256 *fresh, const char *s, size_t n, unsigned char out[16]);
/* Where a key's run goes in the run index (run_data.korder, schema 11):
 * the number made by the last digits of its text s[0..n) (a ReFrame key's
 * completion time or job id), at most 18 of them; 0 when it has none. */
int64_t db_key_order(const char *s, size_t n);
/* db_key16 of s[i][0..len[i]) into out[i] for i < n, the messages hashed
 * side by side (sha256_update_blocks); pad: scratch for the padded blocks;
 * memo (NULL: none; zeroed before first use): first blocks met before,
 * not hashed again. */
void db_key16_many(const struct sha256 *fresh, const char *const s[], const size_t len[],
		   size_t n, unsigned char (*out)[16], struct strbuf *pad,
		   struct db_key16_memo *memo);
int db_register_functions(sqlite3 *sql);

void db_sink_init(struct db *db);
/* Forget the sink's cached interned ids (rows may have been deleted). */
void db_sink_forget_interned(struct db *db);
void db_sink_release(struct db *db);
int db_migrate(struct db *db, struct strbuf *err);
/* The current schema into an empty database, inside the caller's
 * transaction, user_version included: from db_schema_now's statements,
 * or with replay by running every migration (what those statements must
 * equal; tests/unit/test_schema.c compares the two).  0 or -AB_EIO. */
int db_schema_create(sqlite3 *sql, int replay, struct strbuf *err);
/* Statement i of the schema the migrations leave (schema_now.c), NULL past the last. */
const char *db_schema_now(size_t i);

#endif
