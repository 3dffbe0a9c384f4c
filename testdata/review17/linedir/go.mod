module review17/linedir

go 1.26
