module review17/deplockdefer

go 1.22

require example.com/dep v0.0.0

replace example.com/dep => ./dep
