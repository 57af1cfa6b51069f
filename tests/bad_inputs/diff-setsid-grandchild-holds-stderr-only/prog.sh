echo 1
setsid sleep 20 >/dev/null &
