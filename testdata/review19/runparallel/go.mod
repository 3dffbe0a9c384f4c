module review19/runparallel

go 1.26
