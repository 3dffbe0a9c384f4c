module review19/planted

go 1.26
