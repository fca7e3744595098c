/*
 * mlperf_score.h - the official MLPerf training score per (system,
 * benchmark, round) from the runs in the database, as mlcommons/logging's
 * result_summarizer computes it (formats/mlperf.md sections 4 and 6):
 * olympic mean of the valid times to train with the benchmark's k (1; 4
 * for unet3d), failed runs counted as the slowest, no score with more than
 * k failures, times the scaling factor of scaling.json; and the energy
 * score (joules) as the mean of the energies of the same kept runs, times
 * the same factor, when the benchmark has power logs.
 *
 * Ownership: *out is a new JSON array the caller json_decref()s.
 */
#ifndef AB_MLPERF_SCORE_H
#define AB_MLPERF_SCORE_H

#include "model/db.h"

/* Result files the package checker requires per benchmark, 0 if unknown. */
int mlperf_required_runs(const char *benchmark);

/*
 * One object per (system, benchmark, round, HPC scaling, result directory)
 * of suite mlperf-training matching f (f->suite other than mlperf-training
 * gives an empty array), sorted by system, benchmark, round.  Fields:
 * submitter, system (database name "<submitter>/<folder>"), system_name
 * (display name), benchmark, round, result_dir, division, availability,
 * vendor, accelerator (normalised), accelerator_model_name (as the system
 * JSON says), host_cpu, nodes, devices, framework, runs, valid, failed,
 * required_runs, max_dropped, note (result files vs required), status
 * ("ok", "too many non-converging runs", "no runs left"), official_score
 * (minutes or null), unit ("min"), scaling_factor, median (of the valid
 * runs, minutes or null), official_energy_j (null without power logs),
 * energy_note, and run_ids (all runs of the group).  HPC weak-scaling
 * groups ("scaling": "weak") give time_to_train_all (max stop - min start
 * over the valid runs) as official_score.  Returns 0 or -AB_EIO.
 */
int mlperf_score(struct db *db, const struct db_filter *f, json_t **out, struct strbuf *err);

#endif
