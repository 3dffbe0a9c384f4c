module review19/structcopy

go 1.26
