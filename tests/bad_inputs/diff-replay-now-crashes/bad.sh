exit 4
