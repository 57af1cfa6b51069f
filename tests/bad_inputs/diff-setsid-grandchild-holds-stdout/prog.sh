echo 1
setsid sleep 20 &
