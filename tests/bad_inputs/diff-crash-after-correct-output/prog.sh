echo 1
exit 3
