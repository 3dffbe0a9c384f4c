module review17/cbnested

go 1.26
