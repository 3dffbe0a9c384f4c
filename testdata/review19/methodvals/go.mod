module review19/methodvals

go 1.26
