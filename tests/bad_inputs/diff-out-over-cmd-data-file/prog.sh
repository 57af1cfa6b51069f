echo 3
