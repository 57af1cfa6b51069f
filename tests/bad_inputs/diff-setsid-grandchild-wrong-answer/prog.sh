echo 2
setsid sleep 20 &
