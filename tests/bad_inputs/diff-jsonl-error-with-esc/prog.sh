read -r _l
printf '{"id":0,"error":"\\u001b[31mnope"}\n'
