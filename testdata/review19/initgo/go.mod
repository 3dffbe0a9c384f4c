module review19/initgo

go 1.26
