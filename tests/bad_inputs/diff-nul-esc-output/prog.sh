printf 'a\000b\033[2J\007'
