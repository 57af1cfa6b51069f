read -r _l
echo 1
