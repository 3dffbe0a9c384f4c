module review17/cbconvert

go 1.26
