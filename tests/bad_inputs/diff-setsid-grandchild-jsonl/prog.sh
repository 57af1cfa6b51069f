setsid sleep 20 &
i=0
while read -r _l; do echo "{\"id\":$i,\"makespan\":1}"; i=$((i+1)); done
