echo '{"attempts": [{"job": "x"}]}'
