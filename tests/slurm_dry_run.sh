#!/usr/bin/env bash
# The Slurm scripts (scripts/slurm/, docs/slurm.md) against a real Slurm: a
# private single-node cluster (slurmctld, slurmd and munged, from Debian's
# slurm-wlm and munge) started in a temporary folder, on free ports, with
# this host's CPUs and memory and three stand-in GPUs (gres files that are
# /dev/null), so that the array's own `--gres=gpu:1` is scheduled as written.
#
#  1. Without Slurm: merge_report.sbatch refuses a shard that exited 5 and
#     one without a status; sweep_array.sbatch refuses an array that is not
#     0..N-1 and a --out among the sweep flags.
#  2. submit_sweep.sh with --dry-run, 3 shards of a 20-item plan: every task
#     exits 0 and prints the plan header with the unsharded plan's sweep_id
#     and options; the tasks' item lines are disjoint, each in its shard
#     (item mod 3), and together exactly the unsharded plan's.
#  3. Requeue: 2 shards of a sweep run by a fake harness that writes the
#     shard's plan.json and waits; `scontrol requeue` of the array; each task
#     must run again and take the `sweep --resume` branch.  Shard 1's resume
#     exits 6 (a candidate verdict): that is its task's exit code, and the
#     merge-and-report job still runs, after both, on both shard folders.
#     Then `--only 1` resubmits shard 1 alone (an array of one task, which
#     must still be shard 1 of 2): it resumes, and the merge job runs again.
#
# The dry runs use the harness itself (HB_BENCH).  Parts 2 and 3 skip, with one line, where
# Slurm or munge is not installed.  Runs as root or as any user (the daemons
# then run as that user, SlurmUser and SlurmdUser too).  The daemons, every
# process of their jobs and the folder are gone when the test exits.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
scripts=$repo/scripts/slurm
hb=${HB_BENCH:-$repo/build/hgemm-bench}
case $hb in /*) ;; *) hb=$PWD/$hb ;; esac

work=$(mktemp -d)
conf=$work/slurm.conf
daemons=()

# A process that exists and has not exited (a daemon that has, stays a zombie
# child of this shell until waited for).
alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}
# Stops the daemons started here and every process still running with this
# cluster's SLURM_CONF in its environment (slurmstepd and the jobs' own, which
# outlive slurmd); the test's shell never exports SLURM_CONF itself.
cleanup() {
    local rc=$? pid end environ
    set +e
    if [ ${#daemons[@]} -gt 0 ]; then
        SLURM_CONF=$conf timeout 5 scancel --quiet --user="$(id -un)" 2>/dev/null
        kill "${daemons[@]}" 2>/dev/null
        end=$((SECONDS + 10))
        for pid in "${daemons[@]}"; do
            while alive "$pid" && [ $SECONDS -lt $end ]; do sleep 0.1; done
            kill -9 "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
        done
        for environ in /proc/[0-9]*/environ; do
            pid=${environ#/proc/}
            pid=${pid%/environ}
            grep -qzx "SLURM_CONF=$conf" "$environ" 2>/dev/null && kill -9 "$pid" 2>/dev/null
        done
    fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

dump() {
    local f
    for f in "$work"/log/* "$work"/*/logs/*; do
        [ -f "$f" ] || continue
        echo "--- $f (last 15 lines)"
        tail -n 15 "$f"
    done
}
fail() {
    echo "slurm_dry_run: $*"
    dump
    exit 1
}
sl() { SLURM_CONF=$conf "$@"; }

# --- 1. the scripts' own refusals, no Slurm needed ---------------------------
mkdir -p "$work/bad/status"
echo 0 >"$work/bad/status/shard-0-of-3.exit"
echo 5 >"$work/bad/status/shard-1-of-3.exit"
rc=0
said=$(HGEMM_BENCH=/bin/false bash "$scripts/merge_report.sbatch" "$work/bad" 3 2>&1) || rc=$?
[ "$rc" = 11 ] || fail "merge_report.sbatch with unfinished shards: exit $rc, not 11: $said"
grep -q "shard 1/3: exit 5" <<<"$said" && grep -q "shard 2/3: no exit status" <<<"$said" &&
    grep -q -- "--only 1,2 " <<<"$said" || fail "merge_report.sbatch did not name shards 1 and 2: $said"
rc=0
said=$(SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=3 \
    HGEMM_BENCH=/bin/false bash "$scripts/sweep_array.sbatch" "$work/bad" --mnk 64,64,64 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "not 0-2" <<<"$said" || fail "sweep_array.sbatch took --array=1-3: exit $rc: $said"
rc=0
said=$(SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=1 HGEMM_BENCH=/bin/false \
    bash "$scripts/sweep_array.sbatch" "$work/bad" --mnk 64,64,64 --out x 2>&1) || rc=$?
[ "$rc" = 2 ] || fail "sweep_array.sbatch took --out: exit $rc: $said"

for tool in slurmctld slurmd sbatch squeue scontrol scancel munged; do
    command -v "$tool" >/dev/null || { echo "slurm test skipped: no $tool (apt-get install slurm-wlm munge)"; exit 0; }
done

sweep_bin=$hb

# --- the private cluster ------------------------------------------------------
# munged wants every folder above its socket searchable by all.
chmod 755 "$work"
mkdir -p "$work/munge" "$work/log" "$work/state" "$work/spool" "$work/dev"
head -c 1024 /dev/urandom >"$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"

# Two ports no socket of this host uses (/proc/net/tcp*: local address:port, in hex).
used=" "
for table in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$table" ] || continue
    while read -r _ addr _; do
        [[ $addr == *:* ]] && used+="$((16#${addr##*:})) "
    done <"$table"
done
ports=()
while [ ${#ports[@]} -lt 2 ]; do
    port=$((20000 + RANDOM % 30000))
    [[ $used == *" $port "* ]] || [[ " ${ports[*]} " == *" $port "* ]] || ports+=("$port")
done

host=$(hostname -s)
node=$(slurmd -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* //p' | head -n 1 || true)
[ -n "$node" ] || node="CPUs=$(nproc)"
for g in 0 1 2; do ln -s /dev/null "$work/dev/gpu$g"; done
echo "NodeName=$host Name=gpu File=$work/dev/gpu[0-2]" >"$work/gres.conf"
# cred_expire: a requeued job may start cred_expire + 1 s after its end (120 s
# by default); sched_interval: the scheduler looks again every second.
cat >"$conf" <<CONF
ClusterName=hbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket,cred_expire=5
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=sched_interval=1,bf_interval=1
KillWait=2
ReturnToService=2
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 Gres=gpu:3 $node State=UNKNOWN
PartitionName=hbtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

munged -F --socket="$work/munge/munge.socket" --key-file="$work/munge/munge.key" \
    --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" \
    --log-file="$work/log/munged.log" >>"$work/log/munged.out" 2>&1 &
daemons+=($!)
end=$((SECONDS + 10))
until [ -S "$work/munge/munge.socket" ]; do
    [ $SECONDS -lt $end ] && alive "${daemons[0]}" || fail "munged did not start"
    sleep 0.1
done
# Started as simple commands, not through sl (a function), so that $! is the
# daemon itself and not a subshell around it.
SLURM_CONF=$conf slurmctld -D -i -f "$conf" >>"$work/log/slurmctld.out" 2>&1 &
daemons+=($!)
SLURM_CONF=$conf slurmd -D -f "$conf" -N "$host" >>"$work/log/slurmd.out" 2>&1 &
daemons+=($!)
end=$((SECONDS + 30))
until [ "$(sl timeout 5 sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ]; do
    [ $SECONDS -lt $end ] || fail "the node did not come up idle (ports ${ports[*]})"
    for pid in "${daemons[@]}"; do alive "$pid" || fail "a daemon exited at start"; done
    sleep 0.3
done

# Job states of a job (an array: its tasks), one a line.
states() { sl timeout 5 scontrol show job -o "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }
# Waits for every task of a job to end.
wait_job() {
    local end=$((SECONDS + $2)) s
    while :; do
        if s=$(states "$1" 2>/dev/null) && [ -n "$s" ] &&
            ! grep -qvE '^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE)$' <<<"$s"; then
            return 0
        fi
        [ $SECONDS -lt $end ] || fail "job $1 not over after $2 s: $(echo $s)"
        sleep 0.3
    done
}
# A field of one task of an array job (ExitCode, JobState, Restarts).
task_field() {
    sl timeout 5 scontrol show job -o "$1" | grep -E "(^| )ArrayTaskId=$2( |$)" | grep -o " $3=[^ ]*" | cut -d= -f2-
}

# The harness as the jobs see it: logs each call (task, attempt, arguments);
# hands dry runs and help to the real thing; fakes a sweep that writes its
# plan.json and waits (to be requeued), its resume, merge and report.
calls=$work/calls.log
wrap=$work/hgemm-bench
cat >"$wrap" <<WRAP
#!/usr/bin/env bash
echo "\${SLURM_ARRAY_TASK_ID:--}|\${SLURM_RESTART_COUNT:-0}|\$*" >>"$calls"
case " \$* " in *" --dry-run "* | " help "*) exec "$sweep_bin" "\$@" ;; esac
case \$1 in
sweep)
    if [ "\$2" = --resume ]; then
        exit "\$(cat "\$3/resume-exit")"
    fi
    while [ \$# -gt 0 ]; do
        case \$1 in --out) out=\$2 ;; --shard) shard=\$2 ;; esac
        shift
    done
    mkdir -p "\$out"
    echo '{}' >"\$out/plan.json"
    if [ "\$shard" = 1/2 ]; then echo 6; else echo 0; fi >"\$out/resume-exit"
    sleep 60 &
    wait
    exit 1
    ;;
merge | report) exit 0 ;;
esac
echo "fake harness: unexpected call: \$*" >&2
exit 1
WRAP
chmod +x "$wrap"

# --- 2. dry-run shards --------------------------------------------------------
mnk=$work/plan.mnk
printf '%s\n' "# ten configurations, both spellings" 64,64,64 128_128_128 256,512,1024 "" \
    1024_1024_1024 4096,4096,4096 "128,8192,1024  # a comment" 8192_128_4096 12288,64,512 \
    16384,16384,64 2048_2048_2048 >"$mnk"
cand=$(dirname "$hb")/candidates/sample_mma
flags=(--candidate "$cand" --warmup-s 0.1 --time-s 0.2 --mnk-file "$mnk" --modes offline,server --dry-run)
plan=$("$sweep_bin" sweep "${flags[@]}") || fail "the unsharded dry run failed"
want_items=$(grep -E '^[0-9]+,' <<<"$plan" | sort || true)
total=$(grep -c . <<<"$want_items" || true)
sweep_id=$(sed -n 's/^# sweep_id: //p' <<<"$plan")
options=$(grep '^# options:' <<<"$plan" || true)
[ "$total" = 20 ] && [[ $sweep_id =~ ^[0-9a-f]{16}$ ]] || fail "the unsharded plan: $total items, sweep_id '$sweep_id'"

out=$(HGEMM_BENCH=$wrap sl "$scripts/submit_sweep.sh" --shards 3 --root "$work/dry" -- "${flags[@]}" 2>"$work/submit.err") ||
    fail "submit_sweep.sh --dry-run failed: $(cat "$work/submit.err")"
[[ $out =~ ^[0-9]+$ ]] || fail "submit_sweep.sh --dry-run printed '$out', not one job id"
grep -q "no merge job" "$work/submit.err" || fail "submit_sweep.sh --dry-run did not say it queued no merge job"
wait_job "$out" 30
got_items=""
for i in 0 1 2; do
    [ "$(task_field "$out" "$i" JobState)" = COMPLETED ] && [ "$(task_field "$out" "$i" ExitCode)" = 0:0 ] ||
        fail "dry-run task $i: $(task_field "$out" "$i" JobState) $(task_field "$out" "$i" ExitCode)"
    log=$work/dry/logs/shard-$i.out
    [ -f "$log" ] || fail "no log $log"
    head=$(grep '^#' "$log" || true)
    items=$(grep -E '^[0-9]+,' "$log" || true)
    n_items=$(grep -c . <<<"$items" || true)
    [ "$(sed -n 1p <<<"$head")" = "# hgemm-bench sweep plan" ] &&
        grep -qx "# sweep_id: $sweep_id" <<<"$head" && grep -qx "# shard: $i/3" <<<"$head" &&
        grep -qx "# items: $n_items of $total" <<<"$head" && grep -qxF "$options" <<<"$head" &&
        grep -qx "item,m,n,k,mode" "$log" || fail "shard $i's plan header: $(echo $head)"
    [ -z "$(awk -F, -v i="$i" '$1 % 3 != i' <<<"$items")" ] || fail "shard $i holds items of another shard"
    got_items+=$items$'\n'
done
got_items=$(grep . <<<"$got_items" | sort || true)
[ -z "$(uniq -d <<<"$got_items")" ] || fail "an item in two shards: $(uniq -d <<<"$got_items" | head -n 3)"
[ "$got_items" = "$want_items" ] || fail "the shards' items differ from the plan's: $(diff <(echo "$want_items") <(echo "$got_items") | head)"
[ ! -e "$work/dry/status" ] && [ -z "$(ls -d "$work"/dry/shard-* 2>/dev/null)" ] || fail "a dry run wrote shard folders or status files"

# --- 3. requeue, resume, merge and report -------------------------------------
flags=(--candidate "$cand" --mnk-file "$mnk" --modes offline --no-progress)
root=$work/req
out=$(HGEMM_BENCH=$wrap sl "$scripts/submit_sweep.sh" --shards 2 --root "$root" --report-flags --plots \
    -- "${flags[@]}" 2>"$work/submit.err") || fail "submit_sweep.sh failed: $(cat "$work/submit.err")"
read -r array merge <<<"$out"
[[ $array =~ ^[0-9]+$ ]] && [[ $merge =~ ^[0-9]+$ ]] || fail "submit_sweep.sh printed '$out', not two job ids"
end=$((SECONDS + 20))
until [ "$(grep -c "^[01]|0|sweep .* --out " "$calls" 2>/dev/null)" = 2 ] &&
    [ -e "$root/shard-0-of-2/plan.json" ] && [ -e "$root/shard-1-of-2/plan.json" ]; do
    [ $SECONDS -lt $end ] || fail "the two tasks did not start"
    sleep 0.2
done
sl scontrol requeue "$array" || fail "scontrol requeue $array failed"
wait_job "$merge" 40
wait_job "$array" 5
for i in 0 1; do
    want=$([ "$i" = 1 ] && echo 6 || echo 0)
    dir=$root/shard-$i-of-2
    grep -qxF "$i|0|sweep ${flags[*]} --shard $i/2 --out $dir" "$calls" || fail "task $i's first run: $(grep "^$i|" "$calls")"
    grep -qxF "$i|1|sweep --resume $dir --no-progress" "$calls" || fail "task $i did not resume after the requeue: $(grep "^$i|" "$calls")"
    [ "$(task_field "$array" "$i" Restarts)" = 1 ] && [ "$(task_field "$array" "$i" ExitCode)" = "$want:0" ] ||
        fail "task $i: restarts $(task_field "$array" "$i" Restarts), exit $(task_field "$array" "$i" ExitCode), not 1 and $want:0"
    [ "$(cat "$root/status/shard-$i-of-2.exit")" = "$want" ] || fail "task $i's status file does not say $want"
done
[ "$(states "$merge")" = COMPLETED ] || fail "the merge-and-report job: $(states "$merge")"
merged_then_reported() {
    tail -n 2 "$calls" | cut -d'|' -f3 | cmp -s - <(printf '%s\n' "merge $root/merged $root/shard-0-of-2 $root/shard-1-of-2" \
        "report $root/merged --out $root/report --plots")
}
merged_then_reported || fail "not merge then report, after the tasks: $(tail -n 3 "$calls")"

# Shard 1 resubmitted alone: an array of one task (SLURM_ARRAY_TASK_COUNT 1)
# that must still be shard 1 of 2, and the merge job again behind it.
before=$(wc -l <"$calls")
out=$(HGEMM_BENCH=$wrap sl "$scripts/submit_sweep.sh" --shards 2 --root "$root" --only 1 --report-flags --plots \
    -- "${flags[@]}" 2>"$work/submit.err") || fail "submit_sweep.sh --only 1 failed: $(cat "$work/submit.err")"
read -r array merge <<<"$out"
wait_job "$merge" 20
tasks=$(tail -n +$((before + 1)) "$calls" | grep -vE '^-\|0\|(help sweep|sweep .* --dry-run)' || true)
[ "$(head -n 1 <<<"$tasks")" = "1|0|sweep --resume $root/shard-1-of-2 --no-progress" ] &&
    [ "$(wc -l <<<"$tasks")" = 3 ] && merged_then_reported ||
    fail "--only 1: not shard 1 resumed alone, then merge and report: $tasks"
[ "$(task_field "$array" 1 ExitCode)" = 6:0 ] || fail "--only 1: task 1's exit code $(task_field "$array" 1 ExitCode), not 6:0"

echo "slurm_dry_run: ok ($(slurmctld -V), $(munged --version | cut -d' ' -f1), sweep from $(basename "$sweep_bin"), ${SECONDS} s)"
