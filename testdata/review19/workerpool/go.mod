module review19/workerpool

go 1.26
