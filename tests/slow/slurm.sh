# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# run --engine=slurm on a single-node Slurm cluster on this machine,
# started here and stopped at the end (munged, slurmctld and slurmd as
# root, every file under one scratch directory, their own socket and
# ports): slab and slub, 2 boots each of quick under --accel=cost, as one
# job array; the results hold the exact counts of a local run, compare
# finds no change; a second submission reruns only the boot whose
# outcome is gone; a failing task is named with its logs. Debian's
# slurm-wlm and munge come from make test-slow (scripts/install-deps.sh
# slow). About 6 minutes on 2 loaded cores, kernels cached.
. tests/e2e/lib.sh

plan 19

check "slurm-wlm and munge are installed (scripts/install-deps.sh slow)" \
	bash -c "for p in slurmctld slurmd sbatch sinfo munged; do command -v \$p >/dev/null || exit 1; done"

S=$(mktemp -d)
chmod 755 "$S"
mkdir -p "$S/state" "$S/spool"
host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
pids=()
# By their pid files, read once they are up (each removes its file on exit).
stop_cluster() {
	local f p
	for f in slurmd slurmctld munged; do
		[ -s "$S/$f.pid" ] && pids+=("$(cat "$S/$f.pid")")
	done
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	for _ in $(seq 100); do
		alive=0
		for p in "${pids[@]}"; do
			kill -0 "$p" 2>/dev/null && alive=1
		done
		[ $alive = 0 ] && break
		sleep 0.1
	done
}
trap 'stop_cluster; rm -rf "$TMP" "$S"' EXIT

cat >"$S/slurm.conf" <<CONF
ClusterName=slabbench
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge.socket
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$S/slurm.conf
munged --force --socket="$S/munge.socket" --pid-file="$S/munged.pid" \
	--seed-file="$S/munged.seed" --log-file="$S/munged.log"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do
	sinfo -h -o %T 2>/dev/null | grep -q '^idle' && break
	sleep 0.3
done
check "the one-node cluster is up, its node idle" bash -c "sinfo -h -o %T | grep -q '^idle'"

counts() {
	jq -c '[.tests[].metrics | to_entries[] |
		select(.value.unit | IN("insns/op", "accesses/op", "misses/op")) |
		[.key, .value.samples]]' "$1"
}
args=(--boots=2 "--alloc=slab,slub" --accel=cost --workload=quick)
"$SB" run "${args[@]}" -o "$TMP/local" >/dev/null 2>"$TMP/local.err"
start=$SECONDS
"$SB" run "${args[@]}" --engine=slurm --partition=test --time-limit=20 -o "$TMP/slurm" \
	>/dev/null 2>"$TMP/slurm.err"
rc=$?
echo "# --engine=slurm: $((SECONDS - start)) s for 4 guests"
check "--engine=slurm succeeds" test "$rc" -eq 0
check "one array of 4 tasks was submitted" grep -q '^slabbench: 4 boots as a Slurm job array' \
	"$TMP/slurm.err"
for v in slab slub; do
	l=$(echo "$TMP/local/$v"-quick-*[0-9].json)
	s=$(echo "$TMP/slurm/$v"-quick-*[0-9].json)
	check "$v: the Slurm run's results are complete, 2 boots, engine recorded" \
		jqt "$s" '.status == "complete" and (.boots | length) == 2 and .vm.engine == "slurm"'
	check "$v: every instruction, access and miss count equals the local run's" \
		test "$(counts "$l")" = "$(counts "$s")"
	check "$v: and there are counts" jqt "$s" '[.tests[].metrics.instructions_per_op.samples[] | . > 0] | all'
	"$SB" compare --fail-on-regression=0.001 "$l" "$s" >"$TMP/cmp-$v.txt" 2>&1
	check "$v: compare local against Slurm: no change in the model's metrics, the gate passes" \
		bash -c "[ $? -eq 0 ] && ! grep -A1 '_per_op (\(insns\|accesses\|misses\)/op)' \
			'$TMP/cmp-$v.txt' | grep -q 'worse\|better'"
done

# A resubmission reruns only what has no outcome.
rm "$TMP/slurm/slurm/slub-cpus1-boot1/outcome.json"
"$SB" run "${args[@]}" --engine=slurm --partition=test -o "$TMP/slurm" >/dev/null 2>"$TMP/again.err"
check "a resubmission succeeds" test $? -eq 0
check "and submits only the boot whose outcome was missing" \
	grep -q '^slabbench: 1 boot as a Slurm job array' "$TMP/again.err"

# A task whose guest fails is named, with its logs; its results are partial.
"$SB" run --boots=1 --alloc=slub --accel=cost --workload=quick --engine=slurm --timeout=1 \
	-o "$TMP/fail" >/dev/null 2>"$TMP/fail.err"
check "a failing task fails the run" test $? -ne 0
check "it is named: variant, vCPUs, boot and what happened" \
	grep -q 'slub guest (1 vCPUs), boot 0: timed out' "$TMP/fail.err"
check "and its results are kept as partial" bash -c "ls '$TMP/fail'/slub-quick-*.partial.json >/dev/null"

stop_cluster
check "munged, slurmctld and slurmd were found by their pid files" test "${#pids[@]}" -eq 3
# [/]: the pattern must not match this check's own command line.
check "they are stopped, and nothing of the cluster is left running" \
	bash -c "! kill -0 ${pids[*]} 2>/dev/null && ! pgrep -f '[/]${S#/}/' >/dev/null"
