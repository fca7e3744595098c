/*
 * caraml_priv.h - what the CARAML parsers share: the JUBE result-table
 * reader (jube.c), the CARAML table mapping (caraml.c) and the jpwr energy
 * and power readers (jpwr.c).  Not for use outside ingest/.
 *
 * Ownership: structs filled by these functions own their strings and JSON
 * references; release them with the matching *_release().
 */
#ifndef AB_CARAML_PRIV_H
#define AB_CARAML_PRIV_H

#include "ingest_priv.h"

/* ---- jube.c: JUBE result tables ------------------------------------- */

enum jube_style {
	JUBE_CSV = 0,     /* "h1,h2" / "v1,v2", never quoted */
	JUBE_ALIGNED,     /* csv with every cell space-padded */
	JUBE_PRETTY       /* "name:", "| h1 | h2 |", "|----|", "| v1 | v2 |" */
};

const char *jube_style_name(enum jube_style s);

/*
 * A column whose values may contain the separator (JUBE writes csv without
 * quoting).  When a row has more fields than the header, the surplus is
 * joined back into such a column (see jube.c for the rule).  open/close
 * bracket the value ('[' ']' for a Python list, '(' ')' for a tuple), which
 * fixes its extent exactly; 0 means free text, which takes whatever is
 * left between the columns anchored on its left and on its right.
 */
struct jube_absorb {
	const char *column;
	char open, close;
};

struct jube_table {
	enum jube_style style;
	const char *name;          /* pretty style: the table name line, else NULL */
	long line;                 /* line of the header */
	size_t ncols;
	char **cols;               /* trimmed header titles */
	long repaired;             /* rows whose surplus fields were joined back */
	const char *repaired_col;  /* the column that took them (last repair) */
};

struct jube_ops {
	const struct jube_absorb *absorb;
	size_t nabsorb;
	/* A table starts; return <0 (err set, positioned) to reject the file. */
	int (*begin)(void *ctx, const struct jube_table *t, struct strbuf *err);
	/* One row: cells[0..t->ncols) trimmed, multi-line cells joined by ' '. */
	int (*row)(void *ctx, const struct jube_table *t, long line, char *const *cells,
		   struct strbuf *err);
	void *ctx;
};

/* Score the first bytes as a CARAML JUBE result table (0, 90 or 95). */
int jube_detect(const unsigned char *head, size_t len);
/*
 * Stream every table of f (several are separated by blank lines, as in the
 * stdout of `jube result`).  Returns 0 or a negative status with err set to
 * "path:line: what".
 */
int jube_read(struct ingest_file *f, const struct jube_ops *ops, struct strbuf *err);

/* ---- caraml.c ------------------------------------------------------- */

/* The canonical spelling of a CARAML system tag ("Jedi" -> "JEDI") when
 * s[0..len) is one, case-insensitively; NULL otherwise. */
const char *caraml_known_tag(const char *s, size_t len);
/* The meta of an energy or power metric: {"boundary": .., "source": ..},
 * NULL members left out; a new reference. */
json_t *caraml_energy_meta(const char *boundary, const char *source);

/* ---- jpwr.c: energy files and power series ------------------------- */

/* Column families of jpwr, in order of preference for the boundary. */
enum jpwr_family {
	JPWR_NONE = 0,
	JPWR_GH_OTHER,    /* gh:Grace/CPU/SysIO: inside the module, never summed */
	JPWR_GH_MODULE,   /* gh:Module Power Socket N: GH200 superchip */
	JPWR_GC,          /* gc:N: Graphcore IPU */
	JPWR_ROCM,        /* rocm:N: AMD GPU (GCD) */
	JPWR_PYNVML       /* pynvml:N: NVIDIA GPU */
};

enum jpwr_family jpwr_column_family(const char *name);

/*
 * Energy of one measurement at one boundary.  Per node exactly one rank
 * row counts (every rank of a node measures all devices of that node),
 * and one column family: pynvml (GPU) before rocm (GPU) before gc (IPU)
 * before gh:Module (GH200 superchip, which contains the GPU, so never
 * added to pynvml).
 */
struct jpwr_energy {
	double wh;                 /* total over nodes at the boundary */
	const char *boundary;      /* "gpu", "module" or NULL (nothing usable) */
	const char *family;        /* "pynvml", "rocm", "gc", "gh:Module" */
	const char *vendor;        /* of the family: NVIDIA, AMD, Graphcore */
	long nodes;                /* distinct nodes (1 when the file names none) */
	long rows;                 /* rank rows read (duplicates included) */
	long devices;              /* device columns summed, over all nodes */
	char *first_node;          /* first nodename, or NULL */
	long rank;                 /* rank of a per-rank file, -1 if none */
	json_t *per_device;        /* {"[node/]column": Wh} for every column read */
	int counter;               /* 1: energy_from_counter table (file name) */
};

void jpwr_energy_init(struct jpwr_energy *e);
void jpwr_energy_release(struct jpwr_energy *e);
/*
 * Read combined_energy.csv (2024 or 2025 layout), another wide energy
 * table (jpwr CLI energy_from_counter) or a per-rank pandas Series file
 * (",0" header), sniffed from the first line.  path is used for messages.
 * Returns 0, or -AB_EDATA / -AB_EIO with err "path:line: what".
 */
int jpwr_energy_read_fp(FILE *fp, const char *path, struct jpwr_energy *e, struct strbuf *err);
int jpwr_energy_read(const char *path, struct jpwr_energy *e, struct strbuf *err);

/* Resolves EnergyFile cells to files on this machine; caches the last hit. */
struct jpwr_resolver {
	char **bases;              /* ancestors of the table's directory, then roots */
	size_t nbases;
	size_t hit_base, hit_k;    /* last successful (base, suffix length); k 0 = none */
};

/* jpwr_resolve.c */
void jpwr_resolver_init(struct jpwr_resolver *r, const struct ingest_file *f);
void jpwr_resolver_release(struct jpwr_resolver *r);
/* 1 and out = the file when found, 0 when not (or the value is unusable). */
int jpwr_resolve(struct jpwr_resolver *r, const char *value, struct strbuf *out);

/* What one pass over a power CSV found. */
struct jpwr_series {
	double t_first, t_last;    /* epoch seconds, NAN before the first row */
	double wh;                 /* jpwr's integral over the boundary columns */
	double peak;               /* largest sum of one row's boundary columns */
	long samples, rows, devices;
	char *node;                /* nodename of the first row, or NULL */
	const char *family, *boundary, *vendor;
};

void jpwr_series_init(struct jpwr_series *s);
void jpwr_series_release(struct jpwr_series *s);
/*
 * One pass over a power CSV: validate it, integrate the boundary columns
 * and, when f is not NULL, emit them as power samples of run_id, named
 * "<node>/<column>" (or "<column>" without a nodename column).  Returns 0
 * or -AB_EDATA with err "path:line: what".
 */
int jpwr_series_pass(FILE *fp, const char *path, struct ingest_file *f, int64_t run_id,
		     struct jpwr_series *st, struct strbuf *err);

/* The per-rank power series (<TAG>_power.<rank>.csv) of one run, one file
 * per node. */
struct jpwr_power {
	char **paths;              /* one per node, lowest rank first */
	char **nodes;
	size_t n;
	double t_start, t_end;     /* epoch seconds over all files, NAN if none */
	double wh;                 /* integrated with jpwr's rule over the boundary */
	double peak_w;             /* largest per-file sum of one row */
	long samples;              /* power values that will be emitted */
	const char *family;
};

void jpwr_power_init(struct jpwr_power *p);
void jpwr_power_release(struct jpwr_power *p);
/*
 * Find and validate the power series next to an energy file: in its
 * directory and in the directories it contains (JUBE links the parent
 * step's work directory there, e.g. "benchmark/").  Returns 0 (p->n may be
 * 0), or -AB_EDATA with err naming the bad file and line.
 */
int jpwr_power_find(const char *energy_path, struct jpwr_power *p, struct strbuf *err);
/* Emit every boundary sample of p as power_sample rows of run_id. */
int jpwr_power_emit(struct ingest_file *f, int64_t run_id, const struct jpwr_power *p,
		    struct strbuf *err);

/* Energy boundary names used in metric meta JSON. */
#define JPWR_BOUNDARY_GPU "gpu"
#define JPWR_BOUNDARY_MODULE "module"

#endif
