#!/bin/sh
# Programs that misbehave at the process level, for `resched diff`'s tests (tests/diff_hostile.rs).
#
# Usage: hostile.sh MODE [COMMAND...]
#   escape COMMAND...    runs COMMAND, then leaves a grandchild in a new session (setsid) that
#                        holds standard output and error open for 20 s; exits with COMMAND's status
#   escape-late COMMAND... the same, and the grandchild prints garbage after 0.3 s
#   escape-jsonl COMMAND... starts such a grandchild first, then runs COMMAND (a JSONL program)
#   escape-jsonl-crash   starts such a grandchild, reads one request and exits 1 unanswered
#   controls             prints NUL, ESC and carriage-return bytes (not an answer)
#   stray FILE COMMAND...  appends to FILE its own pid, the pid of a grandchild in a new session
#                        with its standard streams closed, and of a background child in its
#                        group (both sleep 30 s), then runs COMMAND and exits with its status
#   stray-exec FILE COMMAND... the same, then replaces itself with COMMAND (a JSONL program,
#                        or `sleep 30` to hang)
set -u
mode="$1"
shift
case "$mode" in
    escape)
        "$@"
        status=$?
        setsid sleep 20 &
        exit "$status"
        ;;
    escape-late)
        "$@"
        status=$?
        setsid sh -c 'sleep 0.3; echo "late garbage from a daemon"; sleep 20' &
        exit "$status"
        ;;
    escape-jsonl)
        setsid sleep 20 &
        exec "$@"
        ;;
    escape-jsonl-crash)
        setsid sleep 20 &
        read -r _request
        echo "giving up" >&2
        exit 1
        ;;
    stray|stray-exec)
        file="$1"
        shift
        echo $$ >> "$file"
        setsid sleep 30 </dev/null >/dev/null 2>&1 &
        echo $! >> "$file"
        sleep 30 &
        echo $! >> "$file"
        if [ "$mode" = stray-exec ]; then
            exec "$@"
        fi
        "$@"
        exit $?
        ;;
    controls)
        printf 'make\000span\033[2J\033]0;title\007 is\r 7\n'
        printf 'warning \033[31mred\033[0m\n' >&2
        ;;
    *)
        echo "hostile.sh: unknown mode $mode" >&2
        exit 2
        ;;
esac
