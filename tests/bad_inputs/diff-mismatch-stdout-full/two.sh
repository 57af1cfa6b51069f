echo 2
