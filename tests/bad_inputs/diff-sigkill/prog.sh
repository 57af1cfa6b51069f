kill -KILL $$
