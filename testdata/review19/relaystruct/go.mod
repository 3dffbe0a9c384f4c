module review19/relaystruct

go 1.26

require example.com/watch v0.0.0

replace example.com/watch => ./dep
