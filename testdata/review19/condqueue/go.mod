module review19/condqueue

go 1.26
