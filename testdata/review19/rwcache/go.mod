module review19/rwcache

go 1.26
