module review19/atomics

go 1.26
