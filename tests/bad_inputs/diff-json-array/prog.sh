echo '[1]'
