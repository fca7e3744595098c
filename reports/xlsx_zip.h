/*
 * xlsx_zip.h - the second pass over the workbook libxlsxwriter wrote: copy
 * its zip member by member into the final file, changing only what
 * libxlsxwriter 1.1.4 cannot write itself:
 *   - custom error bars: a bar series written with a fixed error value of
 *     XLSX_ZIP_ERRBAR_MARK + k gets the error bars of patch k instead
 *     (c:errValType "cust", c:plus / c:minus referring to worksheet cells,
 *     with their cached values), so the whiskers follow the CI cells;
 *   - one streamed worksheet: the rows of xl/worksheets/sheetN.xml are
 *     produced by a callback while the member is compressed, so a sheet of
 *     a million rows never sits in memory and can still be an Excel table
 *     (libxlsxwriter has no tables in its constant-memory mode).
 * Every other member is copied byte for byte (still compressed).  The zip
 * read is the one libxlsxwriter (minizip) writes: no ZIP64, one disk.
 *
 * Ownership: everything is borrowed for the call; errors are -AB_E* with
 * the message in err (-AB_EIO for I/O, -AB_EINTERNAL for a workbook that
 * is not what libxlsxwriter writes).
 */
#ifndef AB_XLSX_ZIP_H
#define AB_XLSX_ZIP_H

#include "core/core.h"

#define XLSX_ZIP_ERRBAR_MARK 987654.25   /* fixed error value k marks patch k */

struct xlsx_errbars {
	const char *plus_ref;    /* "'Sheet'!$G$5:$G$9" */
	const char *minus_ref;
	const double *plus, *minus; /* cached values, n each; NAN: no whisker */
	size_t n;
};

/* The streamed sheet's row writer appends XML to a buffer it flushes. */
struct xlsx_zip_out;
void xlsx_zip_put(struct xlsx_zip_out *o, const char *s, size_t len);
/* The shared-string index of text s (UTF-8; escaped here), added to the
 * workbook's xl/sharedStrings.xml; -1 when the workbook has none or the
 * table is full (then write the cell as an inline string). */
long long xlsx_zip_sst(struct xlsx_zip_out *o, const char *s, size_t len);
/* Flush the buffer into the compressor when it is large; 0 or -AB_EIO. */
int xlsx_zip_flush(struct xlsx_zip_out *o, struct strbuf *err);
/* The buffer itself (append with strbuf_*, then call xlsx_zip_flush). */
struct strbuf *xlsx_zip_buf(struct xlsx_zip_out *o);

struct xlsx_zip_patch {
	const struct xlsx_errbars *bars;   /* patch k: bars[k] */
	size_t nbars;
	int stream_sheet;                  /* N of xl/worksheets/sheetN.xml; 0: none */
	const char *dimension;             /* its <dimension ref>, e.g. "A1:P1001" */
	/* writes the <row> elements after the sheet's existing rows */
	int (*rows)(void *ctx, struct xlsx_zip_out *o, struct strbuf *err);
	void *rows_ctx;
};

/* Copy the zip at in_path to out (a regular file, positioned at 0) with the
 * patches applied.  Every mark and the streamed sheet must be found. */
int xlsx_zip_rewrite(const char *in_path, FILE *out, const struct xlsx_zip_patch *p,
		     struct strbuf *err);

/* Append s as XML text (& < > escaped, characters XML cannot hold and a
 * literal "_xHHHH_" written the way Excel reads them back). */
void xlsx_xml_text(struct strbuf *out, const char *s, size_t len);

#endif
