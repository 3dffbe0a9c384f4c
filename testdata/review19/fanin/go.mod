module review19/fanin

go 1.26
