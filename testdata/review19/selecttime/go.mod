module review19/selecttime

go 1.26
