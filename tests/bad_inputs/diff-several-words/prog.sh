echo makespan: 1
