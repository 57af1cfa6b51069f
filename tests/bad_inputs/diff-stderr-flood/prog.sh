head -c 5000000 /dev/zero | tr '\000' x >&2
echo 1
