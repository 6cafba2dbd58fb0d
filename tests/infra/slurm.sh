#!/usr/bin/env bash
# A throw-away one-node SLURM cluster (munge + slurmctld + slurmd) for testing
# `snakemake --profile profiles/slurm` on a single machine.
#
#   bash tests/infra/slurm.sh start     start the daemons (installs Debian's slurm/munge if missing)
#   bash tests/infra/slurm.sh status    sinfo/squeue and the recorded PIDs
#   bash tests/infra/slurm.sh stop      cancel remaining jobs, stop every daemon this script started
#
# Every PID this script starts is written to $STATE/pids/<name>.pid, and `stop` ends exactly
# those (TERM, then KILL after 10 s); a munged that was already running is used, not recorded,
# and left alone. State, spool and logs live in $STATE (default /var/tmp/bufrepro-slurm, or
# $BUFREPRO_SLURM_STATE). The node is `localhost` with all CPUs and 80 % of the memory, in
# partition `debug`.
#
# slurm.conf must be at /etc/slurm/slurm.conf (the Snakemake SLURM job step strips SLURM_CONF
# from the environment of its inner srun). `start` installs ours there, moving an existing one
# aside to $STATE/slurm.conf.orig; `stop` puts that back (or removes ours). Needs root.
set -euo pipefail

STATE=${BUFREPRO_SLURM_STATE:-/var/tmp/bufrepro-slurm}
CONF=/etc/slurm/slurm.conf
MARK="# bufrepro test cluster (tests/infra/slurm.sh)"
PIDS=$STATE/pids

log() { printf '[slurm] %s\n' "$*" >&2; }
die() { printf '[slurm] ERROR: %s\n' "$*" >&2; exit 1; }

alive() {  # alive PID NAME: the PID runs and is the program we started
    local pid=$1 name=$2 comm
    [[ -n $pid ]] && [[ -r /proc/$pid/comm ]] || return 1
    comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
    [[ $comm == "$name" ]]
}

recorded_alive() {  # recorded_alive NAME: its pid file exists and the process runs
    local f=$PIDS/$1.pid
    [[ -f $f ]] && alive "$(cat "$f")" "$1"
}

spawn() {  # spawn NAME LOGFILE CMD...: start CMD in the foreground mode of a daemon, record its PID
    local name=$1 logfile=$2
    shift 2
    # setsid/nohup exec the command (no fork here: a background job is no group leader), so $!
    # is the daemon itself; it gets its own session and survives this script.
    nohup setsid "$@" >"$logfile" 2>&1 </dev/null &
    local pid=$!
    echo "$pid" >"$PIDS/$name.pid"
    sleep 0.5
    alive "$pid" "$name" || { tail -20 "$logfile" >&2; die "$name did not start (see $logfile)"; }
    log "started $name (pid $pid)"
}

ensure_packages() {
    local missing=()
    command -v slurmctld >/dev/null 2>&1 || missing+=(slurmctld)
    command -v slurmd >/dev/null 2>&1 || missing+=(slurmd)
    command -v sbatch >/dev/null 2>&1 || missing+=(slurm-client)
    command -v munged >/dev/null 2>&1 || missing+=(munge)
    if ((${#missing[@]})); then
        log "installing ${missing[*]}"
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
    fi
}

munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

write_conf() {
    local cpus mem_kb mem_mb
    cpus=$(nproc)
    mem_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
    mem_mb=$((mem_kb / 1024 * 8 / 10))
    cat >"$STATE/slurm.conf" <<EOF
$MARK
ClusterName=bufrepro
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${BUFREPRO_SLURMCTLD_PORT:-6817}
SlurmdPort=${BUFREPRO_SLURMD_PORT:-6818}
AuthType=auth/munge
StateSaveLocation=$STATE/spool/ctld
SlurmdSpoolDir=$STATE/spool/d
SlurmctldPidFile=$STATE/run/slurmctld.pid
SlurmdPidFile=$STATE/run/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
# Finished jobs stay visible to 'squeue --states=all' for MinJobAge seconds: the Snakemake
# plugin's squeue status check needs that (and falls back to sacct below 3x its first wait).
MinJobAge=600
MaxJobCount=100000
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
}

install_conf() {
    mkdir -p /etc/slurm
    if [[ -f $CONF ]] && ! head -1 "$CONF" | grep -qF "$MARK"; then
        [[ -f $STATE/slurm.conf.orig ]] || mv "$CONF" "$STATE/slurm.conf.orig"
        log "moved the existing $CONF aside to $STATE/slurm.conf.orig"
    fi
    cp "$STATE/slurm.conf" "$CONF"
}

restore_conf() {
    if [[ -f $STATE/slurm.conf.orig ]]; then
        mv "$STATE/slurm.conf.orig" "$CONF"
        log "restored the original $CONF"
    elif [[ -f $CONF ]] && head -1 "$CONF" | grep -qF "$MARK"; then
        rm -f "$CONF"
    fi
}

wait_idle() {
    local i
    for i in $(seq 1 60); do
        if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
            log "node up: $(sinfo -h -N -o '%N %T %c CPUs %m MB' 2>/dev/null)"
            return 0
        fi
        sleep 0.5
    done
    sinfo -N -l >&2 || true
    tail -20 "$STATE/log/slurmctld.log" "$STATE/log/slurmd.log" >&2 || true
    return 1
}

cmd_start() {
    [[ $(id -u) -eq 0 ]] || die "needs root"
    if recorded_alive slurmctld && recorded_alive slurmd; then
        log "already running (state $STATE)"
        wait_idle || die "cluster recorded as running but the node is not up"
        return 0
    fi
    # A half-started cluster from an earlier try: stop what we recorded, start afresh.
    [[ -d $PIDS ]] && cmd_stop
    ensure_packages
    mkdir -p "$PIDS" "$STATE/spool/ctld" "$STATE/spool/d" "$STATE/run" "$STATE/log"
    rm -rf "${STATE:?}/spool/ctld/"* "${STATE:?}/spool/d/"*

    if munge_works; then
        log "munge already works: using the running munged"
    else
        [[ -s /etc/munge/munge.key ]] || { mungekey --create >&2 || create-munge-key -f >&2; }
        chown munge:munge /etc/munge/munge.key 2>/dev/null || true
        chmod 0400 /etc/munge/munge.key
        mkdir -p /run/munge /var/log/munge /var/lib/munge
        chown munge:munge /run/munge /var/log/munge /var/lib/munge
        chmod 0755 /run/munge
        spawn munged "$STATE/log/munged.out" \
            setpriv --reuid=munge --regid=munge --init-groups munged --foreground
        local i
        for i in $(seq 1 20); do munge_works && break; sleep 0.25; done
        munge_works || die "munge does not work (see $STATE/log/munged.out)"
    fi

    write_conf
    install_conf
    # -c: no state from an earlier cluster; -i: ignore unreadable state.
    spawn slurmctld "$STATE/log/slurmctld.out" slurmctld -D -c -i
    spawn slurmd "$STATE/log/slurmd.out" slurmd -D -N localhost
    wait_idle || die "the node did not come up"
    log "cluster ready (state $STATE, config $CONF)"
}

cmd_stop() {
    local name pid i
    # Cancel what is left on our cluster while the controller still runs: a job's slurmstepd
    # does not end with slurmd.
    if recorded_alive slurmctld; then
        local jobs
        jobs=$(squeue -h -o '%i' 2>/dev/null || true)
        if [[ -n $jobs ]]; then
            log "cancelling jobs: $(echo "$jobs" | tr '\n' ' ')"
            # shellcheck disable=SC2086
            scancel $jobs 2>/dev/null || true
            for i in $(seq 1 20); do
                [[ -z $(squeue -h -t PD,R,CG -o '%i' 2>/dev/null) ]] && break
                sleep 0.5
            done
        fi
    fi
    for name in slurmd slurmctld munged; do
        [[ -f $PIDS/$name.pid ]] || continue
        pid=$(cat "$PIDS/$name.pid")
        if alive "$pid" "$name"; then
            kill -TERM "$pid" 2>/dev/null || true
            for i in $(seq 1 20); do alive "$pid" "$name" || break; sleep 0.5; done
            if alive "$pid" "$name"; then
                log "$name (pid $pid) ignored TERM: KILL"
                kill -KILL "$pid" 2>/dev/null || true
            fi
            log "stopped $name (pid $pid)"
        fi
        rm -f "$PIDS/$name.pid"
    done
    restore_conf
}

cmd_status() {
    local name
    for name in munged slurmctld slurmd; do
        if recorded_alive "$name"; then
            echo "$name: pid $(cat "$PIDS/$name.pid")"
        else
            echo "$name: not started here"
        fi
    done
    sinfo 2>/dev/null || true
    squeue --states=all 2>/dev/null || true
}

case ${1:-} in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
esac
