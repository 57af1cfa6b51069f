exec >&-
sleep 30
