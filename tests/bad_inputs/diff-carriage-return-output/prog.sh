printf '1\rOK'
