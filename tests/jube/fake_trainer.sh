#!/bin/sh
# fake_trainer.sh SYSTEM GBS ITERS DEVICES - stands in for Megatron-LM in
# the JUBE test benchmark (tests/jube/llm_fake.xml): prints CARAML-patched
# iteration lines and writes jpwr-style per-rank power and energy files
# (<SYSTEM>_power.0.csv, <SYSTEM>_power.0.energy.csv).  A global batch size
# above 1024 runs out of memory before the first iteration, like a real
# too-large batch, so its derived JUBE values have no input.
sys=$1 gbs=$2 iters=$3 dev=$4
echo "Submitted batch job $((4000 + gbs))"
if [ "$gbs" -gt 1024 ]; then
	echo "torch.OutOfMemoryError: CUDA out of memory" >&2
	exit 1
fi
i=5
while [ $i -le "$iters" ]; do
	# time per iteration grows with the batch: 0.05 s + 0.05 s per 32 sequences
	t=$(awk "BEGIN { printf \"%.4f\", 0.05 + 0.05 * $gbs / 32 }")
	tf=$(awk "BEGIN { printf \"%.2f\", 150 + $gbs / 16 }")
	echo "[default3]: iteration       $i/ 9375000 | consumed samples:   $((i * gbs)) | elapsed time per iteration (s): $t | learning rate: 1.479E-07 | global batch size:    $gbs | lm loss: 1.088000E+01 | loss scale: 4096.0 | grad norm: 2.943 | number of skipped iterations:   0 | number of nan iterations:   0 | samples per second: 40.717 | TFLOPs: $tf | TFLOPs(megatron): 152.54 |"
	i=$((i + 5))
done
host=$(hostname -s)
{
	printf ',timestamps'; d=0; while [ $d -lt "$dev" ]; do printf ',pynvml:%d' $d; d=$((d + 1)); done; printf ',nodename,rank\n'
	r=0; while [ $r -lt 5 ]; do
		printf '%d,%d.5' $r $((1724403731 + r)); d=0
		while [ $d -lt "$dev" ]; do printf ',%d.0' $((200 + 10 * d)); d=$((d + 1)); done
		printf ',%s,0\n' "$host"; r=$((r + 1))
	done
} >"${sys}_power.0.csv"
{
	printf ',0\n'; d=0
	while [ $d -lt "$dev" ]; do printf 'pynvml:%d,%s\n' $d "$(awk "BEGIN { printf \"%.6f\", (200 + 10 * $d) * 4 / 3600 }")"; d=$((d + 1)); done
	printf 'nodename,%s\nrank,0\n' "$host"
} >"${sys}_power.0.energy.csv"
