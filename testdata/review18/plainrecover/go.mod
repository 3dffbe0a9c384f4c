module review18/plainrecover

go 1.22

require example.com/dep v0.0.0

replace example.com/dep => ./dep
