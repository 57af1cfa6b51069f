echo 1
