head -c 70000000 /dev/zero | tr '\000' 7
