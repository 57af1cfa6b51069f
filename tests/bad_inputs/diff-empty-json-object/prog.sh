echo '{}'
