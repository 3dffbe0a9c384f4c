module review19/goexitpanic

go 1.26
