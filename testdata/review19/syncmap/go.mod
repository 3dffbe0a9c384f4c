module review19/syncmap

go 1.26
