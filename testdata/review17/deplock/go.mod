module review17/deplock

go 1.22

require example.com/dep v0.0.0

replace example.com/dep => ./dep
