echo -1
