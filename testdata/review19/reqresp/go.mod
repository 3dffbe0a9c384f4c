module review19/reqresp

go 1.26
