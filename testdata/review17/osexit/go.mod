module review17/osexit

go 1.26
