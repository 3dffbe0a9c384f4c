module review19/afterfunc

go 1.26
