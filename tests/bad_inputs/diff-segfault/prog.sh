kill -SEGV $$
