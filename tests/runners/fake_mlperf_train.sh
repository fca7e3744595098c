#!/bin/sh
# fake_mlperf_train.sh - stands in for an MLPerf training command (t5002):
# prints :::MLLOG lines; the run whose ACCELBENCH_RUN_INDEX is $FAIL_RUN
# stops with status "aborted", and NOLOG_RUN prints no records at all.
i=${ACCELBENCH_RUN_INDEX:-1}
t=$((1728001000000 + i * 10000000))
m() { echo ":::MLLOG {\"namespace\": \"\", \"time_ms\": $1, \"event_type\": \"$2\", \"key\": \"$3\", \"value\": $4, \"metadata\": {\"file\": \"train.py\", \"lineno\": 1$5}}"; }
echo "some shell noise"
if [ "$i" = "${NOLOG_RUN:-0}" ]; then echo "CUDA error: out of memory" >&2; exit 1; fi
m $t POINT_IN_TIME submission_benchmark '"resnet"'
m $t POINT_IN_TIME submission_division '"closed"'
m $t POINT_IN_TIME global_batch_size 256
m $t INTERVAL_START init_start null
m $((t+1000)) INTERVAL_END init_stop null
m $((t+2000)) INTERVAL_START run_start null
m $((t+2000+i*60000)) POINT_IN_TIME eval_accuracy 0.759
if [ "$i" = "${FAIL_RUN:-0}" ]; then st=aborted; else st=success; fi
m $((t+2000+60000*(10+i))) INTERVAL_END run_stop null ", \"status\": \"$st\""
