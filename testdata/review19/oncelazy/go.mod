module review19/oncelazy

go 1.26
