setsid sleep 20 &
read -r _l
echo giving up >&2
exit 1
