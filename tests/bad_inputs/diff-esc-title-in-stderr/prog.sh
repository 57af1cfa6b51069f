printf '\033]0;pwned\007 failing\n' >&2
exit 3
