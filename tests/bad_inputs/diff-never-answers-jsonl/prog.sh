while read -r _l; do :; done
