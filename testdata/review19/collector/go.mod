module review19/collector

go 1.26
