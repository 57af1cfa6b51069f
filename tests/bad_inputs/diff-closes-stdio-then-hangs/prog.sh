exec >&- 2>&-
sleep 30
