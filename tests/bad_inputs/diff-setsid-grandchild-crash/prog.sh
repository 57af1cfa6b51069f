echo oops >&2
setsid sleep 20 &
exit 3
