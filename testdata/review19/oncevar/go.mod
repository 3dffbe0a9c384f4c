module review19/oncevar

go 1.26
