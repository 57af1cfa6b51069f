printf '{"attempts": ['
