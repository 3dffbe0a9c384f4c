module review19/genpool

go 1.26
