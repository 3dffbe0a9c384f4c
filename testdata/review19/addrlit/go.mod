module review19/addrlit

go 1.26
