module review19/subtests

go 1.26
