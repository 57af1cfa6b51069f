echo 1
sleep 20 &
