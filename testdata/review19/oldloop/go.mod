module review19/oldloop

go 1.21
