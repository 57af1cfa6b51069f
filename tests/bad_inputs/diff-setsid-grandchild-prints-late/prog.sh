echo 1
setsid sh -c 'sleep 0.3; echo late garbage' &
