module review19/dcl

go 1.26
