setsid sleep 20 &
while read -r _l; do :; done
