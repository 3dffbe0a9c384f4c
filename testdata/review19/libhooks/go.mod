module review19/libhooks

go 1.26

require example.com/hooks v0.0.0

replace example.com/hooks => ./dep
