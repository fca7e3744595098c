#!/bin/sh
# submit.sh DELAY SYSTEM GBS ITERS DEVICES - the "job submission" of the
# JUBE test benchmark: starts fake_trainer.sh in the background (like
# sbatch) and returns at once; the trainer's end creates `ready` (or
# `failed`), which JUBE's done_file/error_file wait for.
delay=$1; shift
(
	sleep "$delay"
	if sh fake_trainer.sh "$@" >job.out 2>job.err; then touch ready; else touch failed; fi
) </dev/null >/dev/null 2>&1 &
echo "submitted"
